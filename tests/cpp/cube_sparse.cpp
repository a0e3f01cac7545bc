// The 4:2 sparse matmul in the vendor's mmad_with_sparse style: A (M x K int8, NZ in GM), the
// densified B (K/2 x N, ZN) and its index matrix (ZN, four 2-bit indices a byte) go GM -> L1;
// LoadData moves A to L0A, LoadDataWithSparse moves B to L0B and the indices to the index buffer;
// MmadWithSparse and Fixpipe produce C = A x B, checked against a plain product with the original
// sparse B (every group of four K values of a column has at most two non-zeros).
#include <cstdio>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t M = 64, N = 48, K = 128, KD = K / 2;

__global__ __aicore__ void sparse_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c)
{
    GlobalTensor<int8_t> aGm, bGm;
    GlobalTensor<uint8_t> iGm;
    GlobalTensor<int32_t> cGm;
    aGm.SetGlobalBuffer((__gm__ int8_t*)a);
    bGm.SetGlobalBuffer((__gm__ int8_t*)b);
    iGm.SetGlobalBuffer((__gm__ uint8_t*)idx);
    cGm.SetGlobalBuffer((__gm__ int32_t*)c);
    LocalTensor<int8_t> a1(TPosition::A1, 0, M * K);
    LocalTensor<int8_t> b1(TPosition::B1, 64 * 1024, KD * N);
    LocalTensor<uint8_t> i1(TPosition::B1, 128 * 1024, KD * N / 4);
    LocalTensor<int8_t> a2(TPosition::A2, 0, M * K);
    LocalTensor<int8_t> b2(TPosition::B2, 0, KD * N);
    LocalTensor<int32_t> c1(TPosition::CO1, 0, M * N);
    DataCopy(a1, aGm, {1, static_cast<uint16_t>(M * K / 32), 0, 0});
    DataCopy(b1, bGm, {1, static_cast<uint16_t>(KD * N / 32), 0, 0});
    DataCopy(i1, iGm, {1, static_cast<uint16_t>(KD * N / 4 / 32), 0, 0});
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    // NZ -> ZZ, one row of fractals at a time.
    for (uint32_t i = 0; i < M / 16; i++) {
        LoadData(a2[i * (K / 32) * 512], a1[i * 512], LoadData2DParams(0, K / 32, M / 16, 0, 0, false, 0));
    }
    LoadData2dParams lb;
    lb.repeatTimes = KD / 32 * N / 16;
    LoadDataWithSparse(b2, b1, i1, lb);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    MmadWithSparse(c1, a2, b2, {M, N, K, false, 0, false, false, false});
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(cGm, c1, FixpipeParamsV220(N, M, M, N, false));
}

int main()
{
    SetKernelMode(KernelMode::AIC_MODE);
    std::vector<int8_t> a(M * K), b(K * N, 0);
    uint32_t seed = 12345;
    auto next = [&](uint32_t n) {
        seed = seed * 1103515245u + 12345u;
        return (seed >> 16) % n;
    };
    for (auto& x : a) x = int8_t(int(next(19)) - 9);
    for (uint32_t j = 0; j < N; j++) {
        for (uint32_t t = 0; t < K / 4; t++) {
            uint32_t count = next(3);  // 0, 1 or 2 non-zeros
            uint32_t p0 = next(4), p1 = (p0 + 1 + next(3)) % 4;
            if (count >= 1) b[(4 * t + p0) * N + j] = int8_t(1 + next(9));
            if (count == 2) b[(4 * t + p1) * N + j] = int8_t(-1 - int(next(9)));
        }
    }
    // Densify: per group, indices (i0, i1) and the dense pair, as the sparse pages define them.
    std::vector<int8_t> dense(KD * N);
    std::vector<uint8_t> index(KD * N);
    for (uint32_t j = 0; j < N; j++) {
        for (uint32_t t = 0; t < K / 4; t++) {
            int nz[4], n = 0;
            for (int q = 0; q < 4; q++) {
                if (b[(4 * t + q) * N + j] != 0) nz[n++] = q;
            }
            int i0 = 0, i1 = 0;
            int8_t d0 = 0, d1 = 0;
            if (n == 2) {
                i0 = nz[0], i1 = nz[1] - 1, d0 = b[(4 * t + nz[0]) * N + j], d1 = b[(4 * t + nz[1]) * N + j];
            } else if (n == 1 && nz[0] == 3) {
                i1 = 2, d1 = b[(4 * t + 3) * N + j];
            } else if (n == 1) {
                i0 = nz[0], d0 = b[(4 * t + nz[0]) * N + j];
            }
            dense[2 * t * N + j] = d0;
            dense[(2 * t + 1) * N + j] = d1;
            index[2 * t * N + j] = uint8_t(i0);
            index[(2 * t + 1) * N + j] = uint8_t(i1);
        }
    }
    int8_t* ga = (int8_t*)GmAlloc(M * K);
    int8_t* gb = (int8_t*)GmAlloc(KD * N);
    uint8_t* gi = (uint8_t*)GmAlloc(KD * N / 4);
    int32_t* gc = (int32_t*)GmAlloc(M * N * 4);
    // A in NZ (column groups of 32); B and the indices in ZN (fractals of 32 K x 16 N).
    for (uint32_t r = 0; r < M; r++) {
        for (uint32_t q = 0; q < K; q++) ga[(q / 32) * M * 32 + r * 32 + q % 32] = a[r * K + q];
    }
    for (uint32_t i = 0; i < KD * N / 4; i++) gi[i] = 0;
    for (uint32_t r = 0; r < KD; r++) {
        for (uint32_t j = 0; j < N; j++) {
            uint32_t f = (r / 32) * (N / 16) + j / 16;
            gb[f * 512 + (j % 16) * 32 + r % 32] = dense[r * N + j];
            gi[f * 128 + (j % 16) * 8 + (r % 32) / 4] |= uint8_t(index[r * N + j] << (2 * (r % 4)));
        }
    }
    ICPU_RUN_KF(sparse_matmul, 1, (GM_ADDR)ga, (GM_ADDR)gb, (GM_ADDR)gi, (GM_ADDR)gc);
    int wrong = 0;
    for (uint32_t i = 0; i < M; i++) {
        for (uint32_t j = 0; j < N; j++) {
            int32_t want = 0;
            for (uint32_t q = 0; q < K; q++) want += int32_t(a[i * K + q]) * int32_t(b[q * N + j]);
            wrong += gc[i * N + j] != want;
        }
    }
    GmFree(ga);
    GmFree(gb);
    GmFree(gi);
    GmFree(gc);
    std::printf("sparse %ux%ux%u: %d wrong\n", M, N, K, wrong);
    std::printf("%s\n", wrong == 0 ? "PASS" : "FAIL");
    return wrong == 0 ? 0 : 1;
}
