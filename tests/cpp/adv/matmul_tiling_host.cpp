// The Matmul host tiling through the vendor's spelling: MultiCoreMatmulTiling / MatmulApiTiling
// built from PlatformAscendCManager::GetInstance(), SetAType(TPosition::GM, CubeFormat::ND,
// DataType::DT_FLOAT16) …, GetTiling into a TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, …) field of
// a user tiling class and into the kernel struct. Prints every field of each result
// ("case NAME ret R f0 … f49", the vendor's field order); the Rust test compares them with
// ascendc::adv::matmul for the same requests.
#include <cstdio>
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/bmm_tiling.h"
#include "lib/matmul/matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulCustomTilingData)
TILING_DATA_FIELD_DEF(int32_t, flag);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;
}  // namespace optiling

using namespace matmul_tiling;

static void Print(const char* name, int64_t ret, const TCubeTiling& t) {
    printf("case %s ret %lld %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", name, (long long)ret, t.usedCoreNum, t.M, t.N, t.Ka, t.Kb, t.singleCoreM, t.singleCoreN, t.singleCoreK, t.baseM, t.baseN, t.baseK, t.depthA1, t.depthB1, t.stepM, t.stepN, t.isBias, t.transLength, t.iterateOrder, t.shareMode, t.shareL1Size, t.shareL0CSize, t.shareUbSize, t.batchM, t.batchN, t.singleBatchM, t.singleBatchN, t.stepKa, t.stepKb, t.depthAL1CacheUB, t.depthBL1CacheUB, t.dbL0A, t.dbL0B, t.dbL0C, t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD, t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD, t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2, t.BatchNum, t.mxTypePara);
}

static void PrintHost(const char* name, int64_t ret, optiling::TCubeTiling& t) {
    printf("case %s ret %lld %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", name, (long long)ret, t.get_usedCoreNum(), t.get_M(), t.get_N(), t.get_Ka(), t.get_Kb(), t.get_singleCoreM(), t.get_singleCoreN(), t.get_singleCoreK(), t.get_baseM(), t.get_baseN(), t.get_baseK(), t.get_depthA1(), t.get_depthB1(), t.get_stepM(), t.get_stepN(), t.get_isBias(), t.get_transLength(), t.get_iterateOrder(), t.get_shareMode(), t.get_shareL1Size(), t.get_shareL0CSize(), t.get_shareUbSize(), t.get_batchM(), t.get_batchN(), t.get_singleBatchM(), t.get_singleBatchN(), t.get_stepKa(), t.get_stepKb(), t.get_depthAL1CacheUB(), t.get_depthBL1CacheUB(), t.get_dbL0A(), t.get_dbL0B(), t.get_dbL0C(), t.get_ALayoutInfoB(), t.get_ALayoutInfoS(), t.get_ALayoutInfoN(), t.get_ALayoutInfoG(), t.get_ALayoutInfoD(), t.get_BLayoutInfoB(), t.get_BLayoutInfoS(), t.get_BLayoutInfoN(), t.get_BLayoutInfoG(), t.get_BLayoutInfoD(), t.get_CLayoutInfoB(), t.get_CLayoutInfoS1(), t.get_CLayoutInfoN(), t.get_CLayoutInfoG(), t.get_CLayoutInfoS2(), t.get_BatchNum(), t.get_mxTypePara());
}

int main() {
    auto ascendcPlatform = platform_ascendc::PlatformAscendCManager::GetInstance();
    const bool wide = ascendcPlatform->GetCurNpuArch() == NpuArch::DAV_2201 ||
                      ascendcPlatform->GetCurNpuArch() == NpuArch::DAV_3002;
    {
        // The usage page's multi-core request, into a user tiling class; the kernel reads the saved bytes.
        optiling::MatmulCustomTilingData tilingData;
        tilingData.set_flag(7);
        MultiCoreMatmulTiling tiling(*ascendcPlatform);
        tiling.SetDim(1);
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetShape(1024, 1024, 1024);
        tiling.SetSingleShape(1024, 1024, 1024);
        tiling.SetOrgShape(1024, 1024, 1024);
        tiling.EnableBias(true);
        tiling.SetBufferSpace(-1, -1, -1);
        int64_t ret = tiling.GetTiling(tilingData.cubeTilingData);
        PrintHost("usage", ret, tilingData.cubeTilingData);
        std::vector<uint8_t> buf(tilingData.GetDataSize());
        tilingData.SaveToBuffer(buf.data(), buf.size());
        struct KernelTiling {
            int32_t flag;
            TCubeTiling cube;
        } k;
        static_assert(sizeof(KernelTiling) == 204, "flag + TCubeTiling");
        printf("saved %zu\n", buf.size());
        memcpy(&k, buf.data(), sizeof(k));
        printf("kernel flag %d\n", k.flag);
        Print("usage_kernel", ret, k.cube);
        int32_t dim = 0, mDim = 0, nDim = 0, sm = 0, sn = 0, sk = 0;
        tiling.GetCoreNum(dim, mDim, nDim);
        tiling.GetSingleShape(sm, sn, sk);
        printf("cores %d %d %d single %d %d %d base %d %d %d\n", dim, mDim, nDim, sm, sn, sk, tiling.GetBaseM(),
               tiling.GetBaseN(), tiling.GetBaseK());
        SysTilingTempBufSize bufSize;
        MultiCoreMatmulGetTmpBufSize(tilingData.cubeTilingData, bufSize);
        printf("tmpbuf %d %d %d\n", bufSize.l1Size, bufSize.l0cSize, bufSize.ubSize);
    }
    {
        MatmulApiTiling tiling(*ascendcPlatform);
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetShape(500, 700, 300);
        tiling.SetFixSplit(64, 128, -1);
        tiling.SetTraverse(MatrixTraverse::FIRSTN);
        tiling.SetBufferSpace(256 * 1024, -1, -1);
        AscendC::tiling::TCubeTiling t;
        Print("fixsplit", tiling.GetTiling(t), t);
    }
    {
        MultiCoreMatmulTiling tiling(*ascendcPlatform);
        tiling.SetDim(ascendcPlatform->GetCoreNumAic());
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, true);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetShape(4000, 3001, 999);
        tiling.SetOrgShape(4000, 3001, 999);
        TCubeTiling t;
        Print("multicore", tiling.GetTiling(t), t);
    }
    {
        MultiCoreMatmulTiling tiling(*ascendcPlatform);
        tiling.SetDim(std::min<int32_t>(8, ascendcPlatform->GetCoreNumAic()));
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetShape(32, 32, 8192);
        tiling.EnableMultiCoreSplitK(true);
        TCubeTiling t;
        Print("splitk", tiling.GetTiling(t), t);
    }
    {
        MatmulApiTiling tiling(*ascendcPlatform);
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_INT8, true);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
        tiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_INT32);
        tiling.EnableBias(true);
        tiling.SetShape(77, 1000, 333);
        TCubeTiling t;
        Print("int8", tiling.GetTiling(t), t);
    }
    if (wide) {
        MatmulApiTiling tiling(*ascendcPlatform);
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_BF16);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetShape(8192, 17, 4097);
        TCubeTiling t;
        Print("bf16", tiling.GetTiling(t), t);
    }
    {
        MatmulApiTiling tiling(*ascendcPlatform);
        tiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
        tiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
        tiling.SetShape(256, 256, 256);
        tiling.SetFixSplit(24, -1, -1);
        TCubeTiling t;
        printf("bad ret %lld\n", (long long)tiling.GetTiling(t));
    }
    return 0;
}
