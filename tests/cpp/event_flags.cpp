// Synchronisation by hand instead of queues: a TBuf, event IDs from the pipe (GetTPipePtr,
// FetchEventID / AllocEventID / ReleaseEventID) and SetFlag / WaitFlag between the pipes. Each
// of the blocks triples its own 64 floats and prints its first result.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t PER_BLOCK = 64;

extern "C" __global__ __aicore__ void triple(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, PER_BLOCK * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * PER_BLOCK, PER_BLOCK);
    yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * PER_BLOCK, PER_BLOCK);

    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, PER_BLOCK);
    TEventID loaded = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
    SetFlag<HardEvent::MTE2_V>(loaded);
    WaitFlag<HardEvent::MTE2_V>(loaded);
    Muls(t, t, 3.0f, PER_BLOCK);
    TEventID computed = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
    SetFlag<HardEvent::V_MTE3>(computed);
    WaitFlag<HardEvent::V_MTE3>(computed);
    GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(computed);
    DataCopy(yGm, t, PER_BLOCK);
    AscendC::printf("block %ld: y[0] = %g\n", (long)GetBlockIdx(), t.GetValue(0));
}
