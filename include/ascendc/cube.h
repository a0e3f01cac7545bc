// The cube unit: LoadData (L1 -> L0A/L0B), LoadDataWithTranspose, Mmad (L0A x L0B -> L0C) and
// Fixpipe (L0C -> GM / L1), forwarding to the simulator's cube module; the other cube families
// are in the cube_*.h headers included here.
#pragma once

#include "data_copy.h"
#include "cube_broadcast.h"
#include "cube_fill.h"

// The Fixpipe conversion modes. The vendor toolchain declares this enum at global scope, so kernels
// spell it `QuantMode_t::DEQF16` without a namespace; AscendC::QuantMode_t names the same type.
enum QuantMode_t : uint8_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
};

namespace AscendC {
namespace detail {

// Layouts shared with crates/ascendc-ffi/src/cube.rs.
struct RawLoad2D {
    uint16_t startIndex;
    uint8_t repeatTimes;
    uint16_t srcStride;
    uint8_t sid;
    uint16_t dstGap;
    uint8_t ifTranspose;
    uint8_t addrMode;
};

struct RawLoadTranspose {
    uint16_t startIndex;
    uint8_t repeatTimes;
    uint16_t srcStride;
    uint16_t dstGap;
    uint16_t dstFracGap;
    uint8_t addrMode;
};

struct RawMmad {
    uint16_t m, n, k;
    uint8_t isBias, unitFlag, kDirectionAlign, cmatrixSource, cmatrixInitVal;
};

struct RawFixpipe {
    uint16_t nSize, mSize, srcStride;
    uint32_t dstStride;
    uint8_t quantPre;
    uint64_t deqScalar;
    uint16_t ndNum, srcNdStride;
    uint32_t dstNdStride;
    uint8_t reluEn, unitFlag, isChannelSplit;
};

}  // namespace detail
}  // namespace AscendC

extern "C" {
int32_t ascendc_load_data(uint8_t elem, uint8_t kind, const AscLocal* dst, const AscLocal* src, const void* params,
                          AscLoc loc);
int32_t ascendc_mmad(uint8_t dstElem, uint8_t fmElem, uint8_t filterElem, uint8_t biasElem, const AscLocal* dst,
                     const AscLocal* fm, const AscLocal* filter, const AscLocal* bias,
                     const AscendC::detail::RawMmad* params, AscLoc loc);
int32_t ascendc_fixpipe(uint8_t dstElem, uint8_t srcElem, uint8_t toGm, const AscLocal* dstL, const AscGlobal* dstG,
                        const AscLocal* src, const AscLocal* workspace, const AscendC::detail::RawFixpipe* params,
                        uint8_t form, uint8_t nz, AscLoc loc);
}

namespace AscendC {

using ::QuantMode_t;

// 512-byte fractals from L1 (A1/B1) to L0A (A2) / L0B (B2).
struct LoadData2DParams {
    uint16_t startIndex = 0;  // first source fractal
    uint8_t repeatTimes = 0;  // fractals moved, [0, 255]
    uint16_t srcStride = 0;   // source distance between fractals, in fractals
    uint8_t sid = 0;
    uint16_t dstGap = 0;      // destination gap, in fractals
    bool ifTranspose = false; // transpose each 16 x 16 fractal (16-bit types)
    uint8_t addrMode = 0;
    LoadData2DParams() = default;
    LoadData2DParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn, uint8_t sidIn,
                     uint16_t dstGapIn, bool ifTransposeIn, uint8_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), sid(sidIn),
          dstGap(dstGapIn), ifTranspose(ifTransposeIn), addrMode(addrModeIn) {}
};

// The earlier spelling.
using LoadData2dParams = LoadData2DParams;

// The Ascend 950 form: refused on every modelled product.
struct LoadData2DParamsV2 {
    uint32_t mStartPosition = 0, kStartPosition = 0;
    uint16_t mStep = 0, kStep = 0;
    int32_t srcStride = 0;
    uint16_t dstStride = 0;
    bool ifTranspose = false;
    uint8_t sid = 0;
    LoadData2DParamsV2() = default;
    LoadData2DParamsV2(uint32_t mStartPositionIn, uint32_t kStartPositionIn, uint16_t mStepIn, uint16_t kStepIn,
                       int32_t srcStrideIn, uint16_t dstStrideIn, bool ifTransposeIn, uint8_t sidIn)
        : mStartPosition(mStartPositionIn), kStartPosition(kStartPositionIn), mStep(mStepIn), kStep(kStepIn),
          srcStride(srcStrideIn), dstStride(dstStrideIn), ifTranspose(ifTransposeIn), sid(sidIn) {}
};

struct LoadData2dTransposeParams {
    uint16_t startIndex = 0;  // first source square
    uint8_t repeatTimes = 0;  // squares moved
    uint16_t srcStride = 0;   // source distance between squares, in squares
    uint16_t dstGap = 0;      // destination gap after a square's first fractal, in fractals
    uint16_t dstFracGap = 0;  // gap between the fractals of one square, in fractals
    uint8_t addrMode = 0;
    LoadData2dTransposeParams() = default;
    LoadData2dTransposeParams(uint16_t startIndexIn, uint8_t repeatTimesIn, uint16_t srcStrideIn,
                              uint16_t dstGapIn, uint16_t dstFracGapIn, uint8_t addrModeIn = 0)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
};

struct MmadParams {
    uint16_t m = 0, n = 0, k = 0;
    bool isBias = false;
    int32_t fmOffset = 0;
    bool enSsparse = false, enWinogradA = false, enWinogradB = false;
    uint8_t unitFlag = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool cmatrixInitVal = true;
    MmadParams() = default;
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, bool isBiasIn, int32_t fmOffsetIn = 0,
               bool enSsparseIn = false, bool enWinogradAIn = false, bool enWinogradBIn = false)
        : m(mIn), n(nIn), k(kIn), isBias(isBiasIn), fmOffset(fmOffsetIn), enSsparse(enSsparseIn),
          enWinogradA(enWinogradAIn), enWinogradB(enWinogradBIn) {}
    MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixSourceIn,
               bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixSource(cmatrixSourceIn),
          cmatrixInitVal(cmatrixInitValIn) {}
};

// FixpipeParamsV220: the constructors in the vendor's order (reluEn before the quantisation
// fields). FixpipeParamsM300 (Atlas 200I/500 A2) is the same type, as in the vendor headers; the
// simulator applies the running product's rules.
struct FixpipeParamsV220 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    bool isChannelSplit = false;
    FixpipeParamsV220() = default;
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
    FixpipeParamsV220(uint16_t nSizeIn, uint16_t mSizeIn, uint16_t srcStrideIn, uint32_t dstStrideIn, bool reluEnIn,
                      QuantMode_t quantPreIn, int64_t deqScalarIn, uint16_t ndNumIn, uint16_t srcNdStrideIn,
                      uint16_t dstNdStrideIn, uint8_t unitFlagIn, bool isChannelSplitIn = false)
        : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), quantPre(quantPreIn),
          deqScalar(uint64_t(deqScalarIn)), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          reluEn(reluEnIn), unitFlag(unitFlagIn), isChannelSplit(isChannelSplitIn) {}
};
using FixpipeParamsM300 = FixpipeParamsV220;

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeConfig {
    CO2Layout format;
};

inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawLoad2D r{p.startIndex, p.repeatTimes, p.srcStride, p.sid, p.dstGap, uint8_t(p.ifTranspose), p.addrMode};
    detail::Check(ascendc_load_data(detail::dtype<T>, 0, &dst.Raw(), &src.Raw(), &r, loc));
}

template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParamsV2&,
              detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_load_data(detail::dtype<T>, 1, &dst.Raw(), &src.Raw(), nullptr, loc));
}

template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p,
                           detail::Loc loc = detail::Loc()) {
    detail::RawLoadTranspose r{p.startIndex, p.repeatTimes, p.srcStride, p.dstGap, p.dstFracGap, p.addrMode};
    detail::Check(ascendc_load_data(detail::dtype<T>, 2, &dst.Raw(), &src.Raw(), &r, loc));
}

namespace detail {
inline RawMmad Mmad(const MmadParams& p) {
    return {p.m, p.n, p.k, uint8_t(p.isBias), p.unitFlag, uint8_t(p.kDirectionAlign), uint8_t(p.cmatrixSource),
            uint8_t(p.cmatrixInitVal)};
}
inline RawFixpipe Fixpipe(const FixpipeParamsV220& p) {
    return {p.nSize, p.mSize, p.srcStride, p.dstStride, uint8_t(p.quantPre), p.deqScalar, p.ndNum,
            p.srcNdStride, p.dstNdStride, uint8_t(p.reluEn), p.unitFlag, uint8_t(p.isChannelSplit)};
}
// `form` of ascendc_fixpipe: the parameter structure the running product takes.
constexpr uint8_t FIXPIPE_PRODUCT_FORM = 2;
}  // namespace detail

template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p,
          detail::Loc loc = detail::Loc()) {
    detail::RawMmad r = detail::Mmad(p);
    detail::Check(ascendc_mmad(detail::dtype<T>, detail::dtype<U>, detail::dtype<S>, 0, &dst.Raw(), &fm.Raw(),
                               &filter.Raw(), nullptr, &r, loc));
}

template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& p, detail::Loc loc = detail::Loc()) {
    detail::RawMmad r = detail::Mmad(p);
    detail::Check(ascendc_mmad(detail::dtype<T>, detail::dtype<U>, detail::dtype<S>, detail::dtype<V>, &dst.Raw(),
                               &fm.Raw(), &filter.Raw(), &bias.Raw(), &r, loc));
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
             detail::Loc loc = detail::Loc()) {
    detail::RawFixpipe r = detail::Fixpipe(p);
    detail::RawGlobal g = dst.Raw();
    detail::Check(ascendc_fixpipe(detail::dtype<T>, detail::dtype<U>, 1, nullptr, &g, &src.Raw(), nullptr, &r,
                                  detail::FIXPIPE_PRODUCT_FORM, config.format == CO2Layout::NZ, loc));
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& p, detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<S, uint64_t>::value, "the quantisation workspace holds uint64_t words");
    detail::RawFixpipe r = detail::Fixpipe(p);
    detail::RawGlobal g = dst.Raw();
    detail::Check(ascendc_fixpipe(detail::dtype<T>, detail::dtype<U>, 1, nullptr, &g, &src.Raw(),
                                  &cbufWorkspace.Raw(), &r, detail::FIXPIPE_PRODUCT_FORM,
                                  config.format == CO2Layout::NZ, loc));
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p,
             detail::Loc loc = detail::Loc()) {
    detail::RawFixpipe r = detail::Fixpipe(p);
    detail::Check(ascendc_fixpipe(detail::dtype<T>, detail::dtype<U>, 0, &dst.Raw(), nullptr, &src.Raw(), nullptr,
                                  &r, detail::FIXPIPE_PRODUCT_FORM, config.format == CO2Layout::NZ, loc));
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR, typename S = uint64_t>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src, const LocalTensor<S>& cbufWorkspace,
             const FixpipeParamsV220& p, detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<S, uint64_t>::value, "the quantisation workspace holds uint64_t words");
    detail::RawFixpipe r = detail::Fixpipe(p);
    detail::Check(ascendc_fixpipe(detail::dtype<T>, detail::dtype<U>, 0, &dst.Raw(), nullptr, &src.Raw(),
                                  &cbufWorkspace.Raw(), &r, detail::FIXPIPE_PRODUCT_FORM,
                                  config.format == CO2Layout::NZ, loc));
}

}  // namespace AscendC

#include "cube_copy_out.h"
#include "cube_load3d.h"
#include "cube_load_gm.h"
#include "cube_mode.h"
#include "cube_sparse.h"
