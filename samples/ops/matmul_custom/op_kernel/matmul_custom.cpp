// C = A x B + bias: each vector core takes its singleCoreM x singleCoreN window of C (tails by
// SetTail) and drives its AI Core's cube core through the Matmul high-level API.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using CType = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>;

class MatmulKernel {
public:
    AscendC::Matmul<AType, AType, CType, CType> mm;

    __aicore__ inline void Process(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling& t)
    {
        int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
        int32_t mi = AscendC::GetBlockIdx() % mBlocks;
        int32_t ni = AscendC::GetBlockIdx() / mBlocks;
        int32_t tailM = t.M - mi * t.singleCoreM;
        int32_t tailN = t.N - ni * t.singleCoreN;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), t.M * t.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), t.Kb * t.N);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), t.M * t.N);
        biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias), t.N);
        mm.SetTail(tailM < t.singleCoreM ? tailM : t.singleCoreM, tailN < t.singleCoreN ? tailN : t.singleCoreN);
        mm.SetTensorA(aGm[mi * t.singleCoreM * t.Ka]);
        mm.SetTensorB(bGm[ni * t.singleCoreN]);
        mm.SetBias(biasGm[ni * t.singleCoreN]);
        mm.IterateAll(cGm[mi * t.singleCoreM * t.N + ni * t.singleCoreN]);
        mm.End();
    }

private:
    AscendC::GlobalTensor<half> aGm, bGm;
    AscendC::GlobalTensor<float> cGm, biasGm;
};

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    AscendC::TPipe pipe;
    MatmulKernel op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    if (AscendC::GetBlockIdx() >= static_cast<uint32_t>(tilingData.cubeTilingData.usedCoreNum)) {
        return;
    }
    if (TILING_KEY_IS(1)) {
        op.Process(a, b, bias, c, tilingData.cubeTilingData);
    }
}
