// TBufPool: a sub-pool of one physical buffer, from TPipe::InitBufPool or TBufPool::InitBufPool
// (optionally sharing another pool's memory), giving memory to queues and TBufs; Reset frees it
// all for the next phase. EXTERN_IMPL_BUFPOOL makes a class a custom pool whose own InitBuffer
// places the buffers (InitStartBufHandle / InitBufHandle on the queue or TBuf).
#pragma once

#include <type_traits>

#include "tpipe.h"

extern "C" {
void* ascendc_ext_pool_new(uint8_t pos, uint32_t bufIDSize);
void ascendc_ext_pool_init(void* pool);
int32_t ascendc_ext_pool_buf_handle(const void* pool, uint8_t offset, uint64_t* out, AscLoc loc);
uint32_t ascendc_ext_pool_get(const void* pool, uint8_t what);
int32_t ascendc_ext_pool_set(void* pool, uint8_t what, uint32_t value, AscLoc loc);
}

namespace AscendC {

namespace detail {
// The simulator's side of a custom pool, a member of the class EXTERN_IMPL_BUFPOOL completes.
class ExtBufPool {
public:
    ExtBufPool(TPosition pos, uint32_t bufIDSize) : handle_(ascendc_ext_pool_new(static_cast<uint8_t>(pos), bufIDSize)) {}
    ExtBufPool(const ExtBufPool&) = delete;
    ExtBufPool& operator=(const ExtBufPool&) = delete;
    ~ExtBufPool() { ascendc_pool_free(handle_); }

    void Reset(Loc loc) { Check(ascendc_pool_reset(handle_, loc)); }
    // The destructor's Reset: a failure is the block's error already, and must not throw here.
    void Release(Loc loc = Loc()) { (void)ascendc_pool_reset(handle_, loc); }
    void Init() { ascendc_ext_pool_init(handle_); }
    TBufHandle GetBufHandle(uint8_t offset, Loc loc) {
        uint64_t bits = 0;
        Check(ascendc_ext_pool_buf_handle(handle_, offset, &bits, loc));
        return reinterpret_cast<TBufHandle>(static_cast<uintptr_t>(bits));
    }
    uint32_t Get(uint8_t what) const { return ascendc_ext_pool_get(handle_, what); }
    void Set(uint8_t what, uint32_t value, Loc loc) { Check(ascendc_ext_pool_set(handle_, what, value, loc)); }
    void* Handle() const { return handle_; }

private:
    void* handle_;
};
}  // namespace detail

// Inside a class: makes it a custom TBufPool at POSITION of at most BUFID_SIZE buffers, with Reset,
// Init, GetBufHandle, SetCurAddr, GetCurAddr, SetCurBufSize and GetCurBufSize. Give it memory with
// TPipe::InitBufPool; its own InitBuffer places the buffers.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                            \
public:                                                                                                   \
    static constexpr AscendC::TPosition poolPos = POSITION;                                               \
    static constexpr int bufIDSize = BUFID_SIZE;                                                          \
    static constexpr bool isTbufPool = true;                                                              \
    ~EXT_BUFPOOL() { ascendcExtPool_.Release(); }                                                         \
    void Reset(AscendC::detail::Loc loc = AscendC::detail::Loc()) { ascendcExtPool_.Reset(loc); }         \
    void Init() { ascendcExtPool_.Init(); }                                                               \
    AscendC::TBufHandle GetBufHandle(uint8_t offset, AscendC::detail::Loc loc = AscendC::detail::Loc()) { \
        return ascendcExtPool_.GetBufHandle(offset, loc);                                                 \
    }                                                                                                     \
    void SetCurAddr(uint32_t curAddr, AscendC::detail::Loc loc = AscendC::detail::Loc()) {                \
        ascendcExtPool_.Set(0, curAddr, loc);                                                             \
    }                                                                                                     \
    uint32_t GetCurAddr() { return ascendcExtPool_.Get(0); }                                              \
    void SetCurBufSize(uint8_t curBufSize, AscendC::detail::Loc loc = AscendC::detail::Loc()) {           \
        ascendcExtPool_.Set(1, curBufSize, loc);                                                          \
    }                                                                                                     \
    uint8_t GetCurBufSize() { return static_cast<uint8_t>(ascendcExtPool_.Get(1)); }                      \
    void* Handle() const { return ascendcExtPool_.Handle(); }                                             \
                                                                                                          \
private:                                                                                                  \
    AscendC::detail::ExtBufPool ascendcExtPool_{POSITION, BUFID_SIZE}

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    TBufPool() : handle_(ascendc_pool_new(static_cast<uint8_t>(pos), bufIDSize)) {}
    TBufPool(const TBufPool&) = delete;
    TBufPool& operator=(const TBufPool&) = delete;
    ~TBufPool() { ascendc_pool_free(handle_); }

    template <class T>
    bool InitBuffer(T& que, uint8_t num, uint32_t len, detail::Loc loc = detail::Loc()) {
        static_assert(std::is_base_of<detail::QueueBase, T>::value, "InitBuffer(que, num, len) takes a TQue or TQueBind");
        detail::Check(ascendc_pool_init_queue(handle_, que.Handle(), num, len, loc));
        return true;
    }
    template <TPosition bufPos>
    bool InitBuffer(TBuf<bufPos>& buf, uint32_t len, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pool_init_tbuf(handle_, buf.Handle(), len, loc));
        return true;
    }
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pool_init_pool(handle_, bufPool.Handle(), len, nullptr, loc));
        return true;
    }
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pool_init_pool(handle_, bufPool.Handle(), len, shareBuf.Handle(), loc));
        return true;
    }
    void Reset(detail::Loc loc = detail::Loc()) { detail::Check(ascendc_pool_reset(handle_, loc)); }

    void* Handle() const { return handle_; }

private:
    void* handle_;
};

}  // namespace AscendC
