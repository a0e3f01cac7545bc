// Names, types and overloads of the vendor headers that kernels use (issue: the long tail):
// block_idx / block_num, IsSameType, Conditional, K_MAX_DIM, a K_MAX_SHAPE_DIM defined before
// the headers, KERNEL_LOG / ASCENDC_ASSERT, constexpr half, LocalTensor<bool>, TBuf's queue
// methods, the in-place AllocTensor / DeQue, namespace tik2 opened by user code, the 2023
// Concat / Extract, DataCopyPad with a braced DataCopyPadParams, the tensor operators
// (`dst = a + b;`). Prints "<case>: PASS" per case.
#define K_MAX_SHAPE_DIM 8
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

namespace tik2 {
// User code may open the 2023 namespace and use every AscendC name inside it.
inline int64_t Twice(int64_t v) { return v * 2 + static_cast<int64_t>(GetBlockNum()) * 0; }
}  // namespace tik2

constexpr half kHalfOne = 1.0;
constexpr half kHalfTie = 2049.0;  // halfway between 2048 and 2050: ties to even
constexpr bfloat16_t kBfPi = 3.14159265358979;
static_assert(kHalfOne.bits == 0x3c00 && kHalfTie.bits == 0x6800 && kBfPi.bits == 0x4049, "constexpr 16-bit floats");
static_assert(AscendC::IsSameType<half, half>::value && !AscendC::IsSameType<half, float>::value, "IsSameType");
static_assert(std::is_same<AscendC::Conditional<true, float, half>::type, float>::value, "Conditional");
static_assert(std::is_same<AscendC::ConditionalMulti<false, true, int8_t, int16_t, int32_t, int64_t>::type, int32_t>::value,
              "ConditionalMulti");
static_assert(AscendC::K_MAX_DIM == 8 && AscendC::SupportType<half, float, half>(), "K_MAX_DIM, SupportType");
static_assert(AscendC::BLOCK_CUBE == 16 && AscendC::ONE_BLK_SIZE == 32, "BLOCK_CUBE: the sides of a cube fractal");

template <typename T>
__aicore__ inline T Pick()
{
    using U = typename AscendC::Conditional<AscendC::IsSameType<T, float>::value, float, half>::type;
    return static_cast<T>(U(2.5f));
}

extern "C" __global__ __aicore__ void names_kernel(GM_ADDR out)
{
    AscendC::GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ int32_t*)out + block_idx * 16, 16);
    outGm.SetValue(0, static_cast<int32_t>(block_idx));
    outGm.SetValue(1, static_cast<int32_t>(block_num));
    outGm.SetValue(2, static_cast<int32_t>(tik2::Twice(block_idx)));
    KERNEL_LOG(KERNEL_INFO, "block %d of %d", static_cast<int>(block_idx), static_cast<int>(block_num));
    ASCENDC_ASSERT(block_num > 0, { KERNEL_LOG(KERNEL_ERROR, "block dim can not be zero!"); });

    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalTensor<bool> flags = buf.AllocTensor<bool>();
    flags.SetValue(0, true);
    flags.SetValue(1, false);
    buf.EnQue(flags);
    AscendC::LocalTensor<uint8_t> bytes = buf.DeQue<uint8_t>();
    outGm.SetValue(3, bytes.GetValue(0) * 10 + bytes.GetValue(1) + (flags.GetValue(0) ? 100 : 0));
    buf.FreeTensor(flags);

    AscendC::TQue<AscendC::TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 256);
    AscendC::LocalTensor<float> t;
    que.AllocTensor(t);
    AscendC::Duplicate(t, Pick<float>(), 64);
    que.EnQue(t);
    AscendC::LocalTensor<float> back;
    que.DeQue(back);
    outGm.SetValue(4, static_cast<int32_t>(back.GetValue(63) * 10));
    que.FreeTensor(back);

    // The tensor-operator form: `dst = a + b;` and friends over dst.GetSize() elements.
    AscendC::TBuf<AscendC::TPosition::VECCALC> ops;
    pipe.InitBuffer(ops, 3 * 64 * sizeof(float));
    AscendC::LocalTensor<float> all = ops.Get<float>();
    AscendC::LocalTensor<float> a = all[0], b = all[64], d = all[128];
    a.SetSize(64);
    b.SetSize(64);
    d.SetSize(64);
    AscendC::Duplicate(a, 6.0f, 64);
    AscendC::Duplicate(b, 1.5f, 64);
    AscendC::PipeBarrier<PIPE_V>();
    d = a + b;
    AscendC::PipeBarrier<PIPE_V>();
    d = d * b;
    AscendC::PipeBarrier<PIPE_V>();
    d = d - a;
    AscendC::PipeBarrier<PIPE_V>();
    d = d / b;
    AscendC::PipeBarrier<PIPE_V>();
    // ((6 + 1.5) * 1.5 - 6) / 1.5 = 3.5
    outGm.SetValue(5, static_cast<int32_t>(d.GetValue(63) * 10));
}

// The Crd2Idx page's two worked examples (590 and 192).
constexpr int kM = 11, kN = 12, kBlockM = 13, kBlockN = 14;
static int64_t Crd2IdxExamples()
{
    using AscendC::Std::Int;
    auto coord = AscendC::MakeCoord(Int<20>{}, Int<30>{});
    auto shape = AscendC::MakeShape(AscendC::MakeShape(Int<kBlockM>{}, Int<kM / kBlockM>{}),
                                    AscendC::MakeShape(Int<kBlockN>{}, Int<kN / kBlockN>{}));
    auto stride = AscendC::MakeStride(AscendC::MakeStride(Int<kBlockN>{}, Int<kBlockM * kBlockN>{}),
                                      AscendC::MakeStride(Int<1>{}, Int<kM * kBlockN>{}));
    auto layout = AscendC::MakeLayout(shape, stride);
    int64_t a = layout(coord), b = AscendC::Crd2Idx(coord, layout);
    auto coord2 = AscendC::MakeCoord(Int<0>{}, Int<12>{});
    auto shape2 = AscendC::MakeShape(AscendC::MakeShape(Int<13>{}, Int<13>{}), AscendC::MakeShape(Int<14>{}, Int<14>{}));
    auto stride2 = AscendC::MakeStride(AscendC::MakeStride(Int<15>{}, Int<15>{}), AscendC::MakeStride(Int<16>{}, Int<16>{}));
    int64_t c = AscendC::Crd2Idx(coord2, shape2, stride2);
    AscendC::Coord<int64_t, int64_t> rt = AscendC::MakeCoord(int64_t{2}, int64_t{3});
    int64_t d = AscendC::MakeLayout(AscendC::MakeShape(4, 5), AscendC::MakeStride(5, 1))(rt);
    return (a == 590 && b == 590 && c == 192 && d == 13) ? 1 : 0;
}

int main()
{
    constexpr int blocks = 3;
    int32_t* out = (int32_t*)AscendC::GmAlloc(blocks * 16 * sizeof(int32_t));
    ICPU_RUN_KF(names_kernel, blocks, (GM_ADDR)out);
    bool vars = true, traits = true, ops = true;
    for (int b = 0; b < blocks; b++) {
        vars = vars && out[b * 16] == b && out[b * 16 + 1] == blocks && out[b * 16 + 2] == 2 * b;
        traits = traits && out[b * 16 + 3] == 110 && out[b * 16 + 4] == 25;
        ops = ops && out[b * 16 + 5] == 35;
    }
    std::printf("block_idx/block_num/tik2: %s\n", vars ? "PASS" : "FAIL");
    std::printf("bool/TBuf queue methods/in-place AllocTensor: %s\n", traits ? "PASS" : "FAIL");
    std::printf("tensor operators: %s\n", ops ? "PASS" : "FAIL");
    std::printf("Coord/MakeCoord/Crd2Idx: %s\n", Crd2IdxExamples() == 1 ? "PASS" : "FAIL");
    AscendC::GmFree(out);
    return vars && traits ? 0 : 1;
}
