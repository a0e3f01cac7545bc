// Select with a scalar src1 and UB -> UB Copy forms, one kernel per case (argv[1]); each checks
// its own results against host arithmetic and prints "<case>: PASS".
#include <cstdio>
#include <cstring>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

// Select mode 1 (VSEL_TENSOR_SCALAR_MODE): lane i from src0 (= i) where selMask bit i is set
// (i % 3 == 0), else the scalar 7.5; the count form over 128 floats (two repeats, the second
// consuming the next 64 mask bits) and the level-0 form over 64.
extern "C" __global__ __aicore__ void select_scalar(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2;
    pipe.InitBuffer(b0, 128 * 4);
    pipe.InitBuffer(b1, 32);
    pipe.InitBuffer(b2, 128 * 4);
    LocalTensor<float> src = b0.Get<float>();
    LocalTensor<uint8_t> sel = b1.Get<uint8_t>();
    LocalTensor<float> dst = b2.Get<float>();
    for (int i = 0; i < 128; i++) {
        src.SetValue(i, static_cast<float>(i));
    }
    for (int byte = 0; byte < 16; byte++) {
        uint8_t bits = 0;
        for (int k = 0; k < 8; k++) {
            bits |= ((byte * 8 + k) % 3 == 0 ? 1 : 0) << k;
        }
        sel.SetValue(byte, bits);
    }
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer((__gm__ float*)out, 192);
    Select(dst, sel, src, 7.5f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128);
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, dst, 128);
    PipeBarrier<PIPE_ALL>();
    Select(dst, sel, src, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, (uint64_t)64, 1, {1, 1, 1, 8, 8, 8});
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm[128], dst, 64);
}

static int CheckSelectScalar(const float* out)
{
    int wrong = 0;
    for (int i = 0; i < 192; i++) {
        int lane = i % 128;
        float other = i < 128 ? 7.5f : -1.0f;
        float want = lane % 3 == 0 ? static_cast<float>(lane) : other;
        if (out[i] != want) {
            if (wrong < 4) {
                std::printf("  [%d] got %g want %g\n", i, out[i], want);
            }
            wrong++;
        }
    }
    return wrong;
}

// Copy in counter mode: the mask register's count is the element count of every repeat, in
// ceil(count * 2 / 32) blocks at the block stride; repeatTime repeats at the repeat stride.
// Call 1: 200 halves (13 blocks, the last one 8 elements) in one repeat, dstStride 2.
// Call 2: 24 halves (2 blocks, the second 8 elements) in 3 repeats, srcStride 3, dstRepeatSize 2.
// The destination starts as -1 everywhere; untouched elements stay -1.
extern "C" __global__ __aicore__ void copy_counter(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2;
    pipe.InitBuffer(b0, 512 * 2);
    pipe.InitBuffer(b1, 512 * 2);
    pipe.InitBuffer(b2, 512 * 2);
    LocalTensor<half> src = b0.Get<half>();
    LocalTensor<half> d1 = b1.Get<half>();
    LocalTensor<half> d2 = b2.Get<half>();
    for (int i = 0; i < 512; i++) {
        src.SetValue(i, static_cast<half>(static_cast<float>(i)));
        d1.SetValue(i, static_cast<half>(-1.0f));
        d2.SetValue(i, static_cast<half>(-1.0f));
    }
    SetMaskCount();
    SetVectorMask<half, MaskMode::COUNTER>(0, 200);
    Copy<half, false>(d1, src, MASK_PLACEHOLDER, 1, {2, 1, 8, 8});
    SetVectorMask<half, MaskMode::COUNTER>(0, 24);
    Copy<half, false>(d2, src, MASK_PLACEHOLDER, 3, {1, 3, 2, 1});
    SetMaskNorm();
    ResetMask();
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<half> outGm;
    outGm.SetGlobalBuffer((__gm__ half*)out, 1024);
    DataCopy(outGm, d1, 512);
    DataCopy(outGm[512], d2, 512);
}

// The expected destinations of copy_counter: element e of block j of repeat r lands at
// 16 * (r * dstRepeatSize + j * dstStride) + e and comes from 16 * (r * srcRepeatSize +
// j * srcStride) + e, for the first `count` elements of the repeat.
static int CheckCounter(const uint16_t* out)
{
    struct Call {
        int count, repeats, dstStride, srcStride, dstRep, srcRep;
    } calls[2] = {{200, 1, 2, 1, 8, 8}, {24, 3, 1, 3, 2, 1}};
    int wrong = 0;
    for (int k = 0; k < 2; k++) {
        float want[512];
        for (int i = 0; i < 512; i++) {
            want[i] = -1.0f;
        }
        const Call& c = calls[k];
        for (int r = 0; r < c.repeats; r++) {
            for (int e = 0; e < c.count; e++) {
                int j = e / 16, o = e % 16;
                want[16 * (r * c.dstRep + j * c.dstStride) + o] =
                    static_cast<float>(16 * (r * c.srcRep + j * c.srcStride) + o);
            }
        }
        for (int i = 0; i < 512; i++) {
            half got;
            std::memcpy(&got, &out[k * 512 + i], 2);
            if (static_cast<float>(got) != want[i]) {
                if (wrong < 4) {
                    std::printf("  call %d [%d] got %g want %g\n", k + 1, i, static_cast<float>(got), want[i]);
                }
                wrong++;
            }
        }
    }
    return wrong;
}

// ND -> NZ in UB with strided Copy: a 16 x 64 half tile (ND rows of 4 blocks) becomes four
// 16 x 16 fractals. One Copy per tile: repeat r copies row r (mask 64 = 4 blocks, srcRepeatSize 4)
// to block r of each fractal (dstStride 16 blocks, dstRepeatSize 1). The written blocks of the
// 16 repeats are disjoint, and disjoint from the source. Eight tiles.
extern "C" __global__ __aicore__ void copy_nd2nz(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1;
    pipe.InitBuffer(b0, 16 * 64 * 2);
    pipe.InitBuffer(b1, 16 * 64 * 2);
    LocalTensor<half> nd = b0.Get<half>();
    LocalTensor<half> nz = b1.Get<half>();
    GlobalTensor<half> outGm;
    outGm.SetGlobalBuffer((__gm__ half*)out, 8 * 1024);
    for (int tile = 0; tile < 8; tile++) {
        for (int i = 0; i < 1024; i++) {
            nd.SetValue(i, static_cast<half>(static_cast<float>(tile * 8 + i % 509)));
        }
        Copy(nz, nd, (uint64_t)64, 16, {16, 1, 1, 4});
        PipeBarrier<PIPE_ALL>();
        DataCopy(outGm[tile * 1024], nz, 1024);
        PipeBarrier<PIPE_ALL>();
    }
}

static int CheckNd2Nz(const uint16_t* out)
{
    int wrong = 0;
    for (int tile = 0; tile < 8; tile++) {
        for (int j = 0; j < 4; j++) {
            for (int r = 0; r < 16; r++) {
                for (int c = 0; c < 16; c++) {
                    float want = static_cast<float>(tile * 8 + (r * 64 + j * 16 + c) % 509);
                    half got;
                    std::memcpy(&got, &out[tile * 1024 + (j * 16 + r) * 16 + c], 2);
                    wrong += static_cast<float>(got) != want;
                }
            }
        }
    }
    return wrong;
}

int main(int argc, char** argv)
{
    const char* which = argc > 1 ? argv[1] : "";
    float* out = (float*)GmAlloc(8 * 1024 * sizeof(float));
    SetKernelMode(KernelMode::AIV_MODE);
    int wrong = -1;
    if (std::strcmp(which, "select_scalar") == 0) {
        ICPU_RUN_KF(select_scalar, 1, (GM_ADDR)out);
        wrong = CheckSelectScalar(out);
    }
    if (std::strcmp(which, "copy_counter") == 0) {
        ICPU_RUN_KF(copy_counter, 1, (GM_ADDR)out);
        wrong = CheckCounter((const uint16_t*)out);
    }
    if (std::strcmp(which, "copy_nd2nz") == 0) {
        ICPU_RUN_KF(copy_nd2nz, 1, (GM_ADDR)out);
        wrong = CheckNd2Nz((const uint16_t*)out);
    }
    if (wrong < 0) {
        std::printf("unknown case '%s'\n", which);
        return 2;
    }
    std::printf("%s: %s\n", which, wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
