// System variables, execution-unit dispatch and cache control: GetDataBlockSizeInBytes,
// GetArchVersion, GetProgramCounter, GetSubBlockNum, Async, DataCachePreload,
// DataCacheCleanAndInvalid, ICachePreLoad, GetICachePreloadStatus. The simulated GM is
// coherent: the cache calls are validated and recorded on PIPE_S and change no data.
#pragma once

#include <type_traits>
#include <utility>

#include "tensor.h"

extern "C" {
int32_t ascendc_sys_var(uint8_t which, int64_t* out, AscLoc loc);
int32_t ascendc_async_runs(uint8_t engine, uint8_t* out, AscLoc loc);
int32_t ascendc_data_cache_preload(const AscGlobal* src, int64_t cacheOffset, AscLoc loc);
int32_t ascendc_dcci(uint8_t elem, const AscGlobal* global, const AscLocal* local, uint8_t entire, uint8_t dcci,
                     AscLoc loc);
int32_t ascendc_icache_preload(int64_t preFetchLen, AscLoc loc);
}

namespace AscendC {
namespace detail {

inline int64_t SysVar(uint8_t which, Loc loc) {
    int64_t v = 0;
    Check(ascendc_sys_var(which, &v, loc));
    return v;
}

}  // namespace detail

// Bytes of one DataBlock (32; the product is known when the kernel runs, so not constexpr here).
inline int16_t GetDataBlockSizeInBytes(detail::Loc loc = detail::Loc()) {
    return static_cast<int16_t>(detail::SysVar(0, loc));
}

// The hex-coded architecture version (print it with %x: 2002 on 310P, 2201 on A2/A3).
inline void GetArchVersion(uint32_t& coreVersion, detail::Loc loc = detail::Loc()) {
    coreVersion = static_cast<uint32_t>(detail::SysVar(1, loc));
}

// The simulated program counter of the call site (file hash in bits 32-62, line in bits 0-31).
inline int64_t GetProgramCounter(detail::Loc loc = detail::Loc()) { return detail::SysVar(2, loc); }

// Cores of this core's kind in one logical AI Core (A2/A3).
inline int64_t GetSubBlockNum(detail::Loc loc = detail::Loc()) { return detail::SysVar(3, loc); }

// The execution units of Async.
enum class EngineType : uint8_t { AIC = 0, AIV = 1 };

// Calls funPtr(args...) on the cores of `engine` only (A2/A3).
template <EngineType engine, auto funPtr, class... Args>
void Async(Args&&... args) {
    uint8_t runs = 0;
    detail::Check(ascendc_async_runs(static_cast<uint8_t>(engine), &runs, detail::Loc()));
    if (runs != 0) {
        funPtr(std::forward<Args>(args)...);
    }
}

// What DataCacheCleanAndInvalid refreshes: the line of the address (up to the next 64-byte
// boundary) or the whole data cache.
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
// Which memory the data cache is made consistent with.
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };

// Loads the 64-byte line holding the byte cacheOffset bytes past src into the data cache.
template <typename T>
void DataCachePreload(const GlobalTensor<uint64_t>& src, const T cacheOffset, detail::Loc loc = detail::Loc()) {
    static_assert(std::is_same<T, int16_t>::value || std::is_same<T, int64_t>::value,
                  "DataCachePreload: cacheOffset is int16_t or int64_t");
    detail::RawGlobal g = src.Raw();
    detail::Check(ascendc_data_cache_preload(&g, static_cast<int64_t>(cacheOffset), loc));
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = dst.Raw();
    detail::Check(ascendc_dcci(detail::dtype<T>, &g, nullptr, static_cast<uint8_t>(entireType),
                               static_cast<uint8_t>(dcciDst), loc));
}

template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dst, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_dcci(detail::dtype<T>, nullptr, &dst.Raw(), static_cast<uint8_t>(entireType),
                               static_cast<uint8_t>(dcciDst), loc));
}

// The form without dcciDst: consistency with GM (the only form on 310P).
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, detail::Loc loc = detail::Loc()) {
    detail::RawGlobal g = dst.Raw();
    detail::Check(ascendc_dcci(detail::dtype<T>, &g, nullptr, static_cast<uint8_t>(entireType), 255, loc));
}

// Preloads instructions: preFetchLen in 2 KiB units below ICache / 2 KiB on A2/A3, ignored on 310P.
inline void ICachePreLoad(const int64_t preFetchLen, detail::Loc loc = detail::Loc()) {
    detail::Check(ascendc_icache_preload(preFetchLen, loc));
}

// 0 when the last ICachePreLoad has completed (always here), 1 while it runs (A2/A3).
inline int64_t GetICachePreloadStatus(detail::Loc loc = detail::Loc()) { return detail::SysVar(4, loc); }

}  // namespace AscendC
