// Tiling-struct definitions of framework operators (host side): BEGIN_TILING_DATA_DEF …
// END_TILING_DATA_DEF declare a class in namespace optiling with set_<field> / get_<field>,
// SaveToBuffer and GetDataSize; REGISTER_TILING_DATA_CLASS ties it to an operator type.
//
// Layout: fields in declaration order, each at an offset aligned to its element size (a nested
// struct to its own alignment), the whole rounded up to the largest alignment — the layout of
// the plain C struct with the same members, which is what the kernel's GET_TILING_DATA reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendc/host/kernel_macros_off.h"
#include "ascendc/host/fail.h"
#include "ascendc/host/context.h"
#include "ascendc/host/ge_types.h"
#include "ascendc/host/kernel_macros_on.h"

namespace optiling {

// One field of a tiling struct.
struct TilingFieldInfo {
    // C type of the element (`uint32_t`) or the nested struct's class name.
    std::string type;
    std::string name;
    // Byte offset in the struct.
    size_t offset = 0;
    // Bytes of one element (of the whole nested struct for a struct field).
    size_t elemSize = 0;
    // Element count (1 for scalars and structs).
    size_t count = 1;
    // For a nested struct: the byte distance from the owner to the nested object.
    std::ptrdiff_t member = -1;
};

// Base of every tiling struct class.
class TilingDef {
public:
    explicit TilingDef(const char* className) : className_(className) {}
    virtual ~TilingDef() = default;

    // Copies the struct's GetDataSize() bytes to `dst`, which holds `capacity` bytes.
    void SaveToBuffer(void* dst, size_t capacity) const {
        if (dst == nullptr) {
            ascendc_host::Fail(className_ + "::SaveToBuffer: the destination is null");
        }
        if (capacity < size_) {
            ascendc_host::Fail(className_ + "::SaveToBuffer: the struct has " + std::to_string(size_) +
                               " bytes, the destination holds " + std::to_string(capacity));
        }
        Serialize(static_cast<uint8_t*>(dst));
    }
    // Bytes SaveToBuffer writes.
    size_t GetDataSize() const { return size_; }
    const char* GetTilingClassName() const { return className_.c_str(); }
    // Fields in declaration order.
    const std::vector<TilingFieldInfo>& Fields() const { return fields_; }
    // Alignment of the struct in bytes.
    size_t Alignment() const { return align_; }
    // The nested struct object of a struct field.
    const TilingDef* Nested(const TilingFieldInfo& f) const {
        return reinterpret_cast<const TilingDef*>(reinterpret_cast<const char*>(this) + f.member);
    }

    // Adds a field of `count` elements of `elemSize` bytes; returns its offset.
    size_t AscendcAddField(const char* type, const char* name, size_t elemSize, size_t count) {
        size_t offset = Place(elemSize, elemSize * count);
        fields_.push_back({type, name, offset, elemSize, count, -1});
        return offset;
    }
    // Adds a nested struct field (the member object `nested` of this object); returns its offset.
    size_t AscendcAddStruct(const char* type, const char* name, const TilingDef* nested) {
        size_t offset = Place(nested->align_, nested->size_);
        std::ptrdiff_t member = reinterpret_cast<const char*>(nested) - reinterpret_cast<const char*>(this);
        fields_.push_back({type, name, offset, nested->size_, 1, member});
        return offset;
    }
    void AscendcPut(size_t offset, const void* src, size_t n) { std::memcpy(data_.data() + offset, src, n); }
    void AscendcGet(size_t offset, void* dst, size_t n) const { std::memcpy(dst, data_.data() + offset, n); }
    uint8_t* AscendcAt(size_t offset) { return data_.data() + offset; }
    const uint8_t* AscendcAt(size_t offset) const { return data_.data() + offset; }

private:
    size_t Place(size_t align, size_t bytes) {
        if (align == 0) {
            align = 1;
        }
        size_t offset = (end_ + align - 1) / align * align;
        end_ = offset + bytes;
        if (align > align_) {
            align_ = align;
        }
        size_ = (end_ + align_ - 1) / align_ * align_;
        data_.resize(size_, 0);
        return offset;
    }
    void Serialize(uint8_t* dst) const {
        std::memcpy(dst, data_.data(), size_);
        for (const auto& f : fields_) {
            if (f.member >= 0) {
                Nested(f)->Serialize(dst + f.offset);
            }
        }
    }

    std::string className_;
    std::vector<TilingFieldInfo> fields_;
    std::vector<uint8_t> data_;
    size_t end_ = 0;
    size_t size_ = 0;
    size_t align_ = 1;
};

namespace detail {

// The offset of one field, taken when the owning object is constructed.
struct FieldSlot {
    size_t offset;
    template <typename T>
    static FieldSlot Scalar(TilingDef* owner, const char* type, const char* name, size_t count) {
        static_assert(std::is_arithmetic<T>::value, "tiling fields are arithmetic types or tiling structs");
        return FieldSlot{owner->AscendcAddField(type, name, sizeof(T), count)};
    }
    static FieldSlot Struct(TilingDef* owner, const char* type, const char* name, const TilingDef* nested) {
        return FieldSlot{owner->AscendcAddStruct(type, name, nested)};
    }
};

// A registered tiling class: its name and a factory.
struct TilingClass {
    std::string className;
    std::function<std::unique_ptr<TilingDef>()> make;
};

// Tiling classes by operator type (REGISTER_TILING_DATA_CLASS).
inline std::map<std::string, TilingClass>& TilingClasses() {
    static std::map<std::string, TilingClass> classes;
    return classes;
}

struct TilingClassRegistrar {
    TilingClassRegistrar(const char* opType, const char* className, std::function<std::unique_ptr<TilingDef>()> make) {
        TilingClasses()[opType] = TilingClass{className, std::move(make)};
    }
};

}  // namespace detail
}  // namespace optiling

// The kernel header ascendc/tiling.h and this one both define the tiling-struct macros (a
// single-source program includes both): the one included last defines them.
#undef BEGIN_TILING_DATA_DEF
#undef TILING_DATA_FIELD_DEF
#undef TILING_DATA_FIELD_DEF_ARR
#undef TILING_DATA_FIELD_DEF_STRUCT
#undef END_TILING_DATA_DEF
#undef REGISTER_TILING_DATA_CLASS
#define BEGIN_TILING_DATA_DEF(name)                       \
    class name : public ::optiling::TilingDef {            \
    public:                                                \
        name() : ::optiling::TilingDef(#name) {}

#define TILING_DATA_FIELD_DEF(type, field)                                                                        \
private:                                                                                                          \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                         \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, 1);                                      \
                                                                                                                  \
public:                                                                                                           \
    void set_##field(type value) { AscendcPut(field##_ascendc_slot_.offset, &value, sizeof(type)); }              \
    type get_##field() const {                                                                                    \
        type value;                                                                                               \
        AscendcGet(field##_ascendc_slot_.offset, &value, sizeof(type));                                           \
        return value;                                                                                             \
    }

#define TILING_DATA_FIELD_DEF_ARR(type, count, field)                                                            \
private:                                                                                                          \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                         \
        ::optiling::detail::FieldSlot::Scalar<type>(this, #type, #field, (count));                                \
                                                                                                                  \
public:                                                                                                           \
    void set_##field(const type* values) {                                                                        \
        AscendcPut(field##_ascendc_slot_.offset, values, sizeof(type) * (count));                                 \
    }                                                                                                             \
    type* get_##field() { return reinterpret_cast<type*>(AscendcAt(field##_ascendc_slot_.offset)); }              \
    const type* get_##field() const { return reinterpret_cast<const type*>(AscendcAt(field##_ascendc_slot_.offset)); }

#define TILING_DATA_FIELD_DEF_STRUCT(type, field)                                                                \
public:                                                                                                           \
    type field;                                                                                                   \
                                                                                                                  \
private:                                                                                                          \
    ::optiling::detail::FieldSlot field##_ascendc_slot_ =                                                         \
        ::optiling::detail::FieldSlot::Struct(this, #type, #field, &field);                                       \
                                                                                                                  \
public:

#define END_TILING_DATA_DEF }

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                   \
    static ::optiling::detail::TilingClassRegistrar g_ascendc_tiling_class_##op_type##_##class_name(      \
        #op_type, #class_name, []() { return std::unique_ptr<::optiling::TilingDef>(new class_name()); });
