// DataCopy: GM -> local, local -> GM and local -> local, level 0 (DataCopyParams) and level 2
// (element count).
#pragma once

#include "tensor.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;
    uint16_t srcStride = 0;
    uint16_t dstStride = 0;

    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
        : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
};

// ND -> NZ movement (GM -> VECIN/A1/B1).
struct Nd2NzParams {
    uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0;
    uint16_t dstNzC0Stride = 0, dstNzNStride = 0, dstNzMatrixStride = 0;

    Nd2NzParams() = default;
    Nd2NzParams(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                uint16_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn,
                uint16_t dstNzMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
};

// NZ -> ND movement (VECOUT -> GM).
struct Nz2NdParamsFull {
    uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 1, srcNStride = 0;
    uint16_t dstDStride = 0, dstNdMatrixStride = 1;

    Nz2NdParamsFull() = default;
    Nz2NdParamsFull(uint16_t ndNumIn, uint16_t nValueIn, uint16_t dValueIn, uint16_t srcNdMatrixStrideIn,
                    uint16_t srcNStrideIn, uint16_t dstDStrideIn, uint16_t dstNdMatrixStrideIn)
        : ndNum(ndNumIn), nValue(nValueIn), dValue(dValueIn), srcNdMatrixStride(srcNdMatrixStrideIn),
          srcNStride(srcNStrideIn), dstDStride(dstDStrideIn), dstNdMatrixStride(dstNdMatrixStrideIn) {}
};

// One dimension of a slice copy, in elements (burstLen of dimension 0 in 32-byte blocks).
struct SliceInfo {
    uint32_t startIndex = 0;
    uint32_t endIndex = ONE_BLK_SIZE - 1;
    uint32_t stride = 0;
    uint32_t burstLen = ONE_BLK_SIZE;
    uint32_t shapeValue = 0;

    SliceInfo() = default;
    SliceInfo(uint32_t startIndexIn, uint32_t endIndexIn, uint32_t strideIn, uint32_t burstLenIn,
              uint32_t shapeValueIn = 0)
        : startIndex(startIndexIn), endIndex(endIndexIn), stride(strideIn), burstLen(burstLenIn),
          shapeValue(shapeValueIn) {}
};

enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX,
    BLOCK_MODE_VECTOR,
    BLOCK_MODE_SMALL_CHANNEL,
    BLOCK_MODE_DEPTHWISE,
};
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class PadMode : uint8_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4 };

// On-the-fly processing of a copy (CO1 -> CO2 conversions, ReLU, block modes).
struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    DeqScale deqScale = DeqScale::DEQ_NONE;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    PadMode padMode = PadMode::PAD_NONE;
    uint64_t padValue = 0;
    uint64_t deqTensorAddr = 0;

    DataCopyEnhancedParams() = default;
    DataCopyEnhancedParams(BlockMode blockModeIn, DeqScale deqScaleIn, uint64_t deqValueIn, uint8_t sidStoreModeIn,
                           bool isReluIn, PadMode padModeIn, uint64_t padValueIn)
        : blockMode(blockModeIn), deqScale(deqScaleIn), deqValue(deqValueIn), sidStoreMode(sidStoreModeIn),
          isRelu(isReluIn), padMode(padModeIn), padValue(padValueIn) {}
};

namespace detail {

struct RawEnhanced {
    uint8_t blockMode, deqScale, sidStoreMode, isRelu, padMode;
    uint64_t deqValue, padValue, deqTensorAddr;
};

inline RawEnhanced Enhanced(const DataCopyEnhancedParams& e) {
    return {static_cast<uint8_t>(e.blockMode), static_cast<uint8_t>(e.deqScale), e.sidStoreMode, e.isRelu,
            static_cast<uint8_t>(e.padMode),   e.deqValue,                        e.padValue,     e.deqTensorAddr};
}

enum CopyDir : uint8_t { GM_TO_LOCAL = 0, LOCAL_TO_GM = 1, LOCAL_TO_LOCAL = 2 };

inline const RawCopyParams* CopyParams(const DataCopyParams& p, RawCopyParams& out) {
    out = {p.blockCount, p.blockLen, p.srcStride, p.dstStride};
    return &out;
}

}  // namespace detail

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::GM_TO_LOCAL, &dstLocal.Raw(), nullptr,
                                    nullptr, &srcGlobal.Raw(), detail::CopyParams(repeatParams, p), 0, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy_gm(detail::dtype<T>, &dstLocal.Raw(), &srcGlobal.Raw(), calCount, loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_GM, nullptr, &dstGlobal.Raw(),
                                    &srcLocal.Raw(), nullptr, detail::CopyParams(repeatParams, p), 0,
                                    loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy_gm(uint16_t(detail::dtype<T> | 256), &srcLocal.Raw(), &dstGlobal.Raw(), calCount, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
              const DataCopyParams& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_LOCAL, &dstLocal.Raw(),
                                    nullptr, &srcLocal.Raw(), nullptr,
                                    detail::CopyParams(repeatParams, p), 0, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
              const uint32_t calCount, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy(detail::dtype<T>, detail::LOCAL_TO_LOCAL, &dstLocal.Raw(),
                                    nullptr, &srcLocal.Raw(), nullptr, nullptr, calCount, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::RawEnhanced e = detail::Enhanced(enhancedParams);
    detail::Check(ascendc_data_copy_enhanced(detail::dtype<T>, detail::dtype<T>, detail::GM_TO_LOCAL, &dstLocal.Raw(),
                                             nullptr, nullptr, &srcGlobal.Raw(), detail::CopyParams(intriParams, p), &e, loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::RawEnhanced e = detail::Enhanced(enhancedParams);
    detail::Check(ascendc_data_copy_enhanced(detail::dtype<T>, detail::dtype<T>, detail::LOCAL_TO_GM, nullptr, &dstGlobal.Raw(),
                                             &srcLocal.Raw(), nullptr, detail::CopyParams(intriParams, p), &e, loc));
}

// Local -> local; from CO1 the element type may change (CO1 -> CO2 conversion).
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dstLocal, const LocalTensor<U>& srcLocal, const DataCopyParams& intriParams,
              const DataCopyEnhancedParams& enhancedParams, detail::Loc loc = detail::Loc()) {
    detail::RawCopyParams p;
    detail::RawEnhanced e = detail::Enhanced(enhancedParams);
    detail::Check(ascendc_data_copy_enhanced(detail::dtype<T>, detail::dtype<U>, detail::LOCAL_TO_LOCAL,
                                             &dstLocal.Raw(), nullptr, &srcLocal.Raw(), nullptr,
                                             detail::CopyParams(intriParams, p), &e, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const Nd2NzParams& intriParams,
              detail::Loc loc = detail::Loc()) {
    const Nd2NzParams& p = intriParams;
    uint16_t v[8] = {p.ndNum,      p.nValue,        p.dValue,       p.srcNdMatrixStride,
                     p.srcDValue,  p.dstNzC0Stride, p.dstNzNStride, p.dstNzMatrixStride};
    detail::Check(ascendc_data_copy_ex(detail::dtype<T>, 0, detail::GM_TO_LOCAL, &dstLocal.Raw(), &srcGlobal.Raw(), v, nullptr,
                                       nullptr, 0, loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const Nz2NdParamsFull& intriParams,
              detail::Loc loc = detail::Loc()) {
    const Nz2NdParamsFull& p = intriParams;
    uint16_t v[8] = {p.ndNum,      p.nValue,     p.dValue,           p.srcNdMatrixStride,
                     p.srcNStride, p.dstDStride, p.dstNdMatrixStride, 0};
    detail::Check(ascendc_data_copy_ex(detail::dtype<T>, 1, detail::LOCAL_TO_GM, &srcLocal.Raw(), &dstGlobal.Raw(), v, nullptr,
                                       nullptr, 0, loc));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dstLocal, const GlobalTensor<T>& srcGlobal, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy_ex(detail::dtype<T>, 2, detail::GM_TO_LOCAL, &dstLocal.Raw(), &srcGlobal.Raw(), nullptr,
                                       dstSliceInfo, srcSliceInfo, dimValue, loc));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dstGlobal, const LocalTensor<T>& srcLocal, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_data_copy_ex(detail::dtype<T>, 2, detail::LOCAL_TO_GM, &srcLocal.Raw(), &dstGlobal.Raw(), nullptr,
                                       dstSliceInfo, srcSliceInfo, dimValue, loc));
}

}  // namespace AscendC
