// asc_dump (utils/debug/asc_dump.h): GM, UB and L1 buffers named by their addresses, printed
// in the DumpTensor format.
#include "kernel_operator.h"
#include "tikicpulib.h"
#include "utils/debug/asc_dump.h"

extern "C" __global__ __aicore__ void dump_kernel(GM_ADDR x)
{
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 16);
    asc_dump_gm<half>((__gm__ half*)xGm.GetPhyAddr(), 1, 4);

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, 64);
    AscendC::LocalTensor<half> u = ub.Get<half>();
    AscendC::DataCopy(u, xGm, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    asc_dump_ubuf<half>((__ubuf__ half*)u[4].GetPhyAddr(), 2, 3);

    AscendC::TQue<AscendC::TPosition::A1, 1> l1;
    pipe.InitBuffer(l1, 1, 64);
    AscendC::LocalTensor<half> a1 = l1.AllocTensor<half>();
    AscendC::DataCopy(a1, xGm, 16);
    AscendC::PipeBarrier<PIPE_ALL>();
    asc_dump_l1buf<half>((__cbuf__ half*)a1.GetPhyAddr(), 3, 2);
    l1.FreeTensor(a1);
}

int main()
{
    half* x = (half*)AscendC::GmAlloc(16 * sizeof(half));
    for (int i = 0; i < 16; i++) {
        x[i] = half(i + 0.5f);
    }
    ICPU_RUN_KF(dump_kernel, 1, (GM_ADDR)x);
    AscendC::GmFree(x);
    return 0;
}
