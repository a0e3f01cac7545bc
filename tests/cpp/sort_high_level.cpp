// The high-level sort API on the pages' worked examples: N half scores in groups sorted
// ascending ([G-1 .. 0, 2G-1 .. G, ...]) with the same values as indices; Concat + Sort<T, true>
// + Extract, and Concat + Sort + MrgSort (offsets from GetSortOffset) + Extract, both give
// N-1 .. 0. N = 128, G = 32 on the pairs layout (Atlas A2 / A3); N = 64, G = 16 on region
// proposals (Atlas inference series). Kernel and host in one file; prints "<case>: PASS".
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

#if __NPU_ARCH__ == 2002
constexpr uint32_t N = 64;
constexpr uint32_t G = 16;
#else
constexpr uint32_t N = 128;
constexpr uint32_t G = 32;
#endif

extern "C" __global__ __aicore__ void sort_high_level(GM_ADDR out)
{
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 65536);
    GlobalTensor<uint32_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint32_t*)out, 4 * N + 8);

    LocalTensor<half> src = buf.GetWithOffset<half>(N, 0);
    LocalTensor<uint32_t> index = buf.GetWithOffset<uint32_t>(N, 1024);
    LocalTensor<half> concatTmp = buf.GetWithOffset<half>(N * 8, 2048);
    LocalTensor<half> sorted = buf.GetWithOffset<half>(N * 8, 4096);
    LocalTensor<half> tmp = buf.GetWithOffset<half>(N * 8, 8192);
    LocalTensor<half> merged = buf.GetWithOffset<half>(N * 8, 12288);
    LocalTensor<half> values = buf.GetWithOffset<half>(N, 16384);
    LocalTensor<uint32_t> outIndex = buf.GetWithOffset<uint32_t>(N, 17408);
    for (uint32_t i = 0; i < N; i++) {
        uint32_t v = (i / G) * G + G - 1 - i % G;
        src.SetValue(i, half(static_cast<float>(v)));
        index.SetValue(i, v);
    }
    Duplicate(concatTmp, half(0), N * 8);
    PipeBarrier<PIPE_V>();

    // Full sort.
    LocalTensor<half> concat;
    Concat(concat, src, concatTmp, N / 16);
    Sort<half, true>(sorted, concat, index, tmp, N / G);
    Extract(values, outIndex, sorted, N / G);
    for (uint32_t i = 0; i < N; i++) {
        outGm.SetValue(i, static_cast<uint32_t>(static_cast<float>(values.GetValue(i))));
        outGm.SetValue(N + i, outIndex.GetValue(i));
    }

    // Per-group sort, then one merge of the four groups.
    Sort<half, false>(sorted, concat, index, tmp, N / G);
    uint32_t offset = GetSortOffset<half>(N / 4);
    MrgSortSrcList<half> lists(sorted[0], sorted[offset], sorted[2 * offset], sorted[3 * offset]);
    const uint16_t counts[4] = {N / 4, N / 4, N / 4, N / 4};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<half>(merged, lists, counts, sortedNum, 0b1111, 1);
    Extract(values, outIndex, merged, N / G);
    for (uint32_t i = 0; i < N; i++) {
        outGm.SetValue(2 * N + i, static_cast<uint32_t>(static_cast<float>(values.GetValue(i))));
        outGm.SetValue(3 * N + i, outIndex.GetValue(i));
    }
    outGm.SetValue(4 * N, offset);
    outGm.SetValue(4 * N + 1, GetSortLen<half>(N));
}

int main()
{
    uint32_t* out = (uint32_t*)GmAlloc((4 * N + 8) * sizeof(uint32_t));
    ICPU_RUN_KF(sort_high_level, 1, (GM_ADDR)out);
    bool full = true;
    bool merge = true;
    for (uint32_t i = 0; i < N; i++) {
        full = full && out[i] == N - 1 - i && out[N + i] == N - 1 - i;
        merge = merge && out[2 * N + i] == N - 1 - i && out[3 * N + i] == N - 1 - i;
    }
    // A pair is 4 halves, a half region proposal 8.
    uint32_t perItem = (N == 64) ? 8 : 4;
    bool sizes = out[4 * N] == N / 4 * perItem && out[4 * N + 1] == N * perItem;
    std::printf("Sort full: %s\n", full ? "PASS" : "FAIL");
    std::printf("MrgSort: %s\n", merge ? "PASS" : "FAIL");
    std::printf("GetSortOffset/GetSortLen: %s\n", sizes ? "PASS" : "FAIL");
    GmFree(out);
    return full && merge && sizes ? 0 : 1;
}
