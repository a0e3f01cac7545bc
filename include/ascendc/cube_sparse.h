// 4:2 structured sparsity (Atlas A2/A3): LoadDataWithSparse (densified B and its index matrix,
// L1 -> L0B and the index buffer) and MmadWithSparse.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_load_data_with_sparse(uint8_t elem, uint8_t idxElem, const AscLocal* dst, const AscLocal* src,
                                      const AscLocal* idx, const void* params, AscLoc loc);
int32_t ascendc_mmad_with_sparse(uint8_t dstElem, uint8_t elem, const AscLocal* dst, const AscLocal* fm,
                                 const AscLocal* filter, const void* params, AscLoc loc);
}

namespace AscendC {

// dst (CO1, int32_t) = fm (A2, int8_t, m x k) x filter (B2, the densified k/2 x n int8_t matrix),
// A's columns picked by the index matrix LoadDataWithSparse loaded.
template <typename T = int32_t, typename U = int8_t>
void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                    const MmadParams& p, detail::Loc loc = detail::Loc()) {
    detail::RawMmad r = detail::Mmad(p);
    detail::Check(ascendc_mmad_with_sparse(detail::dtype<T>, detail::dtype<U>, &dst.Raw(), &fm.Raw(), &filter.Raw(),
                                           &r, loc));
}

// Fractals startIndex .. startIndex + repeatTimes of src (B1) to dst (B2), and the 128-byte index
// fractals of idx (B1) to the index buffer.
template <typename T = int8_t, typename U = uint8_t>
void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<U>& idx,
                        const LoadData2DParams& p, detail::Loc loc = detail::Loc()) {
    detail::RawLoad2D r{p.startIndex, p.repeatTimes, p.srcStride, p.sid, p.dstGap, uint8_t(p.ifTranspose), p.addrMode};
    detail::Check(ascendc_load_data_with_sparse(detail::dtype<T>, detail::dtype<U>, &dst.Raw(), &src.Raw(),
                                                &idx.Raw(), &r, loc));
}

}  // namespace AscendC
