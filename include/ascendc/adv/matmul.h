// High-level API, matrix multiplication (矩阵计算), kernel side: MatmulType, MatmulConfig and its
// factories (CFG_NORM, CFG_MDL, GetMMConfig, …), the Matmul object and REGIST_MATMUL_OBJ. The
// object forwards to the simulator's Matmul (crates/ascendc/src/adv/matmul/), which issues the
// cube instructions on the cube core; in a mixed kernel (no ASCENDC_CUBE_ONLY) the vector cores'
// calls travel to their AI Core's cube core as on the device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../tensor.h"
#include "../tpipe.h"
#include "matmul_struct.h"

// ---- the config (global namespace, as the vendor's headers have it) ----

#ifndef ASCC_ENUM_CUBEFORMAT
#define ASCC_ENUM_CUBEFORMAT
// The layout of a Matmul operand.
enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR = ND, COLUMN_MAJOR = 8 };
#endif

// The batch layout of a batch Matmul's operands.
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

// How a batch Matmul's operands compare with L1.
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };

// How a batch Matmul writes its outputs.
enum BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };

#ifndef ASCC_STRUCT_ITERATEORDER
#define ASCC_STRUCT_ITERATEORDER
// The walk over C's blocks.
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
#endif

// How L0 is filled.
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };

// Which Iterate interfaces a kernel calls.
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001,
    ITERATE_MODE_ALL = 0b00000010,
    ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000,
    ITERATE_MODE_DEFAULT = 0b11111111,
};

// Weight decompression (Ascend 950).
enum class DecompressionMode {
    DECOMP_NONE = 0b0000,
    DECOMP_2bitTo8bit = 0b0001,
    DECOMP_3bitTo8bit = 0b0010,
    DECOMP_4bitTo8bit = 0b0011,
    DECOMP_16bitTo64bit = 0b100,
    DECOMP_1bitTo8bit = 0b0101,
    DECOMP_1bitTo4bit = 0b0110,
    DECOMP_2bitTo4bit = 0b0111,
    DECOMP_3bitTo4bit = 0b1000,
};

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

// A Matmul's template and switches; the fields in the vendor's order.
struct MatmulConfig {
    bool doNorm;
    bool doBasicBlock;
    bool doMultiDataLoad;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
    bool intrinsicsCheck;
    bool isNBatch;
    bool enVecND2NZ;
    bool doSpecialBasicBlock;
    uint32_t doMTE2Preload;
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t stepM;
    uint32_t stepN;
    uint32_t baseMN;
    uint32_t singleCoreMN;
    bool enUnitFlag = true;
    bool isPerTensor;
    bool hasAntiQuantOffset;
    bool doIBShareNorm;
    bool doSpecialMDL;
    bool enableInit = true;
    BatchMode batchMode;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse;
    bool enableL1CacheUB;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder{IterateOrder::UNDEF};
    ScheduleType scheduleType;
    bool enableDoubleCache;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// The template GetMMConfig starts from.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

// GetMMConfig arguments: constant shapes.
struct MatmulShapeParams {
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
};

// GetMMConfig arguments: B's antiquantisation.
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};

// GetMMConfig arguments: batches.
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};

// GetMMConfig arguments: functions.
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// GetMMConfig arguments: the bias.
struct MatmulBiasParams {
    bool enableSetBias = true;
};

// Reserved (the callbacks' block description).
struct MatrixOffset {
    int32_t offset;
    int32_t row;
    int32_t col;
    int32_t height;
    int32_t width;
};

// The Norm template.
constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                       const bool isVecND2NZ = false,
                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                       const bool isMsgReuse = true,
                                       const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                       const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                       const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                       const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
    MatmulConfig c{};
    c.doNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.enUnitFlag = enUnitFlag;
    c.batchMode = bmmMode;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = true;
    c.iterateOrder = iterateOrder;
    c.scheduleType = scheduleType;
    c.enableMixDualMaster = enableMixDualMaster;
    c.bmmOutMode = bmmOutMode;
    return c;
}

// The MDL template.
constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                    bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                    const bool enUnitFlag = false, const bool isMsgReuse = true,
                                    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false, const bool enableKdimReorderLoad = false,
                                    const bool enableL1BankConflictOptimise = false) {
    MatmulConfig c{};
    c.doMultiDataLoad = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = enUnitFlag;
    c.batchMode = BatchMode::NONE;
    c.enableReuse = isMsgReuse;
    c.enableUBReuse = enableUBReuse;
    c.enableL1CacheUB = enableL1CacheUB;
    c.enableMixDualMaster = enableMixDualMaster;
    c.enableKdimReorderLoad = enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = enableL1BankConflictOptimise;
    return c;
}

// The special MDL template.
constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                           bool isPerTensor = false, bool hasAntiQuantOffset = false) {
    MatmulConfig c{};
    c.doSpecialMDL = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.doMTE2Preload = doMTE2Preload;
    c.enVecND2NZ = isVecND2NZ;
    c.isPerTensor = isPerTensor;
    c.hasAntiQuantOffset = hasAntiQuantOffset;
    c.enUnitFlag = false;
    c.batchMode = BatchMode::NONE;
    c.enableUBReuse = true;
    return c;
}

// The basic-block template.
constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                      const bool intrinsicsLimit = false, const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
    MatmulConfig c{};
    c.doBasicBlock = true;
    c.basicM = basicM;
    c.basicN = basicN;
    c.basicK = basicK;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.batchMode = bmmMode;
    c.enUnitFlag = false;
    c.enableUBReuse = true;
    return c;
}

// The IBShare template.
constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false, const bool enUnitFlag = true) {
    MatmulConfig c{};
    c.doIBShareNorm = true;
    c.intrinsicsCheck = intrinsicsLimit;
    c.isNBatch = batchLoop;
    c.enVecND2NZ = isVecND2NZ;
    c.batchMode = bmmMode;
    c.enableDoubleCache = isDoubleCache;
    c.enUnitFlag = enUnitFlag;
    c.enableUBReuse = true;
    return c;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();

namespace AscendC {
namespace detail {
constexpr void ApplyMMConfig(MatmulConfig&) {}

template <typename... Rest>
constexpr void ApplyMMConfig(MatmulConfig& c, const MatmulShapeParams& p, const Rest&... rest) {
    c.singleCoreM = p.singleCoreM;
    c.singleCoreN = p.singleCoreN;
    c.singleCoreK = p.singleCoreK;
    c.basicM = p.basicM;
    c.basicN = p.basicN;
    c.basicK = p.basicK;
    ApplyMMConfig(c, rest...);
}

template <typename... Rest>
constexpr void ApplyMMConfig(MatmulConfig& c, const MatmulQuantParams& p, const Rest&... rest) {
    c.isPerTensor = p.isPerTensor;
    c.hasAntiQuantOffset = p.hasAntiQuantOffset;
    ApplyMMConfig(c, rest...);
}

template <typename... Rest>
constexpr void ApplyMMConfig(MatmulConfig& c, const MatmulBatchParams& p, const Rest&... rest) {
    c.isNBatch = p.isNBatch;
    c.batchMode = p.batchMode;
    c.isBiasBatch = p.isBiasBatch;
    c.bmmOutMode = p.bmmOutMode;
    ApplyMMConfig(c, rest...);
}

template <typename... Rest>
constexpr void ApplyMMConfig(MatmulConfig& c, const MatmulFuncParams& p, const Rest&... rest) {
    c.intrinsicsCheck = p.intrinsicsCheck;
    c.enVecND2NZ = p.enVecND2NZ;
    c.enableDoubleCache = p.enableDoubleCache;
    c.enableL1CacheUB = p.enableL1CacheUB;
    c.doMTE2Preload = p.doMTE2Preload;
    c.iterateOrder = p.iterateOrder;
    c.scheduleType = p.scheduleType;
    c.enableReuse = p.enableReuse;
    c.enableUBReuse = p.enableUBReuse;
    c.isPartialOutput = p.isPartialOutput;
    c.isA2B2Shared = p.isA2B2Shared;
    c.isEnableChannelSplit = p.isEnableChannelSplit;
    c.enableKdimReorderLoad = p.enableKdimReorderLoad;
    c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
    c.enableRelu = p.enableRelu;
    c.decompMode = p.decompMode;
    ApplyMMConfig(c, rest...);
}

template <typename... Rest>
constexpr void ApplyMMConfig(MatmulConfig& c, const MatmulBiasParams& p, const Rest&... rest) {
    c.enableSetBias = p.enableSetBias;
    ApplyMMConfig(c, rest...);
}
}  // namespace detail
}  // namespace AscendC

// A template (configMode) with the given parameter groups applied.
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
    MatmulConfig c = CFG_NORM;
    if constexpr (configMode == MatmulConfigMode::CONFIG_MDL) {
        c = CFG_MDL;
    } else if constexpr (configMode == MatmulConfigMode::CONFIG_SPECIALMDL) {
        c = GetSpecialMDLConfig();
    } else if constexpr (configMode == MatmulConfigMode::CONFIG_IBSHARE) {
        c = CFG_IBSHARE_NORM;
    }
    AscendC::detail::ApplyMMConfig(c, args...);
    return c;
}

// Constant tiling: the tiling fields fixed at compile time (-1: not fixed) and the config.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1;
    int32_t N = -1;
    int32_t Ka = -1;
    int32_t Kb = -1;
    int32_t singleCoreM = -1;
    int32_t singleCoreN = -1;
    int32_t singleCoreK = -1;
    int32_t baseM = -1;
    int32_t baseN = -1;
    int32_t baseK = -1;
    int32_t depthA1 = -1;
    int32_t depthB1 = -1;
    int32_t stepM = -1;
    int32_t stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1;
    int32_t shareL0CSize = -1;
    int32_t shareUbSize = -1;
    int32_t stepKa = -1;
    int32_t stepKb = -1;
    int32_t depthAL1CacheUB = -1;
    int32_t depthBL1CacheUB = -1;
    int32_t dbL0A = -1;
    int32_t dbL0B = -1;
    int32_t dbL0C = -1;
    int32_t ALayoutInfoB = -1;
    int32_t ALayoutInfoS = -1;
    int32_t ALayoutInfoN = -1;
    int32_t ALayoutInfoG = -1;
    int32_t ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1;
    int32_t BLayoutInfoS = -1;
    int32_t BLayoutInfoN = -1;
    int32_t BLayoutInfoG = -1;
    int32_t BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1;
    int32_t CLayoutInfoS1 = -1;
    int32_t CLayoutInfoN = -1;
    int32_t CLayoutInfoG = -1;
    int32_t CLayoutInfoS2 = -1;
    int32_t BatchNum = -1;
    int32_t mxTypePara = -1;
    MatmulConfig cfg = CFG_NORM;
};

namespace AscendC {
// Constant tiling for a config with constant shapes (GetMMConfig with MatmulShapeParams): the
// block sizes and shapes from the config, one block of each of A and B in L1 per K step, L0A/L0B
// double-buffered when two blocks fit. (The device's choice of stepM/N/Ka/Kb and depths may be
// larger; they change only which copies are reused, never a result.) Without constant
// single-core shapes only the blocks are fixed; SetOrgShape/SetTail give the rest.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 512 * 1024) {
    (void)l1Size;
    MatmulApiStaticTiling t;
    t.cfg = mmCFG;
    if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) {
        return t;
    }
    t.baseM = static_cast<int32_t>(mmCFG.basicM);
    t.baseN = static_cast<int32_t>(mmCFG.basicN);
    t.baseK = static_cast<int32_t>(mmCFG.basicK);
    t.isBias = mmCFG.enableSetBias ? 1 : 0;
    const int32_t l0 = 64 * 1024;
    t.dbL0A = t.baseM * t.baseK * static_cast<int32_t>(sizeof(typename A_TYPE::T)) * 2 <= l0 ? 2 : 1;
    t.dbL0B = t.baseN * t.baseK * static_cast<int32_t>(sizeof(typename B_TYPE::T)) * 2 <= l0 ? 2 : 1;
    if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) {
        return t;
    }
    t.M = t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
    t.N = t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
    t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
    t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
    t.depthA1 = t.depthB1 = 2;
    t.iterateOrder = 0;
    t.dbL0C = 1;
    t.shareMode = 0;
    t.shareL0CSize = t.baseM * t.baseN * 4;
    t.shareUbSize = 0;
    return t;
}
}  // namespace AscendC

extern "C" {
struct AscMmType {
    uint8_t pos;
    uint8_t format;
    uint8_t dtype;
    uint8_t trans;
    uint8_t layout;
    uint8_t ibShare;
    uint8_t sparse;
};
struct AscMmSpec {
    AscMmType types[4];
    uint8_t schedule;
    uint8_t iterateOrder;
    uint8_t unitFlag;
    uint8_t relu;
    uint8_t partialOutput;
    uint8_t channelSplit;
    uint8_t biasBatch;
    uint8_t policy;
    uint8_t callbacks;
};
int32_t ascendc_mm_new(const AscMmSpec* spec, void** out, AscLoc loc);
void ascendc_mm_free(void* h);
int32_t ascendc_mm_register(const void* pipe, uint8_t cubeOnly, uint32_t n, void* const* objs,
                            const AscendC::tiling::TCubeTiling* const* tilings, uint8_t* served, AscLoc loc);
int32_t ascendc_mm_init(void* h, const void* pipe, const AscendC::tiling::TCubeTiling* tiling, AscLoc loc);
int32_t ascendc_mm_set_org_shape(void* h, const int32_t* shape, AscLoc loc);
int32_t ascendc_mm_set_tail(void* h, int32_t m, int32_t n, int32_t k, AscLoc loc);
int32_t ascendc_mm_set_gm(void* h, uint8_t which, const AscGlobal* g, uint8_t elem, uint8_t trans, AscLoc loc);
int32_t ascendc_mm_set_local(void* h, uint8_t b, const AscLocal* t, uint8_t trans, AscLoc loc);
int32_t ascendc_mm_call(void* h, uint8_t what, uint64_t word, AscLoc loc);
int32_t ascendc_mm_iterate(void* h, uint8_t sync, uint8_t* more, AscLoc loc);
int32_t ascendc_mm_iterate_into(void* h, const AscLocal* l0c, uint8_t* more, AscLoc loc);
int32_t ascendc_mm_out_gm(void* h, uint8_t all, const AscGlobal* g, uint8_t elem, uint8_t atomic, uint8_t sequential,
                          AscLoc loc);
int32_t ascendc_mm_batch(void* h, uint32_t batch, const AscGlobal* g, uint8_t elem, uint32_t batchA, uint32_t batchB,
                         AscLoc loc);
int32_t ascendc_mm_out_ub(void* h, const AscLocal* ub, uint8_t sync, AscLoc loc);
}

namespace AscendC {

// One operand's type: where it lives, its layout, element type, whether it may be transposed,
// its batch layout, whether its L1 copy is shared by the vector cores, where it comes from.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
    constexpr static TPosition srcPos = SRCPOS;
};

// A 4:2 densified (sparse) B: an int8 MatmulType whose index matrix (NZ, uint8) comes with
// SetSparseIndex, from INDEX_POSITION.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};

namespace detail {
template <typename M, typename = void>
struct HasIndexPosition : std::false_type {};
template <typename M>
struct HasIndexPosition<M, std::void_t<decltype(M::indexPosition)>> : std::true_type {};
}  // namespace detail

// The accumulator (L0C) type of an input type.
template <typename T>
struct GetMmDstType {
    using Type = T;
};
template <>
struct GetMmDstType<half> {
    using Type = float;
};
template <>
struct GetMmDstType<bfloat16_t> {
    using Type = float;
};
template <>
struct GetMmDstType<int8_t> {
    using Type = int32_t;
};

// User copy functions of a Matmul (not run by the simulator: registering a Matmul given one
// warns, and the Matmul copies A and B itself).
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
    constexpr static bool custom = !(DataCopyOut == nullptr && CopyA1 == nullptr && CopyB1 == nullptr);
};

namespace Impl {
namespace Detail {
// The module policies a Matmul can be built with (the simulator's Matmul is one implementation;
// a policy names the device's module set and changes nothing here but what is refused).
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct MatmulPolicy {
    constexpr static int kind = 0;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct NBuffer33MatmulPolicy {
    constexpr static int kind = 1;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianUpperMatmulPolicy {
    constexpr static int kind = 2;
};
template <const auto& MM_CFG, typename IMPL, typename A_TYPE, typename B_TYPE, typename C_TYPE, typename BIAS_TYPE>
struct TrianLowerMatmulPolicy {
    constexpr static int kind = 3;
};
}  // namespace Detail
}  // namespace Impl

#define MATMUL_POLICY_DEFAULT_OF(DEFAULT)           \
    template <const auto& = MM_CFG, typename...> \
    class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT

namespace detail {
template <typename C>
constexpr const MatmulConfig& ConfigOf(const C& c) {
    if constexpr (std::is_same_v<C, MatmulApiStaticTiling>) {
        return c.cfg;
    } else {
        return c;
    }
}

template <typename M>
constexpr AscMmType MmTypeOf() {
    return AscMmType{static_cast<uint8_t>(M::pos),     static_cast<uint8_t>(M::format),
                     dtype<typename M::T>,             static_cast<uint8_t>(M::isTrans),
                     static_cast<uint8_t>(M::layout),  static_cast<uint8_t>(M::ibShare),
                     HasIndexPosition<M>::value ? uint8_t{1} : uint8_t{0}};
}

#ifdef ASCENDC_CUBE_ONLY
constexpr uint8_t kMatmulCubeOnly = 1;
#else
constexpr uint8_t kMatmulCubeOnly = 0;
#endif
}  // namespace detail

// The Matmul object.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
class MatmulImpl {
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;

    static AscMmSpec Spec() {
        constexpr const MatmulConfig& c = detail::ConfigOf(MM_CFG);
        AscMmSpec s{};
        s.types[0] = detail::MmTypeOf<A_TYPE>();
        s.types[1] = detail::MmTypeOf<B_TYPE>();
        s.types[2] = detail::MmTypeOf<C_TYPE>();
        s.types[3] = detail::MmTypeOf<BIAS_TYPE>();
        s.schedule = c.doNorm ? 0 : (c.doMultiDataLoad ? 1 : (c.doIBShareNorm ? 2 : 3));
        s.iterateOrder = static_cast<uint8_t>(c.iterateOrder);
        s.unitFlag = c.enUnitFlag ? 1 : 0;
        s.relu = c.enableRelu ? 1 : 0;
        s.partialOutput = c.isPartialOutput ? 1 : 0;
        s.channelSplit = c.isEnableChannelSplit ? 1 : 0;
        s.biasBatch = c.isBiasBatch ? 1 : 0;
        s.policy = static_cast<uint8_t>(MATMUL_POLICY<MM_CFG, void, A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE>::kind);
        s.callbacks = MM_CB::custom ? 1 : 0;
        return s;
    }

    void* h_ = nullptr;

public:
    // The tiling of a constant-tiling config (MM_CFG a MatmulApiStaticTiling), else null.
    static const TCubeTiling* ConstTiling() {
        if constexpr (std::is_same_v<std::decay_t<decltype(MM_CFG)>, MatmulApiStaticTiling>) {
            static const TCubeTiling t = [] {
                const int32_t* src = &MM_CFG.usedCoreNum;
                TCubeTiling out{};
                // The fields up to shareUbSize, then stepKa … mxTypePara, in TCubeTiling's order.
                int32_t* dst = &out.usedCoreNum;
                for (int i = 0; i < 22; ++i) {
                    dst[i] = src[i] < 0 ? 0 : src[i];
                }
                for (int i = 0; i < 24; ++i) {
                    dst[26 + i] = src[22 + i] < 0 ? 0 : src[22 + i];
                }
                return out;
            }();
            return t.baseM > 0 ? &t : nullptr;
        } else {
            return nullptr;
        }
    }

private:
    void* H(detail::Loc loc) {
        if (h_ == nullptr) {
            const AscMmSpec s = Spec();
            detail::Check(ascendc_mm_new(&s, &h_, loc));
        }
        return h_;
    }

    template <typename T>
    void SetGm(uint8_t which, const GlobalTensor<T>& g, bool trans, detail::Loc loc) {
        detail::Check(ascendc_mm_set_gm(H(loc), which, &g.Raw(), detail::dtype<T>, trans ? 1 : 0, loc));
    }
    template <typename T>
    void SetLocal(uint8_t b, const LocalTensor<T>& t, bool trans, detail::Loc loc) {
        LocalTensor<uint8_t> bytes = t.template ReinterpretCast<uint8_t>();
        detail::Check(ascendc_mm_set_local(H(loc), b, &bytes.Raw(), trans ? 1 : 0, loc));
    }

public:
    using AType = A_TYPE;
    using BType = B_TYPE;
    using CType = C_TYPE;
    using BiasType = BIAS_TYPE;

    MatmulImpl() = default;
    MatmulImpl(const MatmulImpl&) = delete;
    MatmulImpl& operator=(const MatmulImpl&) = delete;
    ~MatmulImpl() { ascendc_mm_free(h_); }

    // The simulator's object (REGIST_MATMUL_OBJ).
    void* Handle(detail::Loc loc = detail::Loc()) { return H(loc); }

    void Init(const TCubeTiling* cubeTiling, TPipe* tpipe = nullptr, detail::Loc loc = detail::Loc()) {
        const void* p = tpipe != nullptr ? tpipe->Handle() : detail::PipeHandle();
        detail::Check(ascendc_mm_init(H(loc), p, cubeTiling, loc));
    }
    void SetOrgShape(int orgM, int orgN, int orgK, detail::Loc loc = detail::Loc()) {
        SetOrgShape(orgM, orgN, orgK, orgK, 0, loc);
    }
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0, detail::Loc loc = detail::Loc()) {
        const int32_t s[5] = {orgM, orgN, orgKa, orgKb, orgKc};
        detail::Check(ascendc_mm_set_org_shape(H(loc), s, loc));
    }
    void SetSingleShape(int singleM, int singleN, int singleK, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_mm_set_tail(H(loc), singleM, singleN, singleK, loc));
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_mm_set_tail(H(loc), tailM, tailN, tailK, loc));
    }
    void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false, detail::Loc loc = detail::Loc()) {
        SetGm(0, gm, isTransposeA, loc);
    }
    void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false, detail::Loc loc = detail::Loc()) {
        SetGm(1, gm, isTransposeB, loc);
    }
    // A TSCM operand already in L1 (NZ): this core's whole share.
    void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false,
                    detail::Loc loc = detail::Loc()) {
        SetLocal(0, leftMatrix, isTransposeA, loc);
    }
    void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false,
                    detail::Loc loc = detail::Loc()) {
        SetLocal(1, rightMatrix, isTransposeB, loc);
    }
    void SetBias(const GlobalTensor<BiasT>& biasGlobal, detail::Loc loc = detail::Loc()) {
        SetGm(2, biasGlobal, false, loc);
    }
    void DisableBias(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_mm_call(H(loc), 0, 0, loc)); }
    void ClearBias(detail::Loc loc = detail::Loc()) { DisableBias(loc); }
    void SetQuantScalar(const uint64_t quantScalar, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_mm_call(H(loc), 1, quantScalar, loc));
    }
    void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor, detail::Loc loc = detail::Loc()) {
        SetGm(3, quantTensor, false, loc);
    }
    // The index matrix of a SparseMatmulType B (NZ: 16 rows of 8 bytes per fractal).
    void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal, detail::Loc loc = detail::Loc()) {
        SetGm(5, indexGlobal, false, loc);
    }
    template <class T>
    void SetWorkspace(GlobalTensor<T>& addr, detail::Loc loc = detail::Loc()) {
        GlobalTensor<DstT> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(addr.GetPhyAddr()), addr.GetSize() * sizeof(T) / sizeof(DstT));
        SetGm(4, g, false, loc);
    }
    template <class T>
    void SetWorkspace(__gm__ const T* addr, int size, detail::Loc loc = detail::Loc()) {
        GlobalTensor<DstT> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(const_cast<T*>(addr)), size * sizeof(T) / sizeof(DstT));
        SetGm(4, g, false, loc);
    }
    // UB temporary space of the ND2NZ-by-vector paths: not used on the simulated products.
    void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}
    void SetSubBlockIdx(uint8_t) {}
    void SetUserDefInfo(const uint64_t) {}
    void SetSelfDefineData(const uint64_t) {}
    void SetHF32(bool enableHF32 = false, int32_t transMode = 0, detail::Loc loc = detail::Loc()) {
        uint64_t word = (static_cast<uint64_t>(static_cast<uint32_t>(transMode)) << 1) | (enableHF32 ? 1u : 0u);
        detail::Check(ascendc_mm_call(H(loc), 3, word, loc));
    }

    template <bool sync = true>
    bool Iterate(bool enPartialSum = false, detail::Loc loc = detail::Loc()) {
        (void)enPartialSum;
        uint8_t more = 0;
        detail::Check(ascendc_mm_iterate(H(loc), sync ? 1 : 0, &more, loc));
        return more != 0;
    }
    // The next block into the caller's CO1 tensor (moved out by the caller's Fixpipe).
    template <bool sync = true, typename L0cT>
    bool Iterate(bool enPartialSum, const LocalTensor<L0cT>& l0cTensor, detail::Loc loc = detail::Loc()) {
        (void)enPartialSum;
        uint8_t more = 0;
        LocalTensor<uint8_t> bytes = l0cTensor.template ReinterpretCast<uint8_t>();
        detail::Check(ascendc_mm_iterate_into(H(loc), &bytes.Raw(), &more, loc));
        return more != 0;
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_mm_out_gm(H(loc), 0, &gm.Raw(), detail::dtype<DstT>, enAtomic, enSequentialWrite ? 1 : 0,
                                        loc));
    }
    template <bool sync = true>
    void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    detail::Loc loc = detail::Loc()) {
        (void)enAtomic;
        (void)enSequentialWrite;
        LocalTensor<uint8_t> bytes = co2Local.template ReinterpretCast<uint8_t>();
        detail::Check(ascendc_mm_out_ub(H(loc), &bytes.Raw(), sync ? 1 : 0, loc));
    }
    template <bool sync = true>
    void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false, detail::Loc loc = detail::Loc()) {
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        detail::Check(ascendc_mm_out_gm(H(loc), 1, &gm.Raw(), detail::dtype<DstT>, enAtomic, 0, loc));
    }
    void SetBatchNum(int32_t batchA, int32_t batchB, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_mm_batch(H(loc), 0, nullptr, 0, static_cast<uint32_t>(batchA),
                                       static_cast<uint32_t>(batchB), loc));
    }
#ifdef ASCENDC_CUBE_ONLY
    // The batches of SetBatchNum into C.
    void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum = false, uint8_t enAtomic = 0,
                      bool enSequentialWrite = false, const uint32_t matrixStrideA = 0,
                      const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0,
                      detail::Loc loc = detail::Loc()) {
        (void)enPartialSum;
        (void)enAtomic;
        (void)enSequentialWrite;
        (void)matrixStrideA;
        (void)matrixStrideB;
        (void)matrixStrideC;
        detail::Check(ascendc_mm_batch(H(loc), 1, &gm.Raw(), detail::dtype<DstT>, 0, 0, loc));
    }
#else
    // batchA A matrices times batchB B matrices into C (a mixed kernel's vector core).
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0,
                      detail::Loc loc = detail::Loc()) {
        (void)enSequentialWrite;
        (void)matrixStrideA;
        (void)matrixStrideB;
        (void)matrixStrideC;
        (void)enPartialSum;
        (void)enAtomic;
        detail::Check(ascendc_mm_batch(H(loc), 1, &gm.Raw(), detail::dtype<DstT>, batchA, batchB, loc));
    }
    void WaitIterateBatch() {}
#endif
    // batchLoop IterateBatch calls over consecutive batches into the SetWorkspace buffer.
    template <bool sync = true>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0, detail::Loc loc = detail::Loc()) {
        (void)enSequentialWrite;
        (void)matrixStrideA;
        (void)matrixStrideB;
        (void)matrixStrideC;
        detail::Check(ascendc_mm_batch(H(loc), batchLoop + 2, nullptr, detail::dtype<DstT>, batchA, batchB, loc));
    }
    // The asynchronous IterateAll finished inside its call.
    void WaitIterateAll() {}
    void End(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_mm_call(H(loc), 2, 0, loc)); }
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;

namespace detail {
inline void MatmulCollect(void**, const TCubeTiling**, uint32_t&, Loc) {}

template <class M, class... Rest>
void MatmulCollect(void** objs, const TCubeTiling** tilings, uint32_t& n, Loc loc, M& obj, const TCubeTiling* t,
                   Rest&&... rest);

template <class M>
void MatmulCollect(void** objs, const TCubeTiling** tilings, uint32_t& n, Loc loc, M& obj) {
    objs[n] = obj.Handle(loc);
    tilings[n] = obj.ConstTiling();
    ++n;
}

template <class M, class... Rest>
void MatmulCollect(void** objs, const TCubeTiling** tilings, uint32_t& n, Loc loc, M& obj, const TCubeTiling* t,
                   Rest&&... rest) {
    objs[n] = obj.Handle(loc);
    tilings[n] = t != nullptr ? t : obj.ConstTiling();
    ++n;
    MatmulCollect(objs, tilings, n, loc, rest...);
}

// REGIST_MATMUL_OBJ: true on the cube core of a mixed kernel, which has served the vector cores
// and leaves the kernel.
template <class... Args>
bool MatmulRegister(Loc loc, TPipe* pipe, GM_ADDR workspace, Args&&... args) {
    (void)workspace;
    void* objs[16] = {};
    const TCubeTiling* tilings[16] = {};
    uint32_t n = 0;
    MatmulCollect(objs, tilings, n, loc, args...);
    uint8_t served = 0;
    Check(ascendc_mm_register(pipe != nullptr ? pipe->Handle() : PipeHandle(), kMatmulCubeOnly, n, objs, tilings,
                              &served, loc));
    return served != 0;
}
}  // namespace detail
}  // namespace AscendC

// The vendor's older spelling of the namespace (`using namespace matmul;`, `matmul::GetBlockIdx()`).
namespace matmul = AscendC;

namespace AscendC {
namespace Impl {
// Depth of the queues the Matmul examples declare beside it.
constexpr int32_t QUEUE_DEPTH = 1;
}  // namespace Impl
}  // namespace AscendC

// Registers the kernel's Matmul objects (with their tilings) on the pipe; on the cube core of a
// mixed kernel it serves the vector cores and returns from the kernel.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                                           \
    if (::AscendC::detail::MatmulRegister(::AscendC::detail::Loc(__FILE__, __LINE__, 0), tpipe, workspace, \
                                          __VA_ARGS__))                                                    \
    return
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ
