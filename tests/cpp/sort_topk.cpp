// Top-k of 256 half scores with the sorting family, kernel and host in one file.
// Atlas A2 / A3 / 200I-500 A2: Sort32 into eight sorted lists of (score, index) pairs, two
// MrgSort rounds (repeatTimes 2, then two lists), GatherMask splits the first K pairs into
// scores and indices; then a merge that stops when a list is exhausted, read back with
// GetMrgSortResult.
// Atlas training / inference series: ProposalConcat puts scores and indices (as labels) into
// region proposals, RpSort16 sorts groups of 16, two MrgSort4 rounds merge them, and
// ProposalExtract takes the first K scores and labels out.
// Reads input/x.bin (256 halves), writes output/values.bin (K halves),
// output/index.bin (K uint32) and output/counts.bin (4 uint16, pairs layout only).
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t N = 256;
constexpr uint32_t K = 32;

extern "C" __global__ __aicore__ void sort_topk(GM_ADDR x, GM_ADDR values, GM_ADDR index, GM_ADDR counts)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECOUT, 1> valQue;
    TQue<QuePosition::VECOUT, 1> idxQue;
    TBuf<QuePosition::VECCALC> work;
    // The scratch buffer first: Sort32 wants 256-byte aligned destinations.
    pipe.InitBuffer(work, 32768);
    pipe.InitBuffer(inQue, 1, N * sizeof(half));
    pipe.InitBuffer(valQue, 1, K * sizeof(half));
    pipe.InitBuffer(idxQue, 1, K * sizeof(uint32_t));
    GlobalTensor<half> xGm, valGm;
    GlobalTensor<uint32_t> idxGm;
    GlobalTensor<uint16_t> cntGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, N);
    valGm.SetGlobalBuffer((__gm__ half*)values, K);
    idxGm.SetGlobalBuffer((__gm__ uint32_t*)index, K);
    cntGm.SetGlobalBuffer((__gm__ uint16_t*)counts, 16);

    LocalTensor<half> scores = inQue.AllocTensor<half>();
    DataCopy(scores, xGm, N);
    inQue.EnQue(scores);
    scores = inQue.DeQue<half>();
    LocalTensor<half> vals = valQue.AllocTensor<half>();
    LocalTensor<uint32_t> idx = idxQue.AllocTensor<uint32_t>();

#if __NPU_ARCH__ == 1001 || __NPU_ARCH__ == 2002
    // Region proposals: 8 halves (16 bytes) each; N proposals take 4096 bytes.
    LocalTensor<half> labels = work.GetWithOffset<half>(N, 0);
    LocalTensor<half> props = work.GetWithOffset<half>(N * 8, 4096);
    LocalTensor<half> tmp = work.GetWithOffset<half>(N * 8, 8192);
    LocalTensor<half> labOut = work.GetWithOffset<half>(K, 12288);
    for (uint32_t i = 0; i < N; i++) {
        labels.SetValue(i, half(static_cast<float>(i)));
    }
    Duplicate(props, half(0), N * 8);
    PipeBarrier<PIPE_V>();
    ProposalConcat(props, scores, N / 16, 4);
    ProposalConcat(props, labels, N / 16, 5);
    PipeBarrier<PIPE_V>();
    RpSort16(props, props, N / 16);
    PipeBarrier<PIPE_V>();
    // Sixteen lists of 16 proposals -> four of 64 (contiguous, equal: repeatTimes 4).
    uint16_t len16[4] = {16, 16, 16, 16};
    MrgSort4(tmp, MrgSortSrcList<half>(props, props[128], props[256], props[384]), MrgSort4Info(len16, false, 15, 4));
    PipeBarrier<PIPE_V>();
    uint16_t len64[4] = {64, 64, 64, 64};
    MrgSort4(props, MrgSortSrcList<half>(tmp, tmp[512], tmp[1024], tmp[1536]), MrgSort4Info(len64, false, 15, 1));
    PipeBarrier<PIPE_V>();
    ProposalExtract(vals, props, K / 16, 4);
    ProposalExtract(labOut, props, K / 16, 5);
    PipeBarrier<PIPE_V>();
    for (uint32_t i = 0; i < K; i++) {
        idx.SetValue(i, static_cast<uint32_t>(static_cast<float>(labOut.GetValue(i))));
    }
#else
    // (score, index) pairs: 8 bytes each, i.e. 4 halves; N pairs take 2048 bytes.
    LocalTensor<int32_t> seq = work.GetWithOffset<int32_t>(N, 0);
    LocalTensor<half> sorted = work.GetWithOffset<half>(N * 4, 1024);
    LocalTensor<half> tmp = work.GetWithOffset<half>(N * 4, 4096);
    LocalTensor<half> merged = work.GetWithOffset<half>(N * 4, 8192);
    LocalTensor<half> early = work.GetWithOffset<half>(N * 4, 12288);
    CreateVecIndex(seq, 0, N);
    PipeBarrier<PIPE_V>();
    Sort32(sorted, scores, seq.ReinterpretCast<uint32_t>(), N / 32);
    PipeBarrier<PIPE_V>();
    // Eight lists of 32 pairs -> two of 128 -> one of 256.
    MrgSortSrcList<half> lists(sorted, sorted[128], sorted[256], sorted[384]);
    MrgSort4Info params;
    for (int i = 0; i < 4; i++) {
        params.elementLengths[i] = 32;
    }
    params.ifExhaustedSuspension = false;
    params.validBit = 0b1111;
    params.repeatTimes = 2;
    MrgSort(tmp, lists, params);
    PipeBarrier<PIPE_V>();
    MrgSortSrcList<half> two;
    two.src1 = tmp;
    two.src2 = tmp[512];
    uint16_t len128[4] = {128, 128, 0, 0};
    MrgSort(merged, two, MrgSort4Info(len128, false, 0b11, 1));
    PipeBarrier<PIPE_V>();
    // First K pairs: scores are halves 0 of each 4 (pattern 3), indices the odd words (pattern 2).
    uint64_t kept = 0;
    GatherMask(vals, merged, 3, false, 0, {1, 1, 8, 0}, kept);
    GatherMask(idx, merged.ReinterpretCast<uint32_t>(), 2, false, 0, {1, 1, 8, 0}, kept);
    // The same two lists merged with ifExhaustedSuspension: stops when one runs out.
    MrgSort(early, two, MrgSort4Info(len128, true, 0b11, 1));
    uint16_t c[4] = {0, 0, 0, 0};
    GetMrgSortResult(c[0], c[1], c[2], c[3]);
    for (int i = 0; i < 4; i++) {
        cntGm.SetValue(i, c[i]);
    }
#endif
    valQue.EnQue(vals);
    idxQue.EnQue(idx);
    vals = valQue.DeQue<half>();
    idx = idxQue.DeQue<uint32_t>();
    DataCopy(valGm, vals, K);
    DataCopy(idxGm, idx, K);
    inQue.FreeTensor(scores);
    valQue.FreeTensor(vals);
    idxQue.FreeTensor(idx);
}

static bool ReadBin(const char* path, void* buf, size_t n)
{
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr) {
        return false;
    }
    size_t got = std::fread(buf, 1, n, f);
    std::fclose(f);
    return got == n;
}

static void WriteBin(const char* path, const void* buf, size_t n)
{
    FILE* f = std::fopen(path, "wb");
    if (f != nullptr) {
        std::fwrite(buf, 1, n, f);
        std::fclose(f);
    }
}

int main()
{
    uint8_t* x = (uint8_t*)GmAlloc(N * sizeof(uint16_t));
    uint8_t* values = (uint8_t*)GmAlloc(K * sizeof(uint16_t));
    uint8_t* index = (uint8_t*)GmAlloc(K * sizeof(uint32_t));
    uint8_t* counts = (uint8_t*)GmAlloc(16 * sizeof(uint16_t));
    if (!ReadBin("input/x.bin", x, N * sizeof(uint16_t))) {
        std::printf("input/x.bin missing\n");
        return 1;
    }
    ICPU_RUN_KF(sort_topk, 1, x, values, index, counts);
    WriteBin("output/values.bin", values, K * sizeof(uint16_t));
    WriteBin("output/index.bin", index, K * sizeof(uint32_t));
    WriteBin("output/counts.bin", counts, 4 * sizeof(uint16_t));
    GmFree(x);
    GmFree(values);
    GmFree(index);
    GmFree(counts);
    return 0;
}
