// TBufPool: a sub-pool of one physical buffer, from TPipe::InitBufPool or TBufPool::InitBufPool
// (optionally sharing another pool's memory), giving memory to queues and TBufs; Reset frees it
// all for the next phase.
#pragma once

#include <type_traits>

#include "tpipe.h"

namespace AscendC {

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
