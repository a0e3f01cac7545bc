// High-level API, tensor transforms (张量变换): TransData (int16_t, uint16_t, half, bfloat16_t;
// A2, A3): NCDHW <-> NDC1HWC0 and NCDHW <-> FRACTAL_Z_3D in UB, the shapes given as Layouts.
#pragma once

#include <cstdint>
#include <tuple>

#include "../layout.h"
#include "common.h"

namespace AscendC {
#ifndef ASCC_PARAM_TRANSDATACONFIG
#define ASCC_PARAM_TRANSDATACONFIG
// The conversion TransData makes.
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
#endif  // ASCC_PARAM_TRANSDATACONFIG

// The shapes of TransData's operands: two Layouts (their strides are not used).
template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
}  // namespace AscendC

extern "C" {
int32_t ascendc_adv_trans_data(uint8_t elem, uint8_t srcFormat, uint8_t dstFormat, const AscLocal* dst,
                               const AscLocal* src, const AscLocal* tmp, const void* pipe, const int64_t* srcDims,
                               uint32_t srcRank, const int64_t* dstDims, uint32_t dstRank, AscLoc loc);
}

namespace AscendC {
namespace detail {
// The dimensions of a flat Shape as int64_t.
template <typename ShapeType>
struct TransDataDims {
    static constexpr uint32_t rank = std::tuple_size<ShapeType>::value;
    int64_t v[rank == 0 ? 1 : rank] = {};
    explicit TransDataDims(const ShapeType& s) {
        std::apply([this](const auto&... e) {
            uint32_t i = 0;
            ((v[i++] = static_cast<int64_t>(e)), ...);
        }, s);
    }
};

template <const TransDataConfig& config, typename T, typename U, typename S>
void TransDataCall(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                   const TransDataParams<U, S>& params, Loc loc) {
    static_assert(is_layout_v<U>, "srcLayout must be a layout");
    static_assert(is_layout_v<S>, "dstLayout must be a layout");
    using SrcShape = std::remove_cv_t<std::remove_reference_t<decltype(params.srcLayout.GetShape())>>;
    using DstShape = std::remove_cv_t<std::remove_reference_t<decltype(params.dstLayout.GetShape())>>;
    TransDataDims<SrcShape> s(params.srcLayout.GetShape());
    TransDataDims<DstShape> d(params.dstLayout.GetShape());
    Check(ascendc_adv_trans_data(dtype<T>, static_cast<uint8_t>(config.srcFormat),
                                 static_cast<uint8_t>(config.dstFormat), &dst.Raw(), &src.Raw(),
                                 tmp != nullptr ? &tmp->Raw() : nullptr, PipeHandle(), s.v, s.rank, d.v, d.rank, loc));
}
}  // namespace detail

// Converts srcTensor (layout config.srcFormat, shape params.srcLayout) into dstTensor (layout
// config.dstFormat, shape params.dstLayout). NCDHW rows of H*W are padded to 32 bytes in UB (the
// caller pads an input; an output's padding is undefined); the Layouts give the unpadded shape.
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
               const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params,
               detail::Loc loc = detail::Loc()) {
    detail::TransDataCall<config>(dstTensor, srcTensor, &sharedTmpBuffer, params, loc);
}

// As above, the temporary space being the UB the pipe has not given out.
template <const TransDataConfig& config, typename T, typename U, typename S>
void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const TransDataParams<U, S>& params,
               detail::Loc loc = detail::Loc()) {
    detail::TransDataCall<config>(dstTensor, srcTensor, nullptr, params, loc);
}
}  // namespace AscendC
