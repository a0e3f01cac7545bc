// The CTRL register (SetCtrlSpr / GetCtrlSpr; CTRL[48] on A2/A3: 0 = fp16/bfloat16 saturation,
// 1 = Inf/NaN kept), the saturation modes (SetSaturationFlag<mode> / GetSaturationFlag<mode>)
// and the store-atomic configuration (SetStoreAtomicConfig / GetStoreAtomicConfig), which is
// the state of SetAtomicAdd / DisableDmaAtomic as codes.
#pragma once

#include "types.h"

extern "C" {
int32_t ascendc_ctrl_spr(uint8_t op, int8_t startBit, int8_t endBit, int64_t* value, AscLoc loc);
int32_t ascendc_saturation(uint8_t op, uint8_t mode, uint8_t* flag, AscLoc loc);
int32_t ascendc_store_atomic(uint8_t op, uint16_t* type, uint16_t* atomicOp, AscLoc loc);
int32_t ascendc_set_overflow(uint64_t ctrlValue, AscLoc loc);
}

namespace AscendC {

// Writes value into CTRL[endBit:startBit] (bits 0-63; A2/A3 have bit 48 only).
template <int8_t startBit, int8_t endBit>
void SetCtrlSpr(int64_t value, detail::Loc loc = detail::Loc()) {
    static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit, "CTRL bit range: 0 <= startBit <= endBit <= 63");
    detail::Check(ascendc_ctrl_spr(0, startBit, endBit, &value, loc));
}

// The value of CTRL[endBit:startBit].
template <int8_t startBit, int8_t endBit>
int64_t GetCtrlSpr(detail::Loc loc = detail::Loc()) {
    static_assert(startBit >= 0 && endBit <= 63 && startBit <= endBit, "CTRL bit range: 0 <= startBit <= endBit <= 63");
    int64_t value = 0;
    detail::Check(ascendc_ctrl_spr(1, startBit, endBit, &value, loc));
    return value;
}

// The vendor's scalar utilities; SetOverflow(1) selects the fp16 Inf/NaN mode, SetOverflow(0)
// saturation (the products that always saturate warn on 1 and keep saturating).
struct AscendCUtils {
    static void SetOverflow(uint64_t ctrlValue, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_set_overflow(ctrlValue, loc));
    }
};

enum class SaturationMode : uint8_t {
    FLOAT,  // floating-point arithmetic and conversions to half / bfloat16_t (CTRL[48])
    CAST    // float -> integer and integer -> integer conversions
};

// true turns saturation on for mode (the reset state), false off: FLOAT keeps Inf/NaN, CAST keeps
// the low bits of integer results. A2/A3.
template <SaturationMode mode>
void SetSaturationFlag(bool enableSat, detail::Loc loc = detail::Loc()) {
    uint8_t flag = enableSat ? 1 : 0;
    detail::Check(ascendc_saturation(0, static_cast<uint8_t>(mode), &flag, loc));
}

// Whether saturation is on for mode. A2/A3.
template <SaturationMode mode>
bool GetSaturationFlag(detail::Loc loc = detail::Loc()) {
    uint8_t flag = 0;
    detail::Check(ascendc_saturation(1, static_cast<uint8_t>(mode), &flag, loc));
    return flag != 0;
}

enum class AtomicDtype { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp { ATOMIC_SUM = 0 };

// ATOMIC_NONE: DisableDmaAtomic(); otherwise SetAtomicAdd of the type. A2, A3, 310B.
template <AtomicDtype type, AtomicOp op>
void SetStoreAtomicConfig(detail::Loc loc = detail::Loc()) {
    uint16_t t = static_cast<uint16_t>(type);
    uint16_t o = static_cast<uint16_t>(op);
    detail::Check(ascendc_store_atomic(0, &t, &o, loc));
}

// The AtomicDtype code and the operation code (0 sum, 1 max, 2 min) in force; 0, 0 without one.
inline void GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_store_atomic(1, &atomicType, &atomicOp, loc));
}

}  // namespace AscendC
