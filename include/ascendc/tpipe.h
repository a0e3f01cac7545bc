// TPipe, TQue / TQueBind and TBuf: thin owners of simulator handles.
#pragma once

#include "tensor.h"
#include "que_config.h"

extern "C" {
int32_t ascendc_que_init_start_buf_handle(void* que, uint64_t handle, uint8_t num, uint32_t len, AscLoc loc);
int32_t ascendc_que_init_buf_handle(void* que, void* pool, uint32_t index, uint64_t handle, uint32_t curPoolAddr,
                                    uint32_t len, AscLoc loc);
int32_t ascendc_tbuf_init_start_buf_handle(void* buf, uint64_t handle, uint8_t num, uint32_t len, AscLoc loc);
int32_t ascendc_tbuf_init_buf_handle(void* buf, void* pool, uint32_t index, uint64_t handle, uint32_t curPoolAddr,
                                     uint32_t len, AscLoc loc);
}

namespace AscendC {

// A block of a custom TBufPool (GetBufHandle): an opaque value, not an address.
using TBufHandle = uint8_t*;

namespace detail {
inline uint64_t HandleBits(TBufHandle h) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(h)); }

// Queue state shared by TQue and TQueBind.
class QueueBase {
public:
    QueueBase(const QueueBase&) = delete;
    QueueBase& operator=(const QueueBase&) = delete;
    ~QueueBase() { ascendc_que_free(handle_); }

    // The operations take the tensor by address (EnQue, FreeTensor) or fill one in place
    // (AllocTensor, DeQue).
    template <typename T>
    LocalTensor<T> AllocTensor(Loc loc = Loc()) {
        RawLocal raw;
        Check(ascendc_que_alloc(handle_, &raw, loc));
        return LocalTensor<T>::FromRaw(raw);
    }

    template <typename T>
    void AllocTensor(LocalTensor<T>& tensor, Loc loc = Loc()) {
        tensor = AllocTensor<T>(loc);
    }

    template <typename T>
    bool EnQue(const LocalTensor<T>& tensor, Loc loc = Loc()) {
        Check(ascendc_que_enque(handle_, &tensor.Raw(), loc));
        return true;
    }

    // The form naming the user positions of a TQueBind's two ends (the queue's own are used).
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& tensor, Loc loc = Loc()) {
        return EnQue(tensor, loc);
    }

    template <typename T>
    LocalTensor<T> DeQue(Loc loc = Loc()) {
        RawLocal raw;
        Check(ascendc_que_deque(handle_, &raw, loc));
        return LocalTensor<T>::FromRaw(raw);
    }

    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue(Loc loc = Loc()) {
        return DeQue<T>(loc);
    }

    template <typename T>
    void DeQue(LocalTensor<T>& tensor, Loc loc = Loc()) {
        tensor = DeQue<T>(loc);
    }

    template <typename T>
    void FreeTensor(const LocalTensor<T>& tensor, Loc loc = Loc()) {
        Check(ascendc_que_free_tensor(handle_, &tensor.Raw(), loc));
    }

    void FreeAllEvent(Loc loc = Loc()) { Check(ascendc_que_free_all_event(handle_, loc)); }

    bool VacantInQue() const { return ascendc_que_query(handle_, 0) != 0; }
    bool HasTensorInQue() const { return ascendc_que_query(handle_, 1) != 0; }
    int32_t GetTensorCountInQue() const { return static_cast<int32_t>(ascendc_que_query(handle_, 2)); }
    bool HasIdleBuffer() const { return ascendc_que_query(handle_, 3) != 0; }

    // For a custom TBufPool (EXTERN_IMPL_BUFPOOL): num buffers of len bytes from the pool's block
    // startBufhandle on, each placed by InitBufHandle before the queue can allocate.
    void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len, Loc loc = Loc()) {
        Check(ascendc_que_init_start_buf_handle(handle_, HandleBits(startBufhandle), num, len, loc));
    }
    template <typename T>
    void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr, uint32_t len,
                       Loc loc = Loc()) {
        Check(ascendc_que_init_buf_handle(handle_, bufPool->Handle(), index, HandleBits(bufhandle), curPoolAddr, len,
                                          loc));
    }

    void* Handle() const { return handle_; }

protected:
    explicit QueueBase(void* handle) : handle_(handle) {}

private:
    void* handle_;
};

constexpr uint8_t NO_DST = 0xff;

}  // namespace detail

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public detail::QueueBase {
public:
    TQueBind()
        : QueueBase(ascendc_que_new(static_cast<uint8_t>(src), static_cast<uint8_t>(dst),
                                    static_cast<uint8_t>(depth))) {
        detail::ApplyQueConfig<mask>(Handle());
    }
};

// A queue into TSCM (L1 the user manages, e.g. a Matmul operand): from `pos` (GM or UB).
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public detail::QueueBase {
public:
    TQue() : QueueBase(ascendc_que_new(static_cast<uint8_t>(pos), detail::NO_DST, static_cast<uint8_t>(depth))) {
        detail::ApplyQueConfig<mask>(Handle());
    }
};

template <TPosition pos = TPosition::LCM>
class TBuf {
public:
    TBuf() : handle_(ascendc_tbuf_new(static_cast<uint8_t>(pos))) {}
    TBuf(const TBuf&) = delete;
    TBuf& operator=(const TBuf&) = delete;
    ~TBuf() { ascendc_tbuf_free(handle_); }

    template <typename T>
    LocalTensor<T> Get(detail::Loc loc = detail::Loc()) const {
        return Fetch<T>(-1, -1, loc);
    }
    template <typename T>
    LocalTensor<T> Get(uint32_t len, detail::Loc loc = detail::Loc()) const {
        return Fetch<T>(len, -1, loc);
    }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset, detail::Loc loc = detail::Loc()) const {
        return Fetch<T>(size, bufOffset, loc);
    }

    // The queue methods a TBuf inherits on the device: AllocTensor and DeQue give the whole
    // buffer (as Get), EnQue and FreeTensor do nothing.
    template <typename T>
    LocalTensor<T> AllocTensor(detail::Loc loc = detail::Loc()) const {
        return Fetch<T>(-1, -1, loc);
    }
    template <typename T>
    LocalTensor<T> DeQue(detail::Loc loc = detail::Loc()) const {
        return Fetch<T>(-1, -1, loc);
    }
    template <typename T>
    void EnQue(const LocalTensor<T>&) const {}
    template <typename T>
    void FreeTensor(const LocalTensor<T>&) const {}

    // For a custom TBufPool (EXTERN_IMPL_BUFPOOL); num must be 1.
    void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_tbuf_init_start_buf_handle(handle_, detail::HandleBits(startBufhandle), num, len, loc));
    }
    template <typename T>
    void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr, uint32_t len,
                       detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_tbuf_init_buf_handle(handle_, bufPool->Handle(), index, detail::HandleBits(bufhandle),
                                                   curPoolAddr, len, loc));
    }

    void* Handle() const { return handle_; }

private:
    template <typename T>
    LocalTensor<T> Fetch(int64_t count, int64_t offset, detail::Loc loc) const {
        detail::RawLocal raw;
        detail::Check(ascendc_tbuf_get(handle_, detail::dtype<T>, count, offset, &raw, loc));
        return LocalTensor<T>::FromRaw(raw);
    }

    void* handle_;
};

using TEventID = int8_t;

struct DataCopyParams;
class TPipe;

namespace detail {
// The pipe of the running kernel (GetTPipePtr), per block thread.
inline thread_local TPipe* currentPipe = nullptr;
}  // namespace detail

class TPipe {
public:
    explicit TPipe(detail::Loc loc = detail::Loc()) : handle_(ascendc_pipe_new(loc)) { detail::currentPipe = this; }
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;
    ~TPipe() {
        if (detail::currentPipe == this) {
            detail::currentPipe = nullptr;
        }
        ascendc_pipe_free(handle_);
    }

    template <HardEvent evt>
    TEventID AllocEventID(detail::Loc loc = detail::Loc()) {
        return Event(0, evt, 0, loc);
    }
    template <HardEvent evt>
    void ReleaseEventID(TEventID id, detail::Loc loc = detail::Loc()) {
        Event(1, evt, id, loc);
    }
    TEventID FetchEventID(HardEvent evt, detail::Loc loc = detail::Loc()) { return Event(2, evt, 0, loc); }
    template <HardEvent evt>
    TEventID FetchEventID(detail::Loc loc = detail::Loc()) {
        return Event(2, evt, 0, loc);
    }

    template <class Que>
    bool InitBuffer(Que& que, uint8_t num, uint32_t len, detail::Loc loc = detail::Loc()) {
        static_assert(std::is_base_of<detail::QueueBase, Que>::value, "InitBuffer(que, num, len) takes a TQue or TQueBind");
        detail::Check(ascendc_pipe_init_queue(handle_, que.Handle(), num, len, loc));
        return true;
    }

    template <TPosition pos>
    bool InitBuffer(TBuf<pos>& buf, uint32_t len, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pipe_init_tbuf(handle_, buf.Handle(), len, loc));
        return true;
    }

    // InitBufPool (the pool types are in buf_pool.h).
    template <class T>
    bool InitBufPool(T& bufPool, uint32_t len, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pipe_init_pool(handle_, bufPool.Handle(), len, nullptr, loc));
        return true;
    }
    template <class T, class U>
    bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_pipe_init_pool(handle_, bufPool.Handle(), len, shareBuf.Handle(), loc));
        return true;
    }

    void Reset() { ascendc_pipe_reset(handle_); }
    void Destroy() { ascendc_pipe_destroy(handle_); }

    // The SPM buffer (defined in spm.h).
    template <typename T>
    void InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize, detail::Loc loc = detail::Loc());
    void InitSpmBuffer(const int32_t bufferSize, detail::Loc loc = detail::Loc());
    template <typename T>
    void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const DataCopyParams& copyParams, int32_t writeOffset = 0,
                        detail::Loc loc = detail::Loc());
    template <typename T>
    void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const int32_t writeSize, int32_t writeOffset = 0,
                        detail::Loc loc = detail::Loc());
    template <typename T>
    void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const DataCopyParams& copyParams, int32_t readOffset = 0,
                       detail::Loc loc = detail::Loc());
    template <typename T>
    void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize, int32_t readOffset = 0,
                       detail::Loc loc = detail::Loc());

    void* Handle() const { return handle_; }

private:
    TEventID Event(uint8_t op, HardEvent evt, TEventID id, detail::Loc loc) {
        uint32_t v = static_cast<uint32_t>(id);
        detail::Check(ascendc_pipe_event(handle_, op, static_cast<uint8_t>(evt), &v, loc));
        return static_cast<TEventID>(v);
    }

    void* handle_;
};

// GetTPipePtr() is declared at global scope (compat.h) and named here too.

}  // namespace AscendC
