// The Mmad control bits (Atlas A2/A3/200I-500 A2): HF32 rounding of float inputs and the order
// results are produced in.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_set_hf32_mode(uint8_t enable, AscLoc loc);
int32_t ascendc_set_hf32_trans_mode(uint8_t nearestZero, AscLoc loc);
int32_t ascendc_set_mm_layout(uint8_t rowMajor, AscLoc loc);
}

namespace AscendC {

enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };

inline void SetHF32Mode(HF32Mode mode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_hf32_mode(mode == HF32Mode::ENABLE, loc));
}

// The earlier form: true enables HF32.
inline void SetHF32Mode(bool hf32Mode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_hf32_mode(hf32Mode, loc));
}

inline void SetHF32TransMode(HF32TransMode mode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_hf32_trans_mode(mode == HF32TransMode::NEAREST_ZERO, loc));
}

// The earlier form: true rounds ties away from zero (NEAREST_ZERO).
inline void SetHF32TransMode(bool hf32TransMode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_hf32_trans_mode(hf32TransMode, loc));
}

inline void SetMMRowMajor(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_set_mm_layout(1, loc)); }

inline void SetMMColumnMajor(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_set_mm_layout(0, loc)); }

// The earlier form: true is SetMMRowMajor.
inline void SetMMLayoutTransform(bool mmLayoutMode, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_set_mm_layout(mmLayoutMode, loc));
}

}  // namespace AscendC
