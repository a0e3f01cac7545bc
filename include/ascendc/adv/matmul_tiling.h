// Host side of the Matmul high-level API: the tiling classes matmul_tiling::MatmulApiTiling,
// MultiCoreMatmulTiling and BatchMatmulTiling, the host tiling class optiling::TCubeTiling and
// MatmulGetTmpBufSize & co. The setters record the request; GetTiling asks the simulator's tiling
// (ascendc::adv::matmul::tiling) and fills either TCubeTiling. See docs/high-level/matmul-tiling.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "matmul_struct.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {
// The request the setters fill, the layout of ascendc::adv::matmul::MatmulTilingRequest.
struct MatmulTilingRequest {
    int32_t kind;
    int32_t npu_arch;
    int32_t aic_num;
    int32_t aiv_num;
    int32_t l1_size;
    int32_t l0a_size;
    int32_t l0b_size;
    int32_t l0c_size;
    int32_t ub_size;
    int32_t bt_size;
    int32_t space_l1;
    int32_t space_l0c;
    int32_t space_ub;
    int32_t space_bt;
    int32_t a_pos;
    int32_t a_format;
    int32_t a_dtype;
    int32_t a_trans;
    int32_t b_pos;
    int32_t b_format;
    int32_t b_dtype;
    int32_t b_trans;
    int32_t c_pos;
    int32_t c_format;
    int32_t c_dtype;
    int32_t bias_pos;
    int32_t bias_format;
    int32_t bias_dtype;
    int32_t is_bias;
    int32_t m;
    int32_t n;
    int32_t k;
    int32_t org_m;
    int32_t org_n;
    int32_t org_ka;
    int32_t org_kb;
    int32_t single_core_m;
    int32_t single_core_n;
    int32_t single_core_k;
    int32_t dim;
    int32_t base_m;
    int32_t base_n;
    int32_t base_k;
    int32_t max_base_m;
    int32_t max_base_n;
    int32_t max_base_k;
    int32_t min_base_m;
    int32_t min_base_n;
    int32_t min_base_k;
    int32_t max_single_m;
    int32_t max_single_n;
    int32_t max_single_k;
    int32_t min_single_m;
    int32_t min_single_n;
    int32_t min_single_k;
    int32_t align_m;
    int32_t align_n;
    int32_t align_k;
    int32_t traverse;
    int32_t mad_type;
    int32_t dequant_type;
    int32_t split_k;
    int32_t mm_config_type;
    int32_t enable_l1_cache_ub;
    int32_t schedule_type;
    int32_t en_vec_nd2nz;
    int32_t sparse;
    int32_t a_layout[5];
    int32_t b_layout[5];
    int32_t c_layout[5];
    int32_t batch_num;
};
static_assert(sizeof(MatmulTilingRequest) == 332, "MatmulTilingRequest: 83 int32_t, as the Rust struct");
}  // namespace matmul_tiling

extern "C" {
int64_t ascendc_adv_matmul_tiling(const matmul_tiling::MatmulTilingRequest* req, AscendC::tiling::TCubeTiling* out,
                                  char* msg, size_t msgLen);
}

namespace optiling {
BEGIN_TILING_DATA_DEF(TCubeTiling)
TILING_DATA_FIELD_DEF(int32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(int32_t, M);
TILING_DATA_FIELD_DEF(int32_t, N);
TILING_DATA_FIELD_DEF(int32_t, Ka);
TILING_DATA_FIELD_DEF(int32_t, Kb);
TILING_DATA_FIELD_DEF(int32_t, singleCoreM);
TILING_DATA_FIELD_DEF(int32_t, singleCoreN);
TILING_DATA_FIELD_DEF(int32_t, singleCoreK);
TILING_DATA_FIELD_DEF(int32_t, baseM);
TILING_DATA_FIELD_DEF(int32_t, baseN);
TILING_DATA_FIELD_DEF(int32_t, baseK);
TILING_DATA_FIELD_DEF(int32_t, depthA1);
TILING_DATA_FIELD_DEF(int32_t, depthB1);
TILING_DATA_FIELD_DEF(int32_t, stepM);
TILING_DATA_FIELD_DEF(int32_t, stepN);
TILING_DATA_FIELD_DEF(int32_t, isBias);
TILING_DATA_FIELD_DEF(int32_t, transLength);
TILING_DATA_FIELD_DEF(int32_t, iterateOrder);
TILING_DATA_FIELD_DEF(int32_t, shareMode);
TILING_DATA_FIELD_DEF(int32_t, shareL1Size);
TILING_DATA_FIELD_DEF(int32_t, shareL0CSize);
TILING_DATA_FIELD_DEF(int32_t, shareUbSize);
TILING_DATA_FIELD_DEF(int32_t, batchM);
TILING_DATA_FIELD_DEF(int32_t, batchN);
TILING_DATA_FIELD_DEF(int32_t, singleBatchM);
TILING_DATA_FIELD_DEF(int32_t, singleBatchN);
TILING_DATA_FIELD_DEF(int32_t, stepKa);
TILING_DATA_FIELD_DEF(int32_t, stepKb);
TILING_DATA_FIELD_DEF(int32_t, depthAL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, depthBL1CacheUB);
TILING_DATA_FIELD_DEF(int32_t, dbL0A);
TILING_DATA_FIELD_DEF(int32_t, dbL0B);
TILING_DATA_FIELD_DEF(int32_t, dbL0C);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, ALayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoS);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, BLayoutInfoD);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoB);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS1);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoN);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoG);
TILING_DATA_FIELD_DEF(int32_t, CLayoutInfoS2);
TILING_DATA_FIELD_DEF(int32_t, BatchNum);
TILING_DATA_FIELD_DEF(int32_t, mxTypePara);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace matmul_tiling {
constexpr int32_t UINT8_BYTES = 1;
constexpr int32_t INT8_BYTES = 1;
constexpr int32_t FP32_BYTES = 4;
constexpr int32_t FP16_BYTES = 2;
constexpr int32_t C0_SIZE = 16;
constexpr int32_t C0_BYTE_SIZE = 32;
constexpr int32_t BITS_PER_BYTE = 8;

enum class DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_BFLOAT16 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E4M3FN = 35, DT_FLOAT8_E5M2 = 36,
    DT_FLOAT4_E2M1 = 37, DT_FLOAT8_E8M0 = 38, DT_FLOAT4_E1M2 = 39, DT_MAX = 40,
};

enum class TPosition : int32_t {
    GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM, TSCM, MAX,
};

enum class TilingPolicy : int32_t { FIXED_A_TSCM, FIXED_B_TSCM, FIXED_A_B_TSCM, NO_POLICY };

enum class CubeFormat : int32_t {
    ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class MatrixMadType : int32_t { NORMAL = 0, HF32 = 1, MXMODE = 2 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT = 1, N_BUFFER_33 = 2 };

struct SysTilingTempBufSize {
    int32_t ubSize = 0;
    int32_t l1Size = 0;
    int32_t l0cSize = 0;
};

struct MatTilingType {
    TPosition pos = TPosition::GM;
    CubeFormat type = CubeFormat::ND;
    DataType dataType = DataType::DT_FLOAT;
    bool isTrans = false;
    bool isDB = false;
    bool hasSetScaleType = false;
    TPosition scalePos = TPosition::GM;
    CubeFormat scaleType = CubeFormat::ND;
    bool isScaleTrans = false;
};

// The platform of the PlatformInfo constructor (sizes in bytes).
struct PlatformInfo {
    platform_ascendc::SocVersion socVersion;
    uint64_t l1Size = 0;
    uint64_t l0CSize = 0;
    uint64_t ubSize = 0;
    uint64_t l0ASize = 0;
    uint64_t l0BSize = 0;
};

struct MatmulConfigParams {
    int32_t mmConfigType;
    bool enableL1CacheUB;
    ScheduleType scheduleType;
    MatrixTraverse traverse;
    bool enVecND2NZ;
    MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                       ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                       MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
        : mmConfigType(mmConfigTypeIn), enableL1CacheUB(enableL1CacheUBIn), scheduleType(scheduleTypeIn),
          traverse(traverseIn), enVecND2NZ(enVecND2NZIn) {}
};

namespace detail {
inline void FillPlatform(MatmulTilingRequest& r, const platform_ascendc::PlatformAscendC& p) {
    uint64_t v = 0;
    using platform_ascendc::CoreMemType;
    r.npu_arch = static_cast<int32_t>(p.GetCurNpuArch());
    r.aic_num = static_cast<int32_t>(p.GetCoreNumAic());
    r.aiv_num = static_cast<int32_t>(p.GetCoreNumAiv());
    p.GetCoreMemSize(CoreMemType::L1, v); r.l1_size = static_cast<int32_t>(v);
    p.GetCoreMemSize(CoreMemType::L0_A, v); r.l0a_size = static_cast<int32_t>(v);
    p.GetCoreMemSize(CoreMemType::L0_B, v); r.l0b_size = static_cast<int32_t>(v);
    p.GetCoreMemSize(CoreMemType::L0_C, v); r.l0c_size = static_cast<int32_t>(v);
    p.GetCoreMemSize(CoreMemType::UB, v); r.ub_size = static_cast<int32_t>(v);
    p.GetCoreMemSize(CoreMemType::BT, v); r.bt_size = static_cast<int32_t>(v);
}
inline MatmulTilingRequest NewRequest(int32_t kind) {
    MatmulTilingRequest r{};
    r.kind = kind;
    r.space_l1 = r.space_l0c = r.space_ub = r.space_bt = -1;
    r.m = r.n = r.k = -1;
    r.org_m = r.org_n = r.org_ka = r.org_kb = -1;
    r.single_core_m = r.single_core_n = r.single_core_k = -1;
    r.base_m = r.base_n = r.base_k = -1;
    r.max_base_m = r.max_base_n = r.max_base_k = r.min_base_m = r.min_base_n = r.min_base_k = -1;
    r.max_single_m = r.max_single_n = r.max_single_k = r.min_single_m = r.min_single_n = r.min_single_k = -1;
    r.mm_config_type = 1;
    return r;
}
}  // namespace detail

class MatmulApiTilingBase {
public:
    MatmulApiTilingBase() : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}
    explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
        : req_(detail::NewRequest(0)) {
        detail::FillPlatform(req_, ascendcPlatform);
    }
    // The given sizes replace the product's (core counts and the rest stay the product's).
    explicit MatmulApiTilingBase(const PlatformInfo& platform) : MatmulApiTilingBase() {
        req_.l1_size = static_cast<int32_t>(platform.l1Size);
        req_.l0c_size = static_cast<int32_t>(platform.l0CSize);
        req_.ub_size = static_cast<int32_t>(platform.ubSize);
        req_.l0a_size = static_cast<int32_t>(platform.l0ASize);
        req_.l0b_size = static_cast<int32_t>(platform.l0BSize);
    }
    virtual ~MatmulApiTilingBase() = default;

    int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        aType_ = MatTilingType{pos, type, dataType, isTrans};
        req_.a_pos = static_cast<int32_t>(pos); req_.a_format = static_cast<int32_t>(type);
        req_.a_dtype = static_cast<int32_t>(dataType); req_.a_trans = isTrans ? 1 : 0;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType, bool isTrans = false) {
        bType_ = MatTilingType{pos, type, dataType, isTrans};
        req_.b_pos = static_cast<int32_t>(pos); req_.b_format = static_cast<int32_t>(type);
        req_.b_dtype = static_cast<int32_t>(dataType); req_.b_trans = isTrans ? 1 : 0;
        return 0;
    }
    // Scale matrices belong to MxMatmul (Ascend 950), which the simulator does not model: recorded only.
    int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = false) {
        aType_.hasSetScaleType = true; aType_.scalePos = scalePos; aType_.scaleType = scaleType;
        aType_.isScaleTrans = isScaleTrans;
        return 0;
    }
    int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType, bool isScaleTrans = true) {
        bType_.hasSetScaleType = true; bType_.scalePos = scalePos; bType_.scaleType = scaleType;
        bType_.isScaleTrans = isScaleTrans;
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType) {
        cType_ = MatTilingType{pos, type, dataType};
        req_.c_pos = static_cast<int32_t>(pos); req_.c_format = static_cast<int32_t>(type);
        req_.c_dtype = static_cast<int32_t>(dataType);
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
        biasType_ = MatTilingType{pos, type, dataType};
        req_.bias_pos = static_cast<int32_t>(pos); req_.bias_format = static_cast<int32_t>(type);
        req_.bias_dtype = static_cast<int32_t>(dataType);
        return 0;
    }
    int32_t SetDequantType(DequantType dequantType) {
        deqType = dequantType;
        req_.dequant_type = static_cast<int32_t>(dequantType);
        return 0;
    }
    virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        if (m <= 0 && m != -1) return -1;
        singleM = m; singleN = n; singleK = k;
        req_.m = m; req_.n = n; req_.k = k;
        return 0;
    }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) { return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn); }
    int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn, int32_t orgKbIn) {
        if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
        orgM = orgMIn; orgN = orgNIn; orgKa = orgKaIn; orgKb = orgKbIn;
        req_.org_m = orgMIn; req_.org_n = orgNIn; req_.org_ka = orgKaIn; req_.org_kb = orgKbIn;
        return 0;
    }
    int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return Layout(req_.a_layout, b, s, n, g, d); }
    int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return Layout(req_.b_layout, b, s, n, g, d); }
    int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) { return Layout(req_.c_layout, b, s, n, g, d); }
    int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
        if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0) return -1;
        Layout(req_.a_layout, batchA, m, 1, 1, k);
        Layout(req_.b_layout, batchB, n, 1, 1, k);
        Layout(req_.c_layout, std::max(batchA, batchB), m, 1, 1, n);
        return 0;
    }
    int32_t SetBatchNum(int32_t batch) {
        if (batch <= 0) return -1;
        batchNum = batch;
        req_.batch_num = batch;
        return 0;
    }
    int32_t EnableBias(bool isBiasIn = false) { isBias = isBiasIn; req_.is_bias = isBiasIn ? 1 : 0; return 0; }
    int32_t SetBias(bool isBiasIn = false) { return EnableBias(isBiasIn); }
    int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1, int32_t baseKIn = -1) {
        req_.base_m = baseMIn; req_.base_n = baseNIn; req_.base_k = baseKIn;
        return 0;
    }
    // -1 keeps the product's size; a size over it (or below -1) is refused.
    int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1, int32_t ubSize = -1, int32_t btSize = -1) {
        if (l1Size < -1 || l1Size > req_.l1_size || l0CSize < -1 || l0CSize > req_.l0c_size || ubSize < -1 ||
            ubSize > req_.ub_size || btSize < -1 || btSize > req_.bt_size) {
            return -1;
        }
        req_.space_l1 = l1Size; req_.space_l0c = l0CSize; req_.space_ub = ubSize; req_.space_bt = btSize;
        return 0;
    }
    int32_t SetTraverse(MatrixTraverse traverse) { traverse_ = traverse; req_.traverse = static_cast<int32_t>(traverse); return 0; }
    int32_t SetMadType(MatrixMadType madType) { madType_ = madType; req_.mad_type = static_cast<int32_t>(madType); return 0; }
    int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1, int32_t maxBaseK = -1, int32_t minBaseM = -1,
                          int32_t minBaseN = -1, int32_t minBaseK = -1) {
        req_.max_base_m = maxBaseM; req_.max_base_n = maxBaseN; req_.max_base_k = maxBaseK;
        req_.min_base_m = minBaseM; req_.min_base_n = minBaseN; req_.min_base_k = minBaseK;
        return 0;
    }
    // Reserved by the vendor (not supported in this version): recorded, no effect.
    int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias, bool transND2NZ = true, bool transNZ2ND = true) {
        aType_.isDB = a; bType_.isDB = b; cType_.isDB = c; biasType_.isDB = bias;
        transND2NZ_ = transND2NZ; transNZ2ND_ = transNZ2ND;
        return 0;
    }
    void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                               ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                               MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false) {
        mmConfigType = mmConfigTypeIn; enableL1CacheUB = enableL1CacheUBIn; scheduleType = scheduleTypeIn;
        enVecND2NZ = enVecND2NZIn;
        req_.mm_config_type = mmConfigTypeIn; req_.enable_l1_cache_ub = enableL1CacheUBIn ? 1 : 0;
        req_.schedule_type = static_cast<int32_t>(scheduleTypeIn); req_.en_vec_nd2nz = enVecND2NZIn ? 1 : 0;
        if (traverseIn != MatrixTraverse::NOSET) SetTraverse(traverseIn);
    }
    void SetMatmulConfigParams(const MatmulConfigParams& p) {
        SetMatmulConfigParams(p.mmConfigType, p.enableL1CacheUB, p.scheduleType, p.traverse, p.enVecND2NZ);
    }
    int32_t SetSparse(bool isSparseIn = false) { isSparse_ = isSparseIn; req_.sparse = isSparseIn ? 1 : 0; return 0; }
    int32_t GetBaseM() const { return baseM; }
    int32_t GetBaseN() const { return baseN; }
    int32_t GetBaseK() const { return baseK; }
    virtual int64_t GetTiling(optiling::TCubeTiling& tiling) {
        AscendC::tiling::TCubeTiling t;
        int64_t ret = GetTiling(t);
        if (ret != -1) {
            ToHost(t, tiling);
        }
        return ret;
    }
    virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) {
        char msg[512] = {0};
        AscendC::tiling::TCubeTiling t;
        if (ascendc_adv_matmul_tiling(&req_, &t, msg, sizeof(msg)) != 0) {
            std::fprintf(stderr, "[WARNING] %s\n", msg);
            return -1;
        }
        tiling = t;
        result_ = t;
        baseM = t.baseM; baseN = t.baseN; baseK = t.baseK;
        return 0;
    }
    // The kernel struct into the host class (same fields, same order).
    static void ToHost(const AscendC::tiling::TCubeTiling& t, optiling::TCubeTiling& out) {
        out.set_usedCoreNum(t.usedCoreNum);
        out.set_M(t.M);
        out.set_N(t.N);
        out.set_Ka(t.Ka);
        out.set_Kb(t.Kb);
        out.set_singleCoreM(t.singleCoreM);
        out.set_singleCoreN(t.singleCoreN);
        out.set_singleCoreK(t.singleCoreK);
        out.set_baseM(t.baseM);
        out.set_baseN(t.baseN);
        out.set_baseK(t.baseK);
        out.set_depthA1(t.depthA1);
        out.set_depthB1(t.depthB1);
        out.set_stepM(t.stepM);
        out.set_stepN(t.stepN);
        out.set_isBias(t.isBias);
        out.set_transLength(t.transLength);
        out.set_iterateOrder(t.iterateOrder);
        out.set_shareMode(t.shareMode);
        out.set_shareL1Size(t.shareL1Size);
        out.set_shareL0CSize(t.shareL0CSize);
        out.set_shareUbSize(t.shareUbSize);
        out.set_batchM(t.batchM);
        out.set_batchN(t.batchN);
        out.set_singleBatchM(t.singleBatchM);
        out.set_singleBatchN(t.singleBatchN);
        out.set_stepKa(t.stepKa);
        out.set_stepKb(t.stepKb);
        out.set_depthAL1CacheUB(t.depthAL1CacheUB);
        out.set_depthBL1CacheUB(t.depthBL1CacheUB);
        out.set_dbL0A(t.dbL0A);
        out.set_dbL0B(t.dbL0B);
        out.set_dbL0C(t.dbL0C);
        out.set_ALayoutInfoB(t.ALayoutInfoB);
        out.set_ALayoutInfoS(t.ALayoutInfoS);
        out.set_ALayoutInfoN(t.ALayoutInfoN);
        out.set_ALayoutInfoG(t.ALayoutInfoG);
        out.set_ALayoutInfoD(t.ALayoutInfoD);
        out.set_BLayoutInfoB(t.BLayoutInfoB);
        out.set_BLayoutInfoS(t.BLayoutInfoS);
        out.set_BLayoutInfoN(t.BLayoutInfoN);
        out.set_BLayoutInfoG(t.BLayoutInfoG);
        out.set_BLayoutInfoD(t.BLayoutInfoD);
        out.set_CLayoutInfoB(t.CLayoutInfoB);
        out.set_CLayoutInfoS1(t.CLayoutInfoS1);
        out.set_CLayoutInfoN(t.CLayoutInfoN);
        out.set_CLayoutInfoG(t.CLayoutInfoG);
        out.set_CLayoutInfoS2(t.CLayoutInfoS2);
        out.set_BatchNum(t.BatchNum);
        out.set_mxTypePara(t.mxTypePara);
    }

public:
    MatTilingType aType_;
    MatTilingType bType_;
    MatTilingType cType_;
    MatTilingType biasType_;
    bool isBias = false;
    int32_t orgM = 0, orgN = 0, orgKa = 0, orgKb = 0;
    int32_t batchNum = 0;
    int32_t singleM = 0, singleN = 0, singleK = 0;
    int32_t baseM = 0, baseN = 0, baseK = 0;
    MatrixTraverse traverse_ = MatrixTraverse::FIRSTM;
    MatrixMadType madType_ = MatrixMadType::NORMAL;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool transND2NZ_ = false;
    bool transNZ2ND_ = false;
    bool isSparse_ = false;
    DequantType deqType = DequantType::SCALAR;
    int32_t mmConfigType = 1;
    bool enableL1CacheUB = false;
    bool enVecND2NZ = false;

protected:
    static int32_t Layout(int32_t (&l)[5], int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
        if (b <= 0 || s <= 0 || n <= 0 || g <= 0 || d <= 0) return -1;
        l[0] = b; l[1] = s; l[2] = n; l[3] = g; l[4] = d;
        return 0;
    }
    MatmulTilingRequest req_;
    AscendC::tiling::TCubeTiling result_;
};

// Single-core tiling: SetShape is the one core's shape.
class MatmulApiTiling : public MatmulApiTilingBase {
public:
    MatmulApiTiling() = default;
    explicit MatmulApiTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) {}
    explicit MatmulApiTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) {}
    // The simulator models no L1 bank conflicts: nothing to optimise.
    bool EnableL1BankConflictOptimise() { return false; }
};

// Multi-core tiling: SetShape is split over up to SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
public:
    MultiCoreMatmulTiling() { req_.kind = 1; }
    explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) { req_.kind = 1; }
    explicit MultiCoreMatmulTiling(const PlatformInfo& p) : MatmulApiTilingBase(p) { req_.kind = 1; }
    int32_t SetDim(int32_t dim) {
        if (dim <= 0) return -1;
        req_.dim = dim;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) override { return MatmulApiTilingBase::SetShape(m, n, k); }
    virtual int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1, int32_t singleKIn = -1) {
        req_.single_core_m = singleMIn; req_.single_core_n = singleNIn; req_.single_core_k = singleKIn;
        return 0;
    }
    virtual int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1, int32_t maxK = -1, int32_t minM = -1,
                                   int32_t minN = -1, int32_t minK = -1) {
        req_.max_single_m = maxM; req_.max_single_n = maxN; req_.max_single_k = maxK;
        req_.min_single_m = minM; req_.min_single_n = minN; req_.min_single_k = minK;
        return 0;
    }
    int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
        req_.align_m = alignM; req_.align_n = alignN; req_.align_k = alignK;
        return 0;
    }
    int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
        shapeM = result_.singleCoreM; shapeN = result_.singleCoreN; shapeK = result_.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
        dim = result_.usedCoreNum;
        if (result_.singleCoreM <= 0 || result_.singleCoreN <= 0) return -1;
        mDim = (singleM + result_.singleCoreM - 1) / result_.singleCoreM;
        nDim = (singleN + result_.singleCoreN - 1) / result_.singleCoreN;
        return 0;
    }
    void EnableMultiCoreSplitK(bool flag) { req_.split_k = flag ? 1 : 0; }
    void SetSplitK(bool flag) { EnableMultiCoreSplitK(flag); }
    bool EnableL1BankConflictOptimise() { return false; }
};

// Batch Matmul tiling: one core's tiling of a batch block (SetBatchNum batches must fit L1).
class BatchMatmulTiling : public MatmulApiTilingBase {
public:
    BatchMatmulTiling() { req_.kind = 2; }
    explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& p) : MatmulApiTilingBase(p) { req_.kind = 2; }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim, int32_t& batchCoreM, int32_t& batchCoreN) {
        dim = result_.usedCoreNum; mDim = 1; nDim = 1; batchCoreM = 1; batchCoreN = 1;
        return 0;
    }
};
}  // namespace matmul_tiling

// The L1 / L0C / UB space a tiling uses, raised into bufSize (UB: at least 2 * transLength).
inline int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    bufSize.l1Size = std::max(bufSize.l1Size, tiling.shareL1Size);
    bufSize.l0cSize = std::max(bufSize.l0cSize, tiling.shareL0CSize);
    bufSize.ubSize = std::max(bufSize.ubSize, std::max(tiling.shareUbSize, 2 * tiling.transLength));
    return 0;
}
inline int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    AscendC::tiling::TCubeTiling t;
    t.shareL1Size = tiling.get_shareL1Size();
    t.shareL0CSize = tiling.get_shareL0CSize();
    t.shareUbSize = tiling.get_shareUbSize();
    t.transLength = tiling.get_transLength();
    return MatmulGetTmpBufSizeV2(t, bufSize);
}
inline int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSize(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling, matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSize(tiling, bufSize);
}
inline int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                              matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
inline int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                          matmul_tiling::SysTilingTempBufSize& bufSize) {
    return MatmulGetTmpBufSizeV2(tiling, bufSize);
}
