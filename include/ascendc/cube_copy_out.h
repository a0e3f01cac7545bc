// DataCopy of L0C results (CO1 -> GM, CO1 -> L1) with DataCopyCO12DstParams, and the Fixpipe
// registers it reads: SetFixpipePreQuantFlag, SetFixPipeConfig, SetFixpipeNz2ndFlag and, on the
// Atlas 200I/500 A2, SetFixPipeClipRelu and SetFixPipeAddr.
#pragma once

#include "tensor.h"

namespace AscendC {
namespace detail {

// Layout shared with crates/ascendc-ffi/src/cube/copy_out.rs.
struct RawCo12Dst {
    uint8_t sid;
    uint16_t nSize, mSize;
    uint32_t dstStride;
    uint16_t srcStride;
    uint8_t unitFlag, clipReluPre, eltWiseOp, quantPre, reluPre, channelSplit, nz2ndEn;
};

}  // namespace detail
}  // namespace AscendC

extern "C" {
int32_t ascendc_set_fixpipe_pre_quant_flag(uint64_t config, AscLoc loc);
int32_t ascendc_set_fixpipe_nz2nd_flag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride, AscLoc loc);
int32_t ascendc_set_fix_pipe_config(uint8_t elem, const AscLocal* relu, const AscLocal* quant, uint8_t setRelu,
                                    uint8_t isUnitFlag, AscLoc loc);
int32_t ascendc_set_fix_pipe_clip_relu(uint64_t config, AscLoc loc);
int32_t ascendc_set_fix_pipe_addr(uint8_t elem, const AscLocal* eleWise, uint16_t c0ChStride, AscLoc loc);
int32_t ascendc_data_copy_co1(uint8_t dstElem, uint8_t srcElem, uint8_t toGm, const AscLocal* dstL,
                              const AscGlobal* dstG, const AscLocal* src, const AscendC::detail::RawCo12Dst* params,
                              AscLoc loc);
}

namespace AscendC {

struct DataCopyCO12DstParams {
    uint8_t sid = 0;
    uint16_t nSize = 0;        // columns (N)
    uint16_t mSize = 0;        // rows (M)
    uint32_t dstStride = 0;    // NZ: 32-byte blocks between column groups; ND: elements per row
    uint16_t srcStride = 0;    // source column-group distance, in C0_Size (16 elements)
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;   // Atlas 200I/500 A2: 1 ClipReLU (SetFixPipeClipRelu)
    uint8_t eltWiseOp = 0;     // Atlas 200I/500 A2: 1 add, 2 subtract (SetFixPipeAddr)
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;       // 1: ReLU
    bool channelSplit = false;
    bool nz2ndEn = false;      // NZ -> ND with the SetFixpipeNz2ndFlag parameters
    DataCopyCO12DstParams() = default;
    DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn, uint16_t srcStrideIn,
                          QuantMode_t quantPreIn, uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
        : nSize(nSizeIn), mSize(mSizeIn), dstStride(dstStrideIn), srcStride(srcStrideIn), quantPre(quantPreIn),
          reluPre(reluPreIn), channelSplit(channelSplitIn), nz2ndEn(nz2ndEnIn) {}
};

namespace detail {
inline RawCo12Dst Co12Dst(const DataCopyCO12DstParams& p) {
    return {p.sid,       p.nSize,        p.mSize,           p.dstStride,    p.srcStride,
            p.unitFlag,  p.clipReluPre,  p.eltWiseOp,       uint8_t(p.quantPre), p.reluPre,
            uint8_t(p.channelSplit), uint8_t(p.nz2ndEn)};
}
}  // namespace detail

// L0C (CO1) -> GM.
template <typename T, typename U>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawCo12Dst r = detail::Co12Dst(p);
    detail::RawGlobal g = dst.Raw();
    detail::Check(ascendc_data_copy_co1(detail::dtype<T>, detail::dtype<U>, 1, nullptr, &g, &src.Raw(), &r, loc));
}

// L0C (CO1) -> L1 (A1/B1/C1), NZ.
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p,
              detail::Loc loc = detail::Loc()) {
    detail::RawCo12Dst r = detail::Co12Dst(p);
    detail::Check(ascendc_data_copy_co1(detail::dtype<T>, detail::dtype<U>, 0, &dst.Raw(), nullptr, &src.Raw(), &r,
                                        loc));
}

inline void SetFixpipePreQuantFlag(uint64_t config, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fixpipe_pre_quant_flag(config, loc));
}

inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride,
                                detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fixpipe_nz2nd_flag(ndNum, srcNdStride, dstNdStride, loc));
}

// The quantisation tensor (C2PIPE2GM, uint64_t); a CO1 tensor with isUnitFlag only resets the
// L0C unit flags.
template <typename T, bool setRelu = false>
void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fix_pipe_config(detail::dtype<T>, nullptr, &preData.Raw(), uint8_t(setRelu),
                                              uint8_t(isUnitFlag), loc));
}

template <typename T>
void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false,
                      detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fix_pipe_config(detail::dtype<T>, &reluPre.Raw(), &quantPre.Raw(), 0,
                                              uint8_t(isUnitFlag), loc));
}

inline void SetFixPipeClipRelu(uint64_t config, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fix_pipe_clip_relu(config, loc));
}

template <typename T>
void SetFixPipeAddr(const LocalTensor<T>& eleWiseData, uint16_t c0ChStride, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_fix_pipe_addr(detail::dtype<T>, &eleWiseData.Raw(), c0ChStride, loc));
}

}  // namespace AscendC
