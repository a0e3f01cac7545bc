// DumpTensor and DumpAccChkPoint: a tensor's elements printed in the documented dump format
// (header line `DumpTensor: desc=…, addr=0x…, data_type=…, position=…, dump_size=…`, then the
// values), on stdout in order with the kernel's printf.
#pragma once

#include <cstdio>

#include "tensor.h"

extern "C" {
int32_t ascendc_dump(uint8_t elem, const AscLocal* local, const AscGlobal* global, uint32_t desc, uint32_t countOff,
                     uint32_t dumpSize, const AscendC::detail::RawShape* shape, void (*sink)(const char*),
                     AscLoc loc);
}

namespace AscendC {
namespace detail {

inline void DumpSink(const char* text) { std::fputs(text, stdout); }

template <typename T>
void Dump(const LocalTensor<T>& t, uint32_t desc, uint32_t off, uint32_t n, const ShapeInfo* shape, Loc loc) {
    RawLocal raw = t.Raw();
    RawShape rs = shape != nullptr ? ToRaw(*shape) : RawShape();
    Check(ascendc_dump(dtype<T>, &raw, nullptr, desc, off, n, shape != nullptr ? &rs : nullptr, &DumpSink, loc));
}

template <typename T>
void Dump(const GlobalTensor<T>& t, uint32_t desc, uint32_t off, uint32_t n, const ShapeInfo* shape, Loc loc) {
    RawGlobal raw = t.Raw();
    RawShape rs = shape != nullptr ? ToRaw(*shape) : RawShape();
    Check(ascendc_dump(dtype<T>, nullptr, &raw, desc, off, n, shape != nullptr ? &rs : nullptr, &DumpSink, loc));
}

}  // namespace detail

// Prints `dumpSize` elements of a LocalTensor (UB, L1, L0C…) with `desc` in the header.
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, desc, 0, dumpSize, nullptr, loc);
}

// Prints `dumpSize` elements of a GlobalTensor with `desc` in the header.
template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, desc, 0, dumpSize, nullptr, loc);
}

// Prints `dumpSize` elements laid out by `shapeInfo` (missing elements as `-`).
template <typename T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo,
                detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, desc, 0, dumpSize, &shapeInfo, loc);
}

template <typename T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, const ShapeInfo& shapeInfo,
                detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, desc, 0, dumpSize, &shapeInfo, loc);
}

// Prints `dumpSize` elements starting `countOff` elements in, with `index` in the header.
template <typename T>
void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                     detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, index, countOff, dumpSize, nullptr, loc);
}

template <typename T>
void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff, uint32_t dumpSize,
                     detail::Loc loc = detail::Loc()) {
    detail::Dump(tensor, index, countOff, dumpSize, nullptr, loc);
}

}  // namespace AscendC
