// LoadData for convolution (image to column, L1 -> L0A/L0B) with LoadData3DParamsV2 /
// LoadData3DParamsV2Pro (and V1, refused by the simulator), and its registers: SetFmatrix,
// SetLoadDataPaddingValue, SetLoadDataRepeat, SetLoadDataBoundary.
#pragma once

#include <cstring>

#include "tensor.h"

namespace AscendC {
namespace detail {

// Layout shared with crates/ascendc-ffi/src/cube/load3d.rs.
struct RawLoad3D {
    uint8_t padList[4];
    uint16_t l1H, l1W, channelSize, kExtension, mExtension, kStartPt, mStartPt;
    uint8_t strideW, strideH, filterW, filterH, dilationFilterW, dilationFilterH;
    uint8_t enTranspose, enSmallK, filterSizeW, filterSizeH, fMatrixCtrl, isSetFMatrix, isSetPadding;
    uint64_t padValue, extConfig, filterConfig;
};

template <typename T>
uint64_t Bits(const T& v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}

}  // namespace detail
}  // namespace AscendC

extern "C" {
int32_t ascendc_load_data_3d(uint8_t elem, uint8_t kind, const AscLocal* dst, const AscLocal* src,
                             const AscendC::detail::RawLoad3D* params, AscLoc loc);
int32_t ascendc_set_fmatrix(uint16_t l1H, uint16_t l1W, const uint8_t* padList, uint8_t mode, AscLoc loc);
int32_t ascendc_set_load_data_boundary(uint32_t boundary, AscLoc loc);
int32_t ascendc_set_load_data_repeat(uint16_t repeatStride, uint8_t repeatTime, uint8_t repeatMode, AscLoc loc);
int32_t ascendc_set_load_data_padding_value(uint8_t elem, const void* value, AscLoc loc);
}

namespace AscendC {

constexpr int32_t PAD_SIZE = 4;

struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;  // the load sets l1H, l1W and padList itself
    bool isSetPadding = true;  // the load sets the pad value itself
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

enum class FmatrixMode : uint8_t {
    FMATRIX_LEFT = 0,
    FMATRIX_RIGHT = 1,
};

struct LoadDataRepeatParam {
    uint16_t repeatStride = 0;  // 16 rows (mode 0) or 32 bytes (mode 1) between iterations
    uint8_t repeatTime = 1;
    uint8_t repeatMode = 0;     // 0 along M, 1 along K
    uint8_t reserved = 0;
    LoadDataRepeatParam() = default;
    LoadDataRepeatParam(uint16_t repeatStrideIn, uint8_t repeatTimeIn, uint8_t repeatModeIn)
        : repeatStride(repeatStrideIn), repeatTime(repeatTimeIn), repeatMode(repeatModeIn) {}
};

template <typename T>
struct LoadData3DParamsV1 {
    uint8_t padList[PAD_SIZE] = {0};
    uint8_t strideW = 0, strideH = 0, filterW = 0, filterH = 0, dilationFilterW = 0, dilationFilterH = 0;
    uint8_t jumpStride = 0, repeatMode = 0, repeatTime = 0, cSize = 0;
    T padValue = 0;
    uint8_t fetchFilterW = 0, fetchFilterH = 0;
    uint16_t l1H = 0, l1W = 0, c1Index = 0;
    int16_t leftTopW = 0, leftTopH = 0;
    LoadData3DParamsV1() = default;
    LoadData3DParamsV1(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn, uint16_t c1IndexIn,
                       uint8_t fetchFilterWIn, uint8_t fetchFilterHIn, int16_t leftTopWIn, int16_t leftTopHIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, uint8_t jumpStrideIn,
                       uint8_t repeatModeIn, uint8_t repeatTimeIn, uint8_t cSizeIn, T padValueIn)
        : strideW(strideWIn), strideH(strideHIn), filterW(filterWIn), filterH(filterHIn),
          dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn), jumpStride(jumpStrideIn),
          repeatMode(repeatModeIn), repeatTime(repeatTimeIn), cSize(cSizeIn), padValue(padValueIn),
          fetchFilterW(fetchFilterWIn), fetchFilterH(fetchFilterHIn), l1H(l1HIn), l1W(l1WIn), c1Index(c1IndexIn),
          leftTopW(leftTopWIn), leftTopH(leftTopHIn) {
        for (int32_t i = 0; i < PAD_SIZE; i++) padList[i] = padListIn[i];
    }
};

template <typename T>
struct LoadData3DParamsV2 {
    uint8_t padList[PAD_SIZE] = {0};  // left, right, top, bottom
    uint16_t l1H = 0, l1W = 0, channelSize = 0, kExtension = 0, mExtension = 0, kStartPt = 0, mStartPt = 0;
    uint8_t strideW = 1, strideH = 1, filterW = 1, filterH = 1, dilationFilterW = 1, dilationFilterH = 1;
    bool enTranspose = false, enSmallK = false;
    T padValue = 0;
    bool filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
    LoadData3DParamsV2() = default;
    LoadData3DParamsV2(const uint8_t padListIn[PAD_SIZE], uint16_t l1HIn, uint16_t l1WIn, uint16_t channelSizeIn,
                       uint16_t kExtensionIn, uint16_t mExtensionIn, uint16_t kStartPtIn, uint16_t mStartPtIn,
                       uint8_t strideWIn, uint8_t strideHIn, uint8_t filterWIn, uint8_t filterHIn,
                       uint8_t dilationFilterWIn, uint8_t dilationFilterHIn, bool enTransposeIn, bool enSmallKIn,
                       T padValueIn, bool filterSizeWIn = false, bool filterSizeHIn = false,
                       bool fMatrixCtrlIn = false)
        : l1H(l1HIn), l1W(l1WIn), channelSize(channelSizeIn), kExtension(kExtensionIn), mExtension(mExtensionIn),
          kStartPt(kStartPtIn), mStartPt(mStartPtIn), strideW(strideWIn), strideH(strideHIn), filterW(filterWIn),
          filterH(filterHIn), dilationFilterW(dilationFilterWIn), dilationFilterH(dilationFilterHIn),
          enTranspose(enTransposeIn), enSmallK(enSmallKIn), padValue(padValueIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn) {
        for (int32_t i = 0; i < PAD_SIZE; i++) padList[i] = padListIn[i];
    }
};

struct LoadData3DParamsV2Pro {
    uint16_t channelSize = 0;
    bool enTranspose = false, enSmallK = false, filterSizeW = false, filterSizeH = false, fMatrixCtrl = false;
    uint64_t extConfig = 0;                  // mStartPt << 48 | kStartPt << 32 | mExtension << 16 | kExtension
    uint64_t filterConfig = 0X10101010101;   // dilH << 40 | dilW << 32 | filterH << 24 | filterW << 16 | strideH << 8 | strideW
    LoadData3DParamsV2Pro() = default;
    LoadData3DParamsV2Pro(uint16_t channelSizeIn, bool enTransposeIn, bool enSmallKIn, bool filterSizeWIn,
                          bool filterSizeHIn, bool fMatrixCtrlIn, uint64_t extConfigIn, uint64_t filterConfigIn)
        : channelSize(channelSizeIn), enTranspose(enTransposeIn), enSmallK(enSmallKIn), filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn), fMatrixCtrl(fMatrixCtrlIn), extConfig(extConfigIn),
          filterConfig(filterConfigIn) {}
};

template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2<U>& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawLoad3D r{};
    for (int32_t i = 0; i < PAD_SIZE; i++) r.padList[i] = p.padList[i];
    r.l1H = p.l1H;
    r.l1W = p.l1W;
    r.channelSize = p.channelSize;
    r.kExtension = p.kExtension;
    r.mExtension = p.mExtension;
    r.kStartPt = p.kStartPt;
    r.mStartPt = p.mStartPt;
    r.strideW = p.strideW;
    r.strideH = p.strideH;
    r.filterW = p.filterW;
    r.filterH = p.filterH;
    r.dilationFilterW = p.dilationFilterW;
    r.dilationFilterH = p.dilationFilterH;
    r.enTranspose = p.enTranspose;
    r.enSmallK = p.enSmallK;
    r.filterSizeW = p.filterSizeW;
    r.filterSizeH = p.filterSizeH;
    r.fMatrixCtrl = p.fMatrixCtrl;
    r.isSetFMatrix = defaultConfig.isSetFMatrix;
    r.isSetPadding = defaultConfig.isSetPadding;
    r.padValue = detail::Bits(p.padValue);
    detail::Check(ascendc_load_data_3d(detail::dtype<T>, 2, &dst.Raw(), &src.Raw(), &r, loc));
}

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV2Pro& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawLoad3D r{};
    r.channelSize = p.channelSize;
    r.enTranspose = p.enTranspose;
    r.enSmallK = p.enSmallK;
    r.filterSizeW = p.filterSizeW;
    r.filterSizeH = p.filterSizeH;
    r.fMatrixCtrl = p.fMatrixCtrl;
    r.extConfig = p.extConfig;
    r.filterConfig = p.filterConfig;
    detail::Check(ascendc_load_data_3d(detail::dtype<T>, 3, &dst.Raw(), &src.Raw(), &r, loc));
}

// Refused by the simulator with the reason.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T,
          typename std::enable_if<std::is_same<T, U>::value, bool>::type = true>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData3DParamsV1<U>& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawLoad3D r{};
    r.isSetFMatrix = defaultConfig.isSetFMatrix;
    r.isSetPadding = defaultConfig.isSetPadding;
    r.padValue = detail::Bits(p.padValue);
    detail::Check(ascendc_load_data_3d(detail::dtype<T>, 1, &dst.Raw(), &src.Raw(), &r, loc));
}

inline void SetFmatrix(uint16_t l1H, uint16_t l1W, const uint8_t padList[4], const FmatrixMode& fmatrixMode,
                       detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fmatrix(l1H, l1W, padList, uint8_t(fmatrixMode), loc));
}

inline void SetLoadDataBoundary(uint32_t boundaryValue, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_load_data_boundary(boundaryValue, loc));
}

inline void SetLoadDataRepeat(const LoadDataRepeatParam& repeatParams, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_load_data_repeat(repeatParams.repeatStride, repeatParams.repeatTime,
                                               repeatParams.repeatMode, loc));
}

template <typename T>
void SetLoadDataPaddingValue(const T padValue, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_load_data_padding_value(detail::dtype<T>, &padValue, loc));
}

}  // namespace AscendC
