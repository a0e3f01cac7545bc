// asc_dump: `dump_size` elements at a raw buffer address printed in the DumpTensor format, with
// `desc` in the header. Device-local buffers are named by their address (what
// LocalTensor::GetPhyAddr() gives, cast to a pointer), so each has its own spelling:
// asc_dump_ubuf (UB), asc_dump_l1buf (L1), asc_dump_cbuf (L0C); asc_dump_gm and the unsuffixed
// asc_dump take a GM pointer.
#pragma once

#include "kernel_operator.h"

namespace AscendC {
namespace detail {

template <typename T>
void DumpAt(TPosition pos, const T* input, uint32_t desc, uint32_t dumpSize, Loc loc) {
    // Any element address may be dumped: view it inside a tensor that starts on the 32-byte
    // boundary below it.
    const uint32_t addr = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(input));
    const uint32_t base = addr & ~31u;
    const uint32_t lead = (addr - base) / sizeof(T);
    LocalTensor<T> t(pos, base, lead + dumpSize, loc);
    Dump(t[lead], desc, 0, dumpSize, nullptr, loc);
}

}  // namespace detail
}  // namespace AscendC

template <typename T>
void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size,
                 AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    AscendC::GlobalTensor<T> t;
    t.SetGlobalBuffer(input, dump_size);
    AscendC::detail::Dump(t, desc, 0, dump_size, nullptr, loc);
}

template <typename T>
void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size,
                   AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    AscendC::detail::DumpAt(AscendC::TPosition::VECCALC, input, desc, dump_size, loc);
}

template <typename T>
void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size,
                    AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    AscendC::detail::DumpAt(AscendC::TPosition::A1, input, desc, dump_size, loc);
}

template <typename T>
void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size,
                   AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    AscendC::detail::DumpAt(AscendC::TPosition::CO1, input, desc, dump_size, loc);
}

// The unsuffixed form: a GM pointer (a device-local buffer needs its suffixed spelling here,
// as the address spaces are not told apart by the host compiler).
template <typename T>
void asc_dump(__gm__ T* input, uint32_t desc, uint32_t dump_size, AscendC::detail::Loc loc = AscendC::detail::Loc()) {
    asc_dump_gm(input, desc, dump_size, loc);
}
