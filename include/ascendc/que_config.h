// TQueConfig: the queue-configuration template argument of TQue / TQueBind (or the int mask:
// bit 0 nd2nz, bit 1 nz2nd). bufferLen / bufferNumber must match InitBuffer (0: left to it);
// nd2nz / nz2nd exist on the Atlas inference series only (A1/B1 resp. CO2 queues) and are
// refused there too (the conversion of the queue's copies is not modelled); the reserved
// fields are accepted.
#pragma once

#include <type_traits>

#include "types.h"

extern "C" void ascendc_que_config(void* que, uint8_t flags, uint32_t bufferLen, uint32_t bufferNumber,
                                   uint32_t consumerSize);

namespace AscendC {

struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

namespace detail {

template <auto mask>
void ApplyQueConfig(void* que) {
    using M = decltype(mask);
    if constexpr (std::is_pointer<M>::value) {
        static_assert(std::is_same<std::remove_cv_t<std::remove_pointer_t<M>>, TQueConfig>::value,
                      "the queue's mask template argument is an int or a const TQueConfig*");
        const TQueConfig& c = *mask;
        uint8_t flags = static_cast<uint8_t>(c.nd2nz) | static_cast<uint8_t>(c.nz2nd) << 1 |
                        static_cast<uint8_t>(c.scmBlockGroup) << 2 | static_cast<uint8_t>(c.enableStaticEvtId) << 3 |
                        static_cast<uint8_t>(c.enableLoopQueue) << 4;
        ascendc_que_config(que, flags, c.bufferLen, c.bufferNumber, c.consumerSize);
    } else {
        static_assert(std::is_integral<M>::value, "the queue's mask template argument is an int or a const TQueConfig*");
        static_assert(mask >= 0 && mask <= 3, "the queue mask has bit 0 (nd2nz) and bit 1 (nz2nd) only");
        if constexpr (mask != 0) {
            ascendc_que_config(que, static_cast<uint8_t>(mask), 0, 0, 0);
        }
    }
}

}  // namespace detail
}  // namespace AscendC
