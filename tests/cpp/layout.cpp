// Data-layout kernels: NCHW -> NC1HWC0 with TransDataTo5HD (address lists from GetPhyAddr), int8
// TransDataTo5HD high halves (LocalTensor lists), a
// 16x16 tile Transpose per block, the enhanced NCHW -> NHWC Transpose, int32 TransDataTo5HD with
// address tensors (not on 910), BilinearInterpolation (310P, A2, A3) and VectorPadding (310P). Kernel and host in one file:
// the host reads input/<name>.bin and writes output/<name>.bin; the test computes the goldens.
#include <cstdio>
#include <string>

#include "data_utils.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 2, C = 32, HW = 256, C0 = 16, NCHW = N * C * HW;
#ifdef LAYOUT_SMALL_TMP
constexpr uint32_t NHWC_TMP = 2048;  // too small on A2/A3: the call is refused
#else
constexpr uint32_t NHWC_TMP = 2560;
#endif

// Copies `count` elements GM -> UB, runs `body(dst, src)` and copies `count` elements back.
template <typename T, typename Body>
__aicore__ inline void InOut(GlobalTensor<T> x, GlobalTensor<T> y, uint32_t count, Body body)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, count * sizeof(T));
    pipe.InitBuffer(outQ, 1, count * sizeof(T));
    LocalTensor<T> in = inQ.AllocTensor<T>();
    DataCopy(in, x, count);
    inQ.EnQue(in);
    LocalTensor<T> src = inQ.DeQue<T>();
    LocalTensor<T> dst = outQ.AllocTensor<T>();
    body(pipe, dst, src);
    outQ.EnQue(dst);
    inQ.FreeTensor(src);
    LocalTensor<T> out = outQ.DeQue<T>();
    DataCopy(y, out, count);
    outQ.FreeTensor(out);
}

extern "C" __global__ __aicore__ void nchw_to_5hd(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, NCHW);
    yGm.SetGlobalBuffer((__gm__ half*)y, NCHW);
    InOut(xGm, yGm, NCHW, [](TPipe&, LocalTensor<half>& dst, LocalTensor<half>& src) {
        // 16 channels per call; each repeat moves 16 positions of the HW plane.
        TransDataTo5HDParams params(false, false, HW / C0, C0, 1);
        for (uint32_t g = 0; g < N * C / C0; g++) {
            uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE];
            uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE];
            for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; i++) {
                srcList[i] = (uint64_t)src[g * C0 * HW + i * HW].GetPhyAddr();
                dstList[i] = (uint64_t)dst[g * C0 * HW + i * C0].GetPhyAddr();
            }
            TransDataTo5HD<half>(dstList, srcList, params);
        }
    });
}

extern "C" __global__ __aicore__ void tile_transpose(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + GetBlockIdx() * 256, 256);
    yGm.SetGlobalBuffer((__gm__ half*)y + GetBlockIdx() * 256, 256);
    InOut(xGm, yGm, 256, [](TPipe&, LocalTensor<half>& dst, LocalTensor<half>& src) { Transpose<half>(dst, src); });
}

extern "C" __global__ __aicore__ void nchw_to_nhwc(GM_ADDR x, GM_ADDR y)
{
    // [3, 3, 2, 8] half -> [3, 2, 8, 3]; (cSize + 2) * 16 * 16 * 2 = 2560 bytes of scratch on A2/A3.
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 144);
    yGm.SetGlobalBuffer((__gm__ half*)y, 144);
    InOut(xGm, yGm, 144, [](TPipe& pipe, LocalTensor<half>& dst, LocalTensor<half>& src) {
        TBuf<QuePosition::VECCALC> tmpBuf;
        pipe.InitBuffer(tmpBuf, NHWC_TMP);
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        TransposeParamsExt params(3, 3, 2, 8, TransposeType::TRANSPOSE_NCHW2NHWC);
        Transpose(dst, src, tmp, params);
    });
}

extern "C" __global__ __aicore__ void int32_5hd(GM_ADDR x, GM_ADDR y)
{
    // [16, 8] int32 -> [8, 16] with the addresses in two uint64_t tensors.
    GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, 128);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 128);
    InOut(xGm, yGm, 128, [](TPipe& pipe, LocalTensor<int32_t>& dst, LocalTensor<int32_t>& src) {
        TBuf<QuePosition::VECCALC> addrBuf;
        pipe.InitBuffer(addrBuf, 256);
        LocalTensor<uint64_t> dstAddr = addrBuf.GetWithOffset<uint64_t>(16, 0);
        LocalTensor<uint64_t> srcAddr = addrBuf.GetWithOffset<uint64_t>(16, 128);
        for (int i = 0; i < 16; i++) {
            dstAddr.SetValue(i, (uint64_t)dst[8 * i].GetPhyAddr());
            srcAddr.SetValue(i, (uint64_t)src[8 * i].GetPhyAddr());
        }
        TransDataTo5HD<int32_t>(dstAddr, srcAddr, TransDataTo5HDParams());
    });
}

extern "C" __global__ __aicore__ void int8_5hd(GM_ADDR x, GM_ADDR y)
{
    // The page's int8 call: LocalTensor lists, high half in and high half out; dst starts zeroed.
    GlobalTensor<int8_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int8_t*)x, 512);
    yGm.SetGlobalBuffer((__gm__ int8_t*)y, 512);
    InOut(xGm, yGm, 512, [](TPipe&, LocalTensor<int8_t>& dst, LocalTensor<int8_t>& src) {
        Duplicate(dst.ReinterpretCast<int16_t>(), (int16_t)0, 256);
        LocalTensor<int8_t> dstList[NCHW_CONV_ADDR_LIST_SIZE];
        LocalTensor<int8_t> srcList[NCHW_CONV_ADDR_LIST_SIZE];
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; i++) {
            dstList[i] = dst[32 * i];
            srcList[i] = src[32 * i];
        }
        TransDataTo5HD<int8_t>(dstList, srcList, TransDataTo5HDParams(true, true, 1, 0, 0));
    });
}

extern "C" __global__ __aicore__ void bilinear(GM_ADDR src0, GM_ADDR offsets, GM_ADDR src1, GM_ADDR y)
{
    // The page's call: mask 128, hRepeat 2, repeatMode false, dstBlkStride 1, vROffset 128, vRepeat 2.
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 24576);
    LocalTensor<half> s0 = buf.GetWithOffset<half>(512, 0);
    LocalTensor<uint32_t> off = buf.GetWithOffset<uint32_t>(32, 1024);
    LocalTensor<half> s1 = buf.GetWithOffset<half>(16, 1152);
    LocalTensor<half> dst = buf.GetWithOffset<half>(256, 1184);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(17408, 1696);
    GlobalTensor<half> s0Gm, s1Gm, yGm;
    GlobalTensor<uint32_t> offGm;
    s0Gm.SetGlobalBuffer((__gm__ half*)src0, 512);
    offGm.SetGlobalBuffer((__gm__ uint32_t*)offsets, 32);
    s1Gm.SetGlobalBuffer((__gm__ half*)src1, 16);
    yGm.SetGlobalBuffer((__gm__ half*)y, 256);
    DataCopy(s0, s0Gm, 512);
    DataCopy(off, offGm, 32);
    DataCopy(s1, s1Gm, 16);
    PipeBarrier<PIPE_ALL>();
    BilinearInterpolation(dst, s0, off, s1, (uint64_t)128, 2, false, 1, 128, 2, tmp);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, dst, 256);
}

extern "C" __global__ __aicore__ void padding(GM_ADDR x, GM_ADDR y)
{
    // Three calls over 128-element quarters: mode 0 left, mode 1 right, mode 2 left (bit mask).
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 512);
    yGm.SetGlobalBuffer((__gm__ half*)y, 512);
    InOut(xGm, yGm, 512, [](TPipe&, LocalTensor<half>& dst, LocalTensor<half>& src) {
        VectorPadding(dst, src, 0, false, 128);
        VectorPadding(dst[128], src[128], 1, true, (uint64_t)128, 1, {1, 1, 8, 8});
        uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
        VectorPadding(dst[256], src[256], 2, false, mask, 2, {1, 1, 8, 8});
    });
}

static bool Load(const char* name, void* buf, size_t size)
{
    size_t got = size;
    return ReadFile(std::string("input/") + name + ".bin", got, buf, size) && got == size;
}

static bool Store(const char* name, const void* buf, size_t size)
{
    return WriteFile(std::string("output/") + name + ".bin", buf, size);
}

int main()
{
    bool ok = true;
    uint8_t* x = (uint8_t*)GmAlloc(NCHW * 2);
    uint8_t* y = (uint8_t*)GmAlloc(NCHW * 2);
    ok = ok && Load("nchw", x, NCHW * 2);
    ICPU_RUN_KF(nchw_to_5hd, 1, x, y);
    ok = ok && Store("nc1hwc0", y, NCHW * 2);

    ok = ok && Load("int8", x, 512);
    ICPU_RUN_KF(int8_5hd, 1, x, y);
    ok = ok && Store("int8_t", y, 512);

    ok = ok && Load("tiles", x, 4 * 512);
    ICPU_RUN_KF(tile_transpose, 4, x, y);
    ok = ok && Store("tiles_t", y, 4 * 512);

#if __NPU_ARCH__ != 1001
    ok = ok && Load("int32", x, 512);
    ICPU_RUN_KF(int32_5hd, 1, x, y);
    ok = ok && Store("int32_t", y, 512);
#endif
#if __NPU_ARCH__ != 1001 && __NPU_ARCH__ != 3002
    ok = ok && Load("small", x, 288);
    ICPU_RUN_KF(nchw_to_nhwc, 1, x, y);
    ok = ok && Store("small_nhwc", y, 288);

    uint8_t* off = (uint8_t*)GmAlloc(128);
    uint8_t* w = (uint8_t*)GmAlloc(32);
    ok = ok && Load("bl_src0", x, 1024) && Load("bl_off", off, 128) && Load("bl_src1", w, 32);
    ICPU_RUN_KF(bilinear, 1, x, off, w, y);
    ok = ok && Store("bilinear", y, 512);
    GmFree(off);
    GmFree(w);
#endif
#if __NPU_ARCH__ == 2002
    ok = ok && Load("pad", x, 1024);
    ICPU_RUN_KF(padding, 1, x, y);
    ok = ok && Store("padded", y, 1024);
#endif
    GmFree(x);
    GmFree(y);
    std::printf("%s\n", ok ? "done" : "i/o failed");
    return ok ? 0 : 1;
}
