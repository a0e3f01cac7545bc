// ListTensorDesc and TensorDesc: a list of tensors passed in one GM buffer laid out as
//   uint64 ptrOffset                       byte offset of the pointer array from the start
//   per tensor: uint64 dim, uint64 shape[dim]   (the low 32 bits of the first word: dim)
//   uint64 ptr[count]                      the tensors' GM addresses
// Every read is checked against the GM allocation.
#pragma once

#include "kernel_operator.h"

extern "C" int32_t ascendc_api_error(uint8_t api, const char* message, AscLoc loc);

namespace AscendC {

template <class T>
class TensorDesc {
public:
    TensorDesc() = default;
    ~TensorDesc() = default;

    // Where GetDesc writes the shape (at least GetDim() words).
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() const { return dim_; }
    uint64_t GetIndex() const { return index_; }
    uint64_t GetShape(uint32_t offset, detail::Loc loc = detail::Loc()) const {
        if (shape_ == nullptr || offset >= dim_) {
            detail::Check(ascendc_api_error(1, "GetShape: offset is not below GetDim() (or SetShapeAddr was not called)",
                                            loc));
        }
        return shape_[offset];
    }
    T* GetDataPtr() const { return data_; }
    GlobalTensor<T> GetDataObj() const {
        GlobalTensor<T> g;
        g.SetGlobalBuffer(data_);
        return g;
    }

    // Filled by ListTensorDesc::GetDesc.
    uint64_t* ShapeAddr() const { return shape_; }
    void Fill(uint64_t dim, uint64_t index, T* data) {
        dim_ = dim;
        index_ = index;
        data_ = data;
    }

private:
    uint64_t* shape_ = nullptr;
    uint64_t dim_ = 0;
    uint64_t index_ = 0;
    T* data_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
                   detail::Loc loc = detail::Loc()) {
        Init(data, length, shapeSize, loc);
    }

    // Parses the layout; `length` (bytes) and `shapeSize` (pointer count) are checked when given.
    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff,
              detail::Loc loc = detail::Loc()) {
        base_ = static_cast<uint8_t*>(data);
        uint64_t ptrOffset = Word(0, loc);
        if (ptrOffset % 8 != 0 || ptrOffset < 8) {
            Fail("the pointer offset (first word) must be a multiple of 8 and at least 8", loc);
        }
        ptrWord_ = ptrOffset / 8;
        count_ = 0;
        for (uint64_t w = 1; w < ptrWord_; count_++) {
            w += 1 + (Word(w, loc) & 0xffffffffu);
        }
        if (length != 0xffffffff && ptrOffset + 8 * count_ != length) {
            Fail("the layout's size differs from `length`", loc);
        }
        if (shapeSize != 0xffffffff && count_ != shapeSize) {
            Fail("the tensor count differs from `shapeSize`", loc);
        }
    }

    // The description of tensor `index`; its shape goes to desc's shape address.
    template <class T>
    void GetDesc(TensorDesc<T>& desc, uint32_t index, detail::Loc loc = detail::Loc()) {
        CheckIndex(index, loc);
        uint64_t w = 1;
        for (uint32_t i = 0; i < index; i++) {
            w += 1 + (Word(w, loc) & 0xffffffffu);
        }
        uint64_t dim = Word(w, loc) & 0xffffffffu;
        if (desc.ShapeAddr() == nullptr) {
            Fail("GetDesc: call TensorDesc::SetShapeAddr first", loc);
        }
        for (uint64_t d = 0; d < dim; d++) {
            desc.ShapeAddr()[d] = Word(w + 1 + d, loc);
        }
        desc.Fill(dim, index, GetDataPtr<T>(index, loc));
    }

    // The GM address of tensor `index`.
    template <class T>
    T* GetDataPtr(uint32_t index, detail::Loc loc = detail::Loc()) {
        CheckIndex(index, loc);
        return reinterpret_cast<T*>(static_cast<uintptr_t>(Word(ptrWord_ + index, loc)));
    }

    // The number of tensors.
    uint32_t GetSize() const { return static_cast<uint32_t>(count_); }

private:
    uint64_t Word(uint64_t i, detail::Loc loc) const {
        uint64_t v = 0;
        detail::Check(ascendc_gm_read(&v, base_ + 8 * i, sizeof(v), loc));
        return v;
    }
    void CheckIndex(uint32_t index, detail::Loc loc) const {
        if (index >= count_) {
            Fail("index is not below GetSize()", loc);
        }
    }
    [[noreturn]] static void Fail(const char* message, detail::Loc loc) {
        detail::Check(ascendc_api_error(0, message, loc));
        std::abort();
    }

    uint8_t* base_ = nullptr;
    uint64_t ptrWord_ = 0;
    uint64_t count_ = 0;
};

}  // namespace AscendC
