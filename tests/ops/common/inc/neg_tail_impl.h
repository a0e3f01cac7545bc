// The NegTail kernel body, shared by its two entry files (found with `op run -I tests/ops/common/inc`).
// Each block negates one tile; the copies move whole 32-byte blocks, so the last tile reads and
// writes up to 31 bytes past the tensors' ends, inside the padding the device's allocator adds.
#ifndef NEG_TAIL_IMPL_H
#define NEG_TAIL_IMPL_H
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void NegTailBlock(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength)
{
    constexpr uint32_t perBlock = 32 / sizeof(T);
    uint32_t start = AscendC::GetBlockIdx() * tileLength;
    uint32_t n = totalLength - start < tileLength ? totalLength - start : tileLength;
    uint32_t rounded = (n + perBlock - 1) / perBlock * perBlock;
    AscendC::GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x + start, rounded);
    yGm.SetGlobalBuffer((__gm__ T*)y + start, rounded);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tileLength * sizeof(T));
    AscendC::LocalTensor<T> t = buf.Get<T>();
    AscendC::DataCopy(t, xGm, rounded);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, static_cast<T>(-1), rounded);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, t, rounded);
}
#endif
