// Data-layout instructions: Transpose (16×16 two-byte blocks, NCHW <-> NHWC) and TransDataTo5HD
// (sixteen 32-byte blocks transposed element by element, the NCHW -> NC1HWC0 step).
#pragma once

#include "vec.h"

namespace AscendC {
namespace detail {

struct RawTransposeParams {
    uint16_t n, c, h, w;
    uint8_t type;
};

struct RawTransData {
    uint8_t dstHighHalf, srcHighHalf, repeatTimes;
    uint16_t dstRepStride, srcRepStride;
};

}  // namespace detail
}  // namespace AscendC

extern "C" {
int32_t ascendc_transpose(uint8_t elem, const AscLocal* dst, const AscLocal* src, AscLoc loc);
int32_t ascendc_transpose_ext(uint8_t elem, const AscLocal* dst, const AscLocal* src, const AscLocal* tmp,
                              const AscendC::detail::RawTransposeParams* params, AscLoc loc);
int32_t ascendc_trans_data_to_5hd(uint8_t elem, const AscLocal* dst, const AscLocal* src,
                                  AscendC::detail::RawTransData params, AscLoc loc);
int32_t ascendc_trans_data_to_5hd_addr(uint8_t elem, const uint64_t* dst, const uint64_t* src,
                                       AscendC::detail::RawTransData params, AscLoc loc);
int32_t ascendc_trans_data_to_5hd_addr_tensor(uint8_t elem, const AscLocal* dst, const AscLocal* src,
                                              AscendC::detail::RawTransData params, AscLoc loc);
}

namespace AscendC {

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
    TRANSPOSE_ND2ND_021,        // the high-level Transpose's scenes 13-16 (Ascend 950 only)
    TRANSPOSE_ND2ND_102,
    TRANSPOSE_ND2ND_210,
    TRANSPOSE_ND2NZ_WITH_INTLV
};

// Axis lengths in elements and the kind of transpose.
struct TransposeParamsExt {
    TransposeParamsExt() = default;
    TransposeParamsExt(uint16_t nSizeIn, uint16_t cSizeIn, uint16_t hSizeIn, uint16_t wSizeIn,
                       TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

// Repeat count and per-repeat strides (32-byte blocks) of TransDataTo5HD; the high-half flags
// apply to 1-byte types only.
struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(bool dstHighHalfIn, bool srcHighHalfIn, uint8_t repeatTimesIn, uint16_t dstRepStrideIn,
                         uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn),
          srcHighHalf(srcHighHalfIn),
          repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

namespace detail {
inline RawTransData Raw5HD(const TransDataTo5HDParams& p) {
    return {uint8_t(p.dstHighHalf ? 1 : 0), uint8_t(p.srcHighHalf ? 1 : 0), p.repeatTimes, p.dstRepStride,
            p.srcRepStride};
}
}  // namespace detail

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_transpose(detail::dtype<T>, &dst.Raw(), &src.Raw(), loc));
}

template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& transposeParams, detail::Loc loc = detail::Loc()) {
    detail::RawTransposeParams p{transposeParams.nSize, transposeParams.cSize, transposeParams.hSize,
                                 transposeParams.wSize, static_cast<uint8_t>(transposeParams.transposeType)};
    detail::Check(ascendc_transpose_ext(detail::dtype<T>, &dst.Raw(), &src.Raw(), &sharedTmpBuffer.Raw(), &p, loc));
}

// dstList / srcList: UB addresses, as (uint64_t)tensor.GetPhyAddr() gives them.
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, detail::Loc loc = detail::Loc()) {
    detail::Check(
        ascendc_trans_data_to_5hd_addr(detail::dtype<T>, dstList, srcList, detail::Raw5HD(nchwconvParams), loc));
}

// dst / src: uint64_t tensors holding the 16 addresses each.
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_trans_data_to_5hd_addr_tensor(detail::dtype<T>, &dst.Raw(), &src.Raw(),
                                                        detail::Raw5HD(nchwconvParams), loc));
}

template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams, detail::Loc loc = detail::Loc()) {
    detail::RawLocal d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int32_t i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = dstList[i].Raw();
        s[i] = srcList[i].Raw();
    }
    detail::Check(ascendc_trans_data_to_5hd(detail::dtype<T>, d, s, detail::Raw5HD(nchwconvParams), loc));
}

}  // namespace AscendC
