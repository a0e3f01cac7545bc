// Static tensor programming: the Hardware enum, LocalMemAllocator<hard> and the
// LocalTensor(pos, addr, tileSize) constructor; tensors placed in an on-chip buffer without a TPipe.
#pragma once

#include "tensor.h"

extern "C" {
int32_t ascendc_local_alloc(uint8_t hw, uint32_t* cur, uint8_t pos, uint8_t elem, uint32_t tile, AscLocal* out,
                            AscLoc loc);
int32_t ascendc_local_place(uint8_t pos, uint8_t elem, uint32_t addr, uint32_t tile, AscLocal* out, AscLoc loc);
}

namespace AscendC {

// Physical memories.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

namespace detail {
inline RawLocal PlaceLocal(uint8_t pos, uint8_t elem, uint32_t addr, uint32_t tileSize, Loc loc) {
    RawLocal raw;
    Check(ascendc_local_place(pos, elem, addr, tileSize, &raw, loc));
    return raw;
}
constexpr uint8_t DEFAULT_POSITION = 0xff;
}  // namespace detail

// Hands out consecutive tensors of one on-chip buffer from address 0 (starts aligned to the
// buffer's alignment); an allocation past the end of the buffer stops the block.
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                  "LocalMemAllocator takes an on-chip buffer: UB, L1, L0A, L0B, L0C, BIAS or FIXBUF");

public:
    LocalMemAllocator() = default;

    // The first free byte address.
    uint32_t GetCurAddr() const { return cur_; }

    template <class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(detail::Loc loc = detail::Loc()) {
        return Take<DataType>(detail::DEFAULT_POSITION, tileSize, loc);
    }
    template <TPosition pos, class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(detail::Loc loc = detail::Loc()) {
        return Take<DataType>(static_cast<uint8_t>(pos), tileSize, loc);
    }
    template <class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, detail::Loc loc = detail::Loc()) {
        return Take<DataType>(detail::DEFAULT_POSITION, tileSize, loc);
    }
    template <TPosition pos, class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, detail::Loc loc = detail::Loc()) {
        return Take<DataType>(static_cast<uint8_t>(pos), tileSize, loc);
    }

private:
    template <class DataType>
    LocalTensor<DataType> Take(uint8_t pos, uint32_t tileSize, detail::Loc loc) {
        detail::RawLocal raw;
        detail::Check(ascendc_local_alloc(static_cast<uint8_t>(hard), &cur_, pos, detail::dtype<DataType>, tileSize,
                                          &raw, loc));
        return LocalTensor<DataType>::FromRaw(raw);
    }

    uint32_t cur_ = 0;
};

}  // namespace AscendC
