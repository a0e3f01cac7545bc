// Host side of vec_ops.cpp: every output checked against host arithmetic (exact, except Exp
// within 2 ulp of float).
#include <cmath>
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void vec_ops(GM_ADDR x, GM_ADDR y, GM_ADDR out);

int main()
{
    constexpr int n = 64;
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* out = (float*)AscendC::GmAlloc(10 * n * sizeof(float));
    for (int i = 0; i < n; i++) {
        x[i] = (i - 32) * 0.5f;
        y[i] = i % 7 + 1;
    }
    ICPU_RUN_KF(vec_ops, 1, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)out);
    const char* names[10] = {"Sub", "Mul", "Div", "Max", "Abs", "Adds+Muls", "Compare+Select", "Cast", "Exp", "Add l0"};
    int wrongTotal = 0;
    for (int k = 0; k < 10; k++) {
        int wrong = 0;
        for (int i = 0; i < n; i++) {
            float a = x[i], b = y[i], got = out[k * n + i];
            float want[10] = {a - b, a * b, a / b, a > b ? a : b, std::fabs(a), (a + 2.5f) * 2.0f,
                              a < b ? a : b, a, std::exp(a), i % 2 == 0 ? a + b : 0.0f};
            bool ok = k == 8 ? std::fabs(got - want[k]) <= 2.5e-7f * std::fabs(want[k]) : got == want[k];
            wrong += !ok;
        }
        std::printf("%s: %s\n", names[k], wrong == 0 ? "PASS" : "FAIL");
        wrongTotal += wrong;
    }
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(out);
    return wrongTotal == 0 ? 0 : 1;
}
