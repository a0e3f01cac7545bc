// Debugging, tool, cache-control and synchronisation APIs through the C++ headers. Kernel and
// host in one file: with no argument every passing case prints "<case>: PASS"; argv[1] selects a
// failing kernel instead ("ascendc_assert", "assert", "trap", "ia", "deadlock").
#define ASCENDC_TIME_STAMP_ON
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr int32_t BLOCK_NUM = 8;
constexpr int32_t DATA_SIZE = 256;
constexpr int32_t TILE_NUM = 2;

// The documentation's sequential-block example: z += x, block by block, tile by tile.
extern "C" __global__ __aicore__ void sequential_block_sync(GM_ADDR x, GM_ADDR z, GM_ADDR workspace)
{
    TPipe pipe;
    int64_t tileCount = DATA_SIZE / TILE_NUM;
    GlobalTensor<float> srcGlobal;
    GlobalTensor<float> dstGlobal;
    GlobalTensor<int32_t> gmWorkspace;
    dstGlobal.SetGlobalBuffer((__gm__ float*)z);
    srcGlobal.SetGlobalBuffer((__gm__ float*)x);
    gmWorkspace.SetGlobalBuffer((__gm__ int32_t*)workspace);
    TQue<TPosition::VECIN, 1> queTmp;
    pipe.InitBuffer(queTmp, 1, BLOCK_NUM * 32 + 32);
    LocalTensor<int32_t> ubWorkspace = queTmp.AllocTensor<int32_t>();
    InitDetermineComputeWorkspace(gmWorkspace, ubWorkspace);
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, DATA_SIZE * sizeof(float));
    for (int64_t i = 0; i < TILE_NUM; i++) {
        LocalTensor<float> srcLocal = que.AllocTensor<float>();
        DataCopy(srcLocal, srcGlobal[i * tileCount], tileCount);
        WaitPreBlock(gmWorkspace, ubWorkspace);
        SetAtomicAdd<float>();
        DataCopy(dstGlobal[i * tileCount], srcLocal, tileCount);
        DisableDmaAtomic();
        NotifyNextBlock(gmWorkspace, ubWorkspace);
        que.FreeTensor(srcLocal);
    }
    queTmp.FreeTensor(ubWorkspace);
}

// Block b's partial into out[0], in block order (fp32 partials whose sum depends on the order).
extern "C" __global__ __aicore__ void ordered_sum(GM_ADDR partials, GM_ADDR out, GM_ADDR workspace)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32 + BLOCK_NUM * 32 + 32);
    LocalTensor<float> t = buf.GetWithOffset<float>(8, 0);
    LocalTensor<int32_t> ub = buf.GetWithOffset<int32_t>(BLOCK_NUM * 8 + 8, 32);
    GlobalTensor<float> p, o;
    p.SetGlobalBuffer((__gm__ float*)partials);
    o.SetGlobalBuffer((__gm__ float*)out);
    GlobalTensor<int32_t> ws;
    ws.SetGlobalBuffer((__gm__ int32_t*)workspace);
    InitDetermineComputeWorkspace(ws, ub);
    Duplicate(t, 0.0f, 8);
    t.SetValue(0, p.GetValue(GetBlockIdx()));
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    WaitPreBlock(ws, ub);
    SetAtomicAdd<float>();
    DataCopyPad(o, t, DataCopyExtParams{1, 4, 0, 0, 0});
    DisableDmaAtomic();
    NotifyNextBlock(ws, ub);
}

// out[0..8): block size, arch version, two reads of one program counter and one of another,
// sub-block count, ICache preload status.
extern "C" __global__ __aicore__ void sys_vars(GM_ADDR out)
{
    GlobalTensor<int64_t> o;
    o.SetGlobalBuffer((__gm__ int64_t*)out);
    int16_t dataBlockSize = GetDataBlockSizeInBytes();
    uint64_t mask = 8 * dataBlockSize / sizeof(half);
    uint8_t repeatTime = 512 / mask;
    o.SetValue(0, dataBlockSize * 1000 + repeatTime);
    uint32_t coreVersion = 0;
    GetArchVersion(coreVersion);
    AscendC::printf("core version is %x\n", coreVersion);
    o.SetValue(1, coreVersion);
    int64_t pcs[2];
    for (int i = 0; i < 2; i++) {
        pcs[i] = GetProgramCounter();
    }
    o.SetValue(2, pcs[0]);
    o.SetValue(3, pcs[1]);
    o.SetValue(4, GetProgramCounter());
    o.SetValue(5, GetSubBlockNum());
    ICachePreLoad(2);
    o.SetValue(6, GetICachePreloadStatus());
    PrintTimeStamp(65577);
    MetricsProfStart();
    DataSyncBarrier<MemDsbT::ALL>();
    MetricsProfStop();
}

// DataCacheCleanAndInvalid examples 1, 2 and 4, and DataCachePreload.
extern "C" __global__ __aicore__ void dcci(GM_ADDR mm)
{
    GlobalTensor<uint64_t> global;
    global.SetGlobalBuffer((__gm__ uint64_t*)(mm + 0x40) + GetBlockIdx() * 1024);
    for (int i = 0; i < 8; i++) {
        global.SetValue(i, GetBlockIdx());
    }
    DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(global);
    GlobalTensor<uint64_t> odd;
    odd.SetGlobalBuffer((__gm__ uint64_t*)(mm + 0x20) + 2 * 1024 * 8 / 8 + GetBlockIdx() * 1024);
    for (int i = 0; i < 8; i++) {
        odd.SetValue(i, 100 + GetBlockIdx());
    }
    DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(odd);
    DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(odd[4]);
    DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(odd);
    DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE>(odd);
    int64_t cacheOffset = 0;
    DataCachePreload(global, cacheOffset);
    DataCachePreload(global, static_cast<int16_t>(63));
}

// z = x + y with the pipes ordered by TQueSync objects; SuperKernel task markers around it.
extern "C" __global__ __aicore__ void que_sync_add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * 256);
    LocalTensor<float> a = buf.GetWithOffset<float>(64, 0);
    LocalTensor<float> b = buf.GetWithOffset<float>(64, 256);
    LocalTensor<float> c = buf.GetWithOffset<float>(64, 512);
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x);
    yg.SetGlobalBuffer((__gm__ float*)y);
    zg.SetGlobalBuffer((__gm__ float*)z);
    WaitPreTaskEnd();
    DataCopy(a, xg, 64);
    DataCopy(b, yg, 64);
    TQueSync<PIPE_MTE2, PIPE_V> mte2V;
    mte2V.SetFlag(0);
    mte2V.WaitFlag(0);
    Add(c, a, b, 64);
    TQueSync<PIPE_V, PIPE_MTE3> vMte3;
    vMte3.SetFlag(1);
    vMte3.WaitFlag(1);
    DataCopy(zg, c, 64);
    SetNextTaskStart();
}

static void CubeCount(GM_ADDR counts) { ((int32_t*)counts)[0] += 1; }
static void VectorCount(GM_ADDR counts, int32_t add) { ((int32_t*)counts)[1 + GetSubBlockIdx()] += add; }

// Async: the AIC function on the cube core, the AIV one on both vector cores.
extern "C" __global__ __aicore__ void async_mix(GM_ADDR counts)
{
    Async<EngineType::AIC, CubeCount>(counts);
    Async<EngineType::AIV, VectorCount>(counts, 10);
}

// CheckLocalMemoryIA: the documentation's example (vector writes into dst checked); `reset`
// disables the register again before the Add.
extern "C" __global__ __aicore__ void ia_check(GM_ADDR reset)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueueSrc0, inQueueSrc1;
    TQue<TPosition::VECOUT, 1> outQueueDst;
    pipe.InitBuffer(inQueueSrc0, 1, 512 * sizeof(half));
    pipe.InitBuffer(inQueueSrc1, 1, 512 * sizeof(half));
    pipe.InitBuffer(outQueueDst, 1, 512 * sizeof(half));
    LocalTensor<half> src0Local = inQueueSrc0.AllocTensor<half>();
    LocalTensor<half> src1Local = inQueueSrc1.AllocTensor<half>();
    LocalTensor<half> dstLocal = outQueueDst.AllocTensor<half>();
    Duplicate(src0Local, half(1.0f), 512);
    Duplicate(src1Local, half(2.0f), 512);
    CheckLocalMemoryIA({0, (uint32_t)(dstLocal.GetPhyAddr() / 32),
                        (uint32_t)((dstLocal.GetPhyAddr() + 512 * sizeof(half)) / 32), false, false, false, true,
                        false, false, true});
    if (reset[0] != 0) {
        CheckLocalMemoryIA({0, 0, 0, false, false, false, false, false, false, false});
    }
    Add(dstLocal, src0Local, src1Local, 512);
}

extern "C" __global__ __aicore__ void assert_kernel(GM_ADDR which)
{
    int assertFlag = 10;
    ascendc_assert(assertFlag == 10);
    assert(assertFlag == 10, "never printed %d", assertFlag);
    if (which[0] == 0) {
        ascendc_assert(assertFlag != 10, "The assertFlag value is %d.", assertFlag);
    } else {
        assert(assertFlag != 10);
    }
}

extern "C" __global__ __aicore__ void trap_kernel(GM_ADDR)
{
    float divisor = 0.0f;
    if (divisor == 0.0f) {
        Trap();
    }
}

extern "C" __global__ __aicore__ void never_notified(GM_ADDR workspace)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 5 * 32);
    GlobalTensor<int32_t> ws;
    ws.SetGlobalBuffer((__gm__ int32_t*)workspace);
    InitDetermineComputeWorkspace(ws, buf.Get<int32_t>());
    WaitPreBlock(ws, buf.Get<int32_t>());
    if (GetBlockIdx() != 1) {
        NotifyNextBlock(ws, buf.Get<int32_t>());
    }
}

static void Report(const char* name, bool ok)
{
    std::printf("%s: %s\n", name, ok ? "PASS" : "FAIL");
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    uint8_t* flag = (uint8_t*)GmAlloc(32);
    std::memset(flag, 0, 32);
    if (std::strcmp(which, "ascendc_assert") == 0 || std::strcmp(which, "assert") == 0) {
        flag[0] = std::strcmp(which, "assert") == 0 ? 1 : 0;
        ICPU_RUN_KF(assert_kernel, 2, (GM_ADDR)flag);
        return 0;
    }
    if (std::strcmp(which, "trap") == 0) {
        ICPU_RUN_KF(trap_kernel, 1, (GM_ADDR)flag);
        return 0;
    }
    if (std::strcmp(which, "ia") == 0) {
        ICPU_RUN_KF(ia_check, 1, (GM_ADDR)flag);
        return 0;
    }
    if (std::strcmp(which, "deadlock") == 0) {
        int32_t* ws = (int32_t*)GmAlloc(4 * 32);
        ICPU_RUN_KF(never_notified, 4, (GM_ADDR)ws);
        return 0;
    }

    // Deterministic block order: 8 * x, and an order-dependent sum equal to the sequential one.
    float* x = (float*)GmAlloc(DATA_SIZE * sizeof(float));
    float* z = (float*)GmAlloc(DATA_SIZE * sizeof(float));
    int32_t* work = (int32_t*)GmAlloc(BLOCK_NUM * 32);
    for (int i = 0; i < DATA_SIZE; i++) {
        x[i] = 1.0f;
        z[i] = 0.0f;
    }
    std::memset(work, 0x55, BLOCK_NUM * 32);
    ICPU_RUN_KF(sequential_block_sync, BLOCK_NUM, (GM_ADDR)x, (GM_ADDR)z, (GM_ADDR)work);
    bool ok = true;
    for (int i = 0; i < DATA_SIZE; i++) {
        ok = ok && z[i] == 8.0f;
    }
    for (int b = 0; b < BLOCK_NUM; b++) {
        ok = ok && work[b * 8] == 2;
    }
    Report("determine example", ok);

    const float partials[BLOCK_NUM] = {1.0e8f, 1.0f, 1.0f, -1.0e8f, 3.0f, 1.0f, 0.5f, 7.25f};
    float* p = (float*)GmAlloc(sizeof(partials));
    std::memcpy(p, partials, sizeof(partials));
    float* sum = (float*)GmAlloc(32);
    std::memset(sum, 0, 32);
    ICPU_RUN_KF(ordered_sum, BLOCK_NUM, (GM_ADDR)p, (GM_ADDR)sum, (GM_ADDR)work);
    float sequential = 0.0f;
    for (int b = 0; b < BLOCK_NUM; b++) {
        sequential += partials[b];
    }
    uint32_t got, want;
    std::memcpy(&got, sum, 4);
    std::memcpy(&want, &sequential, 4);
    std::printf("ordered sum 0x%08x\n", got);
    Report("determine order", got == want);

    int64_t* vars = (int64_t*)GmAlloc(8 * sizeof(int64_t));
    ICPU_RUN_KF(sys_vars, 1, (GM_ADDR)vars);
    Report("sys vars", vars[0] == 32 * 1000 + 4 && vars[1] == 0x2201 && vars[2] == vars[3] && vars[2] != vars[4] &&
                           vars[5] == 1 && vars[6] == 0);

    uint8_t* mm = (uint8_t*)GmAlloc(6 * 1024 * 8 + 0x40);
    std::memset(mm, 0, 6 * 1024 * 8 + 0x40);
    ICPU_RUN_KF(dcci, 2, (GM_ADDR)mm);
    ok = true;
    for (int b = 0; b < 2; b++) {
        const uint64_t* line = (const uint64_t*)(mm + 0x40) + b * 1024;
        const uint64_t* oddLine = (const uint64_t*)(mm + 0x20) + 2 * 1024 + b * 1024;
        for (int i = 0; i < 8; i++) {
            ok = ok && line[i] == (uint64_t)b && oddLine[i] == (uint64_t)(100 + b);
        }
    }
    Report("cache control", ok);

    float* xs = (float*)GmAlloc(64 * sizeof(float));
    float* ys = (float*)GmAlloc(64 * sizeof(float));
    float* zs = (float*)GmAlloc(64 * sizeof(float));
    for (int i = 0; i < 64; i++) {
        xs[i] = i * 0.25f;
        ys[i] = 100.0f - i;
    }
    ICPU_RUN_KF(que_sync_add, 1, (GM_ADDR)xs, (GM_ADDR)ys, (GM_ADDR)zs);
    ok = true;
    for (int i = 0; i < 64; i++) {
        ok = ok && zs[i] == xs[i] + ys[i];
    }
    Report("TQueSync", ok);

    int32_t* counts = (int32_t*)GmAlloc(32);
    std::memset(counts, 0, 32);
    SetKernelMode(KernelMode::MIX_MODE);
    ICPU_RUN_KF(async_mix, 1, (GM_ADDR)counts);
    Report("Async", counts[0] == 1 && counts[1] == 10 && counts[2] == 10);
    SetKernelMode(KernelMode::AIV_MODE);

    flag[0] = 1;
    ICPU_RUN_KF(ia_check, 1, (GM_ADDR)flag);
    Report("CheckLocalMemoryIA reset", true);
    return 0;
}
