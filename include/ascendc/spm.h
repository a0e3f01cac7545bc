// The pipe's SPM buffer (InitSpmBuffer / WriteSpmBuffer / ReadSpmBuffer) and PopStackBuffer.
// The SPM buffer is bufferSize bytes of a GM workspace (910, 310P, A2, A3) or of L1 (910, 310P);
// writes copy UB -> SPM, reads SPM -> UB, at a byte offset of the SPM buffer, either
// DataCopyParams blocks (lengths and gaps in 32-byte units) or a count of elements.
#pragma once

#include "data_copy.h"
#include "tpipe.h"

extern "C" {
int32_t ascendc_spm_init(void* pipe, const AscGlobal* workspace, uint8_t elem, int32_t size, AscLoc loc);
int32_t ascendc_spm_copy(void* pipe, uint8_t write, const AscLocal* tensor, uint8_t elem, uint8_t withParams,
                         const uint16_t* params, int32_t count, int32_t offset, AscLoc loc);
int32_t ascendc_pop_stack_buffer(const void* pipe, uint8_t elem, uint8_t pos, AscLocal* out, uint8_t* ok,
                                 AscLoc loc);
}

namespace AscendC {

namespace detail {
template <typename T>
void SpmCopy(void* pipe, bool write, const LocalTensor<T>& t, const DataCopyParams* p, int32_t count,
             int32_t offset, Loc loc) {
    uint16_t params[4] = {0, 0, 0, 0};
    if (p != nullptr) {
        params[0] = p->blockCount;
        params[1] = p->blockLen;
        params[2] = p->srcStride;
        params[3] = p->dstStride;
    }
    Check(ascendc_spm_copy(pipe, write ? 1 : 0, &t.Raw(), dtype<T>, p != nullptr ? 1 : 0, params, count, offset,
                           loc));
}
}  // namespace detail

template <typename T>
void TPipe::InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize, detail::Loc loc) {
    detail::RawGlobal g = workspace.Raw();
    detail::Check(ascendc_spm_init(handle_, &g, detail::dtype<T>, bufferSize, loc));
}
inline void TPipe::InitSpmBuffer(const int32_t bufferSize, detail::Loc loc) {
    detail::Check(ascendc_spm_init(handle_, nullptr, 0, bufferSize, loc));
}
template <typename T>
void TPipe::WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const DataCopyParams& copyParams, int32_t writeOffset,
                           detail::Loc loc) {
    detail::SpmCopy(handle_, true, writeBuffer, &copyParams, 0, writeOffset, loc);
}
template <typename T>
void TPipe::WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const int32_t writeSize, int32_t writeOffset,
                           detail::Loc loc) {
    detail::SpmCopy(handle_, true, writeBuffer, static_cast<const DataCopyParams*>(nullptr), writeSize, writeOffset,
                    loc);
}
template <typename T>
void TPipe::ReadSpmBuffer(const LocalTensor<T>& readBuffer, const DataCopyParams& copyParams, int32_t readOffset,
                          detail::Loc loc) {
    detail::SpmCopy(handle_, false, readBuffer, &copyParams, 0, readOffset, loc);
}
template <typename T>
void TPipe::ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize, int32_t readOffset,
                          detail::Loc loc) {
    detail::SpmCopy(handle_, false, readBuffer, static_cast<const DataCopyParams*>(nullptr), readSize, readOffset,
                    loc);
}

// A tensor over the rest of pos's buffer after what the kernel's TPipe has given out; false
// (popLocal untouched) when nothing is left.
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& popLocal, detail::Loc loc = detail::Loc()) {
    const void* pipe = detail::currentPipe != nullptr ? detail::currentPipe->Handle() : nullptr;
    detail::RawLocal raw;
    uint8_t ok = 0;
    detail::Check(ascendc_pop_stack_buffer(pipe, detail::dtype<T>, static_cast<uint8_t>(pos), &raw, &ok, loc));
    if (ok != 0) {
        popLocal = LocalTensor<T>::FromRaw(raw);
    }
    return ok != 0;
}

}  // namespace AscendC
