// NegTail's kernel entry on products without an opFile.value (310P).
#include "neg_tail_impl.h"

extern "C" __global__ __aicore__ void neg_tail(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("entry: neg_tail.cpp\n");
    }
    NegTailBlock<DTYPE_X>(x, y, t.totalLength, t.tileLength);
}
