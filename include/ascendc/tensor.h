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

}  // namespace detail

template <typename T>
class LocalTensor {
public:
    LocalTensor() = default;

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

    uint32_t GetSize() const { return raw_.len / sizeof(T); }
    uint32_t GetLength() const { return raw_.len; }
    TPosition GetPosition() const { return static_cast<TPosition>(raw_.pos); }

    void SetSize(uint32_t size, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_local_set_size(detail::dtype<T>, &raw_, size, loc));
    }

    void SetShapeInfo(const ShapeInfo& shapeInfo) {
        raw_.shape = shapeInfo;
        raw_.hasShape = 1;
    }
    ShapeInfo GetShapeInfo() const { return raw_.shape; }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>::FromRaw(raw_);
    }

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
        ptr_ = buffer;
        size_ = bufferSize;
    }
    void SetGlobalBuffer(__gm__ T* buffer) { SetGlobalBuffer(buffer, 0); }

    // The view `offset` elements further; the size is unchanged, as on the device.
    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor g = *this;
        g.ptr_ = ptr_ + offset;
        return g;
    }

    void SetShapeInfo(const ShapeInfo& shapeInfo) {
        shape_ = shapeInfo;
        hasShape_ = 1;
    }
    ShapeInfo GetShapeInfo() const { return shape_; }

    __gm__ T* GetPhyAddr() const { return ptr_; }
    __gm__ T* GetPhyAddr(uint64_t offset) const { return ptr_ + offset; }
    uint64_t GetSize() const { return size_; }

    T GetValue(uint64_t index, detail::Loc loc = detail::Loc()) const {
        T v;
        detail::RawGlobal g = Raw();
        detail::Check(ascendc_global_value(detail::dtype<T>, &g, index, 0, &v, loc));
        return v;
    }

    void SetValue(uint64_t index, const T& value, detail::Loc loc = detail::Loc()) const {
        T v = value;
        detail::RawGlobal g = Raw();
        detail::Check(ascendc_global_value(detail::dtype<T>, &g, index, 1, &v, loc));
    }

    detail::RawGlobal Raw() const {
        detail::RawGlobal g;
        g.ptr = ptr_;
        g.size = size_;
        g.hasShape = hasShape_;
        g.shape = shape_;
        return g;
    }

private:
    __gm__ T* ptr_ = nullptr;
    uint64_t size_ = 0;
    uint8_t hasShape_ = 0;
    ShapeInfo shape_;
};

}  // namespace AscendC
