// Host side of copy_family.cpp: runs each kernel on one block and checks every output element.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void pad_rows(GM_ADDR src, GM_ADDR dst);
extern "C" __global__ __aicore__ void slice_rows(GM_ADDR src, GM_ADDR dst);
extern "C" __global__ __aicore__ void nz_to_nd(GM_ADDR src, GM_ADDR dst);

static int Report(const char* name, int wrong)
{
    std::printf("%s: %s\n", name, wrong == 0 ? "PASS" : "FAIL");
    return wrong;
}

static int PadRows()
{
    half* src = (half*)AscendC::GmAlloc(33 * sizeof(half));
    half* dst = (half*)AscendC::GmAlloc(48 * sizeof(half));
    for (int i = 0; i < 33; i++) {
        src[i] = i + 1;
    }
    ICPU_RUN_KF(pad_rows, 1, (GM_ADDR)src, (GM_ADDR)dst);
    int wrong = 0;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 16; c++) {
            float want = c < 11 ? r * 11 + c + 1 : 7;
            wrong += float(dst[r * 16 + c]) != want;
        }
    }
    AscendC::GmFree(src);
    AscendC::GmFree(dst);
    return Report("pad_rows", wrong);
}

static int SliceRows()
{
    float* src = (float*)AscendC::GmAlloc(160 * sizeof(float));
    float* dst = (float*)AscendC::GmAlloc(32 * sizeof(float));
    for (int row = 0; row < 4; row++) {
        for (int col = 0; col < 40; col++) {
            src[row * 40 + col] = row * 100 + col;
        }
    }
    ICPU_RUN_KF(slice_rows, 1, (GM_ADDR)src, (GM_ADDR)dst);
    int wrong = 0;
    for (int k = 0; k < 2; k++) {
        int row = 1 + 2 * k;
        for (int j = 0; j < 16; j++) {
            int col = j < 8 ? 8 + j : 24 + (j - 8);
            wrong += dst[k * 16 + j] != row * 100 + col;
        }
    }
    AscendC::GmFree(src);
    AscendC::GmFree(dst);
    return Report("slice_rows", wrong);
}

static int NzToNd()
{
    half* src = (half*)AscendC::GmAlloc(512 * sizeof(half));
    half* dst = (half*)AscendC::GmAlloc(512 * sizeof(half));
    // NZ position (group g, row r, column c) holds the ND index of (r, 16 g + c).
    for (int g = 0; g < 2; g++) {
        for (int r = 0; r < 16; r++) {
            for (int c = 0; c < 16; c++) {
                src[g * 256 + r * 16 + c] = r * 32 + g * 16 + c;
            }
        }
    }
    ICPU_RUN_KF(nz_to_nd, 1, (GM_ADDR)src, (GM_ADDR)dst);
    int wrong = 0;
    for (int i = 0; i < 512; i++) {
        wrong += float(dst[i]) != i;
    }
    AscendC::GmFree(src);
    AscendC::GmFree(dst);
    return Report("nz_to_nd", wrong);
}

int main()
{
    int wrong = PadRows() + SliceRows() + NzToNd();
    return wrong == 0 ? 0 : 1;
}
