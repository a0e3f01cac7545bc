// Scalar GM access without the data cache, the CTRL register and saturation modes, the
// store-atomic configuration, the SPM buffer, PopStackBuffer, TQueConfig and TBufPool::Reset
// through the C++ headers. Kernel and host in one file: `sys_resources MODE`; mode 0 runs every
// case on A2 and prints "<case>: PASS", mode 10 the 310P cases; modes 1-3 each make one
// documented mistake, which fails the launch.
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t SYNC_FLAG = 1;
constexpr int32_t DATA_VALUE = 21;

// The GmByPassDCache pages' example: block 0 publishes a value and then a flag, block 1 polls
// the flag and writes twice the value.
extern "C" __global__ __aicore__ void gm_bypass_handshake(GM_ADDR srcGm, GM_ADDR dstGm)
{
    GlobalTensor<int32_t> srcGlobal;
    srcGlobal.SetGlobalBuffer((__gm__ int32_t*)srcGm, 8);
    if (GetBlockIdx() == 0) {
        WriteGmByPassDCache<int32_t>(reinterpret_cast<__gm__ int32_t*>(srcGm) + 1, DATA_VALUE);
        WriteGmByPassDCache<int32_t>(reinterpret_cast<__gm__ int32_t*>(srcGm), SYNC_FLAG);
    } else {
        for (long i = 0; i < 100000000L; i++) {
            __gm__ int32_t* addr = const_cast<__gm__ int32_t*>(srcGlobal.GetPhyAddr());
            int32_t flagValue = ReadGmByPassDCache<int32_t>(addr);
            if (flagValue == SYNC_FLAG) {
                int32_t dataValue = ReadGmByPassDCache<int32_t>(addr + 1);
                WriteGmByPassDCache<int32_t>(reinterpret_cast<__gm__ int32_t*>(dstGm), 2 * dataValue);
                return;
            }
        }
    }
}

// The TQue page's configuration function and its constant.
constexpr TQueConfig GetMyTQueConfig(bool nd2nzIn, bool nz2ndIn, bool scmBlockGroupIn, uint32_t bufferLenIn,
                                     uint32_t bufferNumberIn, uint32_t consumerSizeIn, const TPosition consumerIn[])
{
    return {.nd2nz = nd2nzIn,
            .nz2nd = nz2ndIn,
            .scmBlockGroup = scmBlockGroupIn,
            .bufferLen = bufferLenIn,
            .bufferNumber = bufferNumberIn,
            .consumerSize = consumerSizeIn,
            .consumer = {consumerIn[0], consumerIn[1], consumerIn[2], consumerIn[3], consumerIn[4], consumerIn[5],
                         consumerIn[6], consumerIn[7]}};
}
static constexpr TPosition tp[8] = {TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX,
                                    TPosition::MAX, TPosition::MAX, TPosition::MAX, TPosition::MAX};
static constexpr TQueConfig conf = GetMyTQueConfig(false, false, false, 0, 1, 0, tp);

// out[i]: results read back by the host (int64 each); ws: the SPM workspace (1024 halves).
extern "C" __global__ __aicore__ void sys_resources(GM_ADDR out, GM_ADDR ws, GM_ADDR atomicGm, int32_t mode)
{
    GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int64_t*)out, 128);
    TPipe pipe;

    if (mode == 10) {
        // 310P: the SPM buffer in L1.
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        LocalTensor<half> local = buf.Get<half>(128);
        for (int i = 0; i < 128; i++) {
            local.SetValue(i, half(i));
        }
        pipe.InitSpmBuffer(1024 * sizeof(half));
        DataCopyParams copyParams{2, 2, 1, 1};
        pipe.WriteSpmBuffer(local, copyParams, 32);
        Duplicate(local, half(0), 128);
        pipe.ReadSpmBuffer(local, copyParams, 32);
        for (int i = 0; i < 80; i++) {
            outGm.SetValue(i, static_cast<int64_t>(float(local.GetValue(i))));
        }
        return;
    }

    // CTRL[48] = 1 (the SetCtrlSpr page's example): INF + 1 stays INF; reset to 0: 65504.
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(calc, 1024);
    LocalTensor<half> x = calc.GetWithOffset<half>(128, 0);
    LocalTensor<half> y = calc.GetWithOffset<half>(128, 256);
    for (int i = 0; i < 128; i++) {
        x.SetValue(i, i < 64 ? half(i) : half(INFINITY));
    }
    SetCtrlSpr<48, 48>(1);
    int64_t valueCtrlAfterSet = GetCtrlSpr<48, 48>();
    Adds(y, x, half(1), 128);
    outGm.SetValue(0, valueCtrlAfterSet);
    outGm.SetValue(1, std::isinf(float(y.GetValue(100))) ? 1 : 0);
    outGm.SetValue(2, GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0);
    SetCtrlSpr<48, 48>(0);
    Adds(y, x, half(1), 128);
    outGm.SetValue(3, GetCtrlSpr<48, 48>());
    outGm.SetValue(4, static_cast<int64_t>(float(y.GetValue(100))));
    outGm.SetValue(5, static_cast<int64_t>(float(y.GetValue(5))));

    // SetSaturationFlag<CAST> / GetSaturationFlag<CAST> (the pages' examples), then CAST off.
    SetSaturationFlag<SaturationMode::CAST>(true);
    bool res = GetSaturationFlag<SaturationMode::CAST>();
    LocalTensor<int32_t> s32 = calc.GetWithOffset<int32_t>(64, 512);
    LocalTensor<int16_t> d16 = calc.GetWithOffset<int16_t>(64, 768);
    s32.SetValue(0, 70000);
    Cast(d16, s32, RoundMode::CAST_NONE, 64);
    int64_t saturated = d16.GetValue(0);
    SetSaturationFlag<SaturationMode::CAST>(false);
    Cast(d16, s32, RoundMode::CAST_NONE, 64);
    outGm.SetValue(6, res ? 1 : 0);
    outGm.SetValue(7, saturated);
    outGm.SetValue(8, d16.GetValue(0));
    outGm.SetValue(9, GetSaturationFlag<SaturationMode::CAST>() ? 1 : 0);
    SetSaturationFlag<SaturationMode::CAST>(true);

    // The store-atomic pages' example, then the atomic add it configures.
    SetStoreAtomicConfig<AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM>();
    uint16_t type = 0;
    uint16_t op = 0;
    GetStoreAtomicConfig(type, op);
    outGm.SetValue(10, type);
    outGm.SetValue(11, op);
    GlobalTensor<half> atomicGlobal;
    atomicGlobal.SetGlobalBuffer((__gm__ half*)atomicGm, 16);
    LocalTensor<half> ones = calc.GetWithOffset<half>(16, 896);
    Duplicate(ones, half(2), 16);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(atomicGlobal, ones, 16);
    SetStoreAtomicConfig<AtomicDtype::ATOMIC_NONE, AtomicOp::ATOMIC_SUM>();
    GetStoreAtomicConfig(type, op);
    outGm.SetValue(12, type);

    // The SPM buffer in the workspace (the WriteSpmBuffer page's two examples).
    GlobalTensor<half> workspace_gm;
    int len = 1024;
    workspace_gm.SetGlobalBuffer((__gm__ half*)ws, len);
    auto gm = workspace_gm[GetBlockIdx() * len];
    pipe.InitSpmBuffer(gm, len * sizeof(half));
    TBuf<TPosition::VECCALC> spill;
    pipe.InitBuffer(spill, 256);
    LocalTensor<half> writeLocal = spill.Get<half>();
    for (int i = 0; i < 128; i++) {
        writeLocal.SetValue(i, half(i));
    }
    int offset = 32;
    DataCopyParams copyParams{2, 2, 1, 1};
    pipe.WriteSpmBuffer(writeLocal, copyParams, offset);
    Duplicate(writeLocal, half(0), 128);
    pipe.ReadSpmBuffer(writeLocal, copyParams, offset);
    outGm.SetValue(13, static_cast<int64_t>(float(writeLocal.GetValue(31))));
    outGm.SetValue(14, static_cast<int64_t>(float(writeLocal.GetValue(40))));
    outGm.SetValue(15, static_cast<int64_t>(float(writeLocal.GetValue(79))));
    int dataSize = 32;
    pipe.WriteSpmBuffer(writeLocal, dataSize, 256);
    Duplicate(writeLocal, half(0), 128);
    pipe.ReadSpmBuffer(writeLocal, dataSize, 256);
    outGm.SetValue(16, static_cast<int64_t>(float(writeLocal.GetValue(31))));
    outGm.SetValue(17, static_cast<int64_t>(float(writeLocal.GetValue(32))));

    // TQueConfig (the TQue page's example): bufferNumber 1 announced, InitBuffer with 1.
    TQue<TPosition::VECIN, 1, &conf> inQueueX;
    TQue<TPosition::VECOUT, 1, &conf> outQueue;
    pipe.InitBuffer(inQueueX, 1, 128 * sizeof(float));
    pipe.InitBuffer(outQueue, 1, 128 * sizeof(int8_t));
    LocalTensor<float> qx = inQueueX.AllocTensor<float>();
    outGm.SetValue(18, qx.GetSize());
    inQueueX.FreeTensor(qx);

    // TBufPool: a queue given memory again after Reset works.
    TBufPool<TPosition::VECCALC> pool;
    pipe.InitBufPool(pool, 4096);
    TQue<TPosition::VECIN, 1> pq;
    pool.InitBuffer(pq, 1, 1024);
    LocalTensor<float> before = pq.AllocTensor<float>();
    pq.FreeTensor(before);
    pool.Reset();
    if (mode == 1) {
        Duplicate(before, 1.0f, 256);
    }
    pool.InitBuffer(pq, 1, 512);
    LocalTensor<float> after = pq.AllocTensor<float>();
    Duplicate(after, 3.0f, 128);
    outGm.SetValue(19, static_cast<int64_t>(after.GetValue(127)));
    pq.FreeTensor(after);

    // PopStackBuffer (the page's example): the rest of UB after the pipe's buffers.
    LocalTensor<int16_t> popBuffer;
    bool ret = PopStackBuffer<int16_t, TPosition::VECCALC>(popBuffer);
    outGm.SetValue(20, ret ? 1 : 0);
    outGm.SetValue(21, popBuffer.GetSize());

    if (mode == 2) {
        SetCtrlSpr<47, 48>(1);
    }
    if (mode == 3) {
        GlobalTensor<float> f;
        f.SetGlobalBuffer((__gm__ float*)ws, 4);
        ReadGmByPassDCache<float>(const_cast<__gm__ float*>(f.GetPhyAddr()));
    }
}

int main(int argc, char** argv)
{
    int32_t mode = argc > 1 ? std::atoi(argv[1]) : 0;
    int64_t* out = (int64_t*)GmAlloc(128 * sizeof(int64_t));
    half* ws = (half*)GmAlloc(1024 * sizeof(half));
    half* atomicGm = (half*)GmAlloc(16 * sizeof(half));
    for (int i = 0; i < 16; i++) {
        atomicGm[i] = half(1.5);
    }
    ICPU_RUN_KF(sys_resources, 1, (GM_ADDR)out, (GM_ADDR)ws, (GM_ADDR)atomicGm, mode);
    bool ok = true;
    auto report = [&ok](const char* name, bool pass) {
        std::printf("%s: %s\n", name, pass ? "PASS" : "FAIL");
        ok = ok && pass;
    };
    if (mode == 10) {
        bool spm = true;
        for (int i = 0; i < 80; i++) {
            spm = spm && out[i] == ((i >= 32 && i < 48) ? 0 : i);
        }
        report("SpmBuffer L1", spm);
    } else {
        report("CtrlSpr", out[0] == 1 && out[1] == 1 && out[2] == 0 && out[3] == 0 && out[4] == 65504 &&
                              out[5] == 6);
        report("SaturationFlag CAST", out[6] == 1 && out[7] == 32767 && out[8] == 4464 && out[9] == 0);
        bool atomic = out[10] == 2 && out[11] == 0 && out[12] == 0;
        for (int i = 0; i < 16; i++) {
            atomic = atomic && float(atomicGm[i]) == 3.5f;
        }
        report("StoreAtomicConfig", atomic);
        bool spm = out[13] == 31 && out[14] == 0 && out[15] == 79 && out[16] == 31 && out[17] == 0;
        // The SPM workspace: halves 16..47 and 64..95 hold the first write's blocks.
        spm = spm && float(ws[16]) == 0.0f && float(ws[47]) == 31.0f && float(ws[64]) == 48.0f &&
              float(ws[95]) == 79.0f && float(ws[48]) == 0.0f;
        report("SpmBuffer", spm);
        report("TQueConfig", out[18] == 128);
        report("TBufPool Reset", out[19] == 3);
        report("PopStackBuffer", out[20] == 1 && out[21] == (192 * 1024 - 1024 - 256 - 128 * 4 - 128 - 4096) / 2);

        int32_t* src = (int32_t*)GmAlloc(8 * sizeof(int32_t));
        int32_t* dst = (int32_t*)GmAlloc(8 * sizeof(int32_t));
        ICPU_RUN_KF(gm_bypass_handshake, 2, (GM_ADDR)src, (GM_ADDR)dst);
        report("GmByPassDCache", dst[0] == 2 * DATA_VALUE && src[0] == SYNC_FLAG && src[1] == DATA_VALUE);
        GmFree(src);
        GmFree(dst);
    }
    GmFree(out);
    GmFree(ws);
    GmFree(atomicGm);
    return ok ? 0 : 1;
}
