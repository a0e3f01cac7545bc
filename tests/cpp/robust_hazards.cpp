// Synchronisation by hand, right and wrong, for the checker (`ascendc run --check`). `mode`:
// 0 correct; 1 no V->MTE3 flag before the copy out; 2 an extra SetFlag nobody waits for;
// 3 a copy in over data the vector unit is still reading (WAR between MTE2 and V);
// 4 a WaitFlag no SetFlag precedes (a hang on the device: the launch fails);
// 5 counter mode with ResetMask (2^32 - 1 elements) on a repeat-stride-0 Max: long but bounded.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t N = 64;

extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, int32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * N * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 2 * N);
    yGm.SetGlobalBuffer((__gm__ float*)y, N);
    LocalTensor<float> a = buf.Get<float>();
    LocalTensor<float> b = a[N];

    DataCopy(a, xGm, N);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(b, a, 2.0f, N);
    if (mode == 3) {
        DataCopy(a, xGm[N], N);
    }
    if (mode == 4) {
        WaitFlag<HardEvent::V_MTE3>(2);
    }
    if (mode == 5) {
        LocalTensor<int16_t> h = a.ReinterpretCast<int16_t>();
        SetMaskCount();
        ResetMask();
        Max<int16_t, false>(h, h, h, MASK_PLACEHOLDER, 1, {1, 1, 1, 0, 0, 0});
        SetMaskNorm();
        ResetMask();
    }
    if (mode != 1) {
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
    }
    if (mode == 2) {
        SetFlag<HardEvent::V_MTE3>(1);
    }
    DataCopy(yGm, b, N);
}
