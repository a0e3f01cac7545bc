// LocalTensor and GlobalTensor: views that the simulator validates on every use.
#pragma once

#include "types.h"

namespace AscendC {
namespace detail {

// An element offset that remembers where `tensor[offset]` was written.
struct Offset {
    uint64_t value;
    Loc loc;
    template <typename I, typename = std::enable_if_t<std::is_integral<I>::value>>
    Offset(I v, Loc l = Loc()) : value(static_cast<uint64_t>(v)), loc(l) {}
};

struct NotWider {};

// `tensor(i)`: reads with GetValue, assignment writes with SetValue (both bounds-checked).
template <typename Tensor, typename T, typename Index>
class ElementRef {
public:
    ElementRef(const Tensor& t, Index i, Loc loc) : t_(t), i_(i), loc_(loc) {}
    operator T() const { return t_.GetValue(i_, loc_); }
    // half / bfloat16_t elements also read as float, as a reference to them would.
    operator std::conditional_t<std::is_class<T>::value, float, NotWider>() const {
        return static_cast<float>(t_.GetValue(i_, loc_));
    }
    const ElementRef& operator=(const T& v) const {
        t_.SetValue(i_, v, loc_);
        return *this;
    }
    const ElementRef& operator=(const ElementRef& other) const { return *this = static_cast<T>(other); }

private:
    const Tensor& t_;
    Index i_;
    Loc loc_;
};

// LocalTensor(pos, addr, tileSize): the simulator checks position, alignment and bounds.
RawLocal PlaceLocal(uint8_t pos, uint8_t elem, uint32_t addr, uint32_t tileSize, Loc loc);

// `src0 op src1` of two tensors (op: 0 Add, 1 Sub, 2 Mul, 3 Div), applied by `dst = …`: the
// tensor-operator form, the level-2 call over dst.GetSize() elements (AssignBinary, vec.h).
template <typename T>
struct TensorBinary {
    const void* src0;
    const void* src1;
    int op;
};
template <typename Tensor, typename T>
void AssignBinary(const Tensor& dst, const TensorBinary<T>& e);

}  // namespace detail

// L2 cache use of a GlobalTensor (SetL2CacheHint).
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_PERSISTENT = 4 };
enum CacheRwMode { READ = 1, WRITE = 2, RW = 3 };

template <typename T>
class LocalTensor {
public:
    LocalTensor() = default;

    // A tensor of `tileSize` elements at byte `addr` of the buffer `pos` maps onto (static
    // tensor programming, no TPipe).
    LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize, detail::Loc loc = detail::Loc())
        : raw_(detail::PlaceLocal(static_cast<uint8_t>(pos), detail::dtype<T>, addr, tileSize, loc)) {}

    // Element `index`, readable and assignable (GetValue / SetValue).
    detail::ElementRef<LocalTensor, T, uint32_t> operator()(uint32_t index, detail::Loc loc = detail::Loc()) const {
        return detail::ElementRef<LocalTensor, T, uint32_t>(*this, index, loc);
    }

    // The view `offset` elements in (same buffer, shorter length).
    LocalTensor operator[](detail::Offset offset) const {
        LocalTensor out;
        detail::Check(ascendc_local_at(detail::dtype<T>, &raw_, static_cast<uint32_t>(offset.value),
                                       &out.raw_, offset.loc));
        return out;
    }

    T GetValue(uint32_t index, detail::Loc loc = detail::Loc()) const {
        T v;
        detail::Check(ascendc_local_value(detail::dtype<T>, &raw_, index, 0, &v, loc));
        return v;
    }

    void SetValue(uint32_t index, const T& value, detail::Loc loc = detail::Loc()) const {
        T v = value;
        detail::Check(ascendc_local_value(detail::dtype<T>, &raw_, index, 1, &v, loc));
    }

    uint32_t GetSize() const { return static_cast<uint32_t>(detail::ElementsIn<T>(raw_.len)); }
    uint32_t GetLength() const { return raw_.len; }
    // The tensor's byte address in its buffer (UB, L1, …): what address lists such as
    // TransDataTo5HD's take (`(uint64_t)t.GetPhyAddr()`). Not dereferenceable on the host.
    uint64_t GetPhyAddr() const { return raw_.addr; }
    uint64_t GetPhyAddr(uint32_t offset) const { return raw_.addr + detail::BytesOf<T>(offset); }
    TPosition GetPosition() const { return static_cast<TPosition>(raw_.pos); }

    void SetSize(uint32_t size, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_local_set_size(detail::dtype<T>, &raw_, size, loc));
    }

    void SetShapeInfo(const ShapeInfo& shapeInfo, detail::Loc loc = detail::Loc()) {
        detail::RawShape r = detail::ToRaw(shapeInfo);
        detail::Check(ascendc_shape_intern(&r, &raw_.shape, loc));
    }
    ShapeInfo GetShapeInfo() const { return raw_.shape != nullptr ? detail::FromRaw(*raw_.shape) : ShapeInfo(); }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>::FromRaw(raw_);
    }

    // `dst = src0 + src1;` (also -, *, /): the level-2 call over this tensor's size.
    LocalTensor& operator=(const detail::TensorBinary<T>& e) {
        detail::AssignBinary(*this, e);
        return *this;
    }
    LocalTensor& operator=(const LocalTensor&) = default;
    LocalTensor(const LocalTensor&) = default;

    // The plain-data handle the simulator works with.
    const detail::RawLocal& Raw() const { return raw_; }
    static LocalTensor FromRaw(const detail::RawLocal& raw) {
        LocalTensor t;
        t.raw_ = raw;
        return t;
    }

private:
    detail::RawLocal raw_{};
};

template <typename T>
class GlobalTensor {
public:
    GlobalTensor() = default;

    void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize) {
        raw_.ptr = buffer;
        raw_.size = bufferSize;
    }
    void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

    // The view `offset` elements further; the size is unchanged, as on the device. An int4b_t
    // view is checked (it must start on a byte and inside its allocation).
    GlobalTensor operator[](detail::Offset offset) const {
        GlobalTensor g = *this;
        if constexpr (std::is_same<T, int4b_t>::value) {
            detail::Check(ascendc_global_at(detail::dtype<T>, &raw_, offset.value, &g.raw_.ptr, offset.loc));
        } else {
            g.raw_.ptr = GetPhyAddr() + offset.value;
        }
        return g;
    }

    void SetShapeInfo(const ShapeInfo& shapeInfo, detail::Loc loc = detail::Loc()) {
        detail::RawShape r = detail::ToRaw(shapeInfo);
        detail::Check(ascendc_shape_intern(&r, &raw_.shape, loc));
    }
    ShapeInfo GetShapeInfo() const { return raw_.shape != nullptr ? detail::FromRaw(*raw_.shape) : ShapeInfo(); }

    // Element `offset`, readable and assignable (GetValue / SetValue).
    detail::ElementRef<GlobalTensor, T, uint64_t> operator()(uint64_t offset, detail::Loc loc = detail::Loc()) const {
        return detail::ElementRef<GlobalTensor, T, uint64_t>(*this, offset, loc);
    }

    // The L2 cache mode of accesses through this tensor. The simulator has no L2 cache: the mode
    // is kept (GetL2CacheHint) and changes no result.
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode) {
        cacheMode_ = mode;
    }
    CacheMode GetL2CacheHint() const { return cacheMode_; }

    __gm__ T* GetPhyAddr() const { return static_cast<T*>(const_cast<void*>(raw_.ptr)); }
    __gm__ T* GetPhyAddr(uint64_t offset) const {
        return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(GetPhyAddr()) + detail::BytesOf<T>(offset));
    }
    uint64_t GetSize() const { return raw_.size; }

    T GetValue(uint64_t index, detail::Loc loc = detail::Loc()) const {
        T v;
        detail::Check(ascendc_global_value(detail::dtype<T>, &raw_, index, 0, &v, loc));
        return v;
    }

    void SetValue(uint64_t index, const T& value, detail::Loc loc = detail::Loc()) const {
        T v = value;
        detail::Check(ascendc_global_value(detail::dtype<T>, &raw_, index, 1, &v, loc));
    }

    // The plain-data handle the simulator works with (held as is: calls pass its address).
    const detail::RawGlobal& Raw() const { return raw_; }

private:
    detail::RawGlobal raw_;
    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

}  // namespace AscendC
