// The C ABI of the ascendc simulator (crate ascendc-ffi). Every Ascend C call in
// kernel_operator.h forwards to one of these functions; each returns 0 on success and 1 when
// the simulator rejected the call (the error is recorded with the C++ source location).
#pragma once

#include <cstdint>
#if __cplusplus >= 202002L && __has_include(<source_location>)
#include <source_location>
#define ASCENDC_HAS_SOURCE_LOCATION 1
#endif

namespace AscendC {
namespace detail {

// A C++ call site, filled in at the caller by a default argument (`Loc loc = Loc()`): file,
// line and, with C++20, column. The default constructor is explicit so that no other argument
// converts to a location.
struct Loc {
    const char* file;
    uint32_t line;
    uint32_t column;
    constexpr Loc(const char* f, uint32_t l, uint32_t c) : file(f), line(l), column(c) {}
#ifdef ASCENDC_HAS_SOURCE_LOCATION
    explicit constexpr Loc(std::source_location s = std::source_location::current())
        : file(s.file_name()), line(s.line()), column(s.column()) {}
#else
    explicit constexpr Loc(const char* f = __builtin_FILE(), uint32_t l = __builtin_LINE())
        : file(f), line(l), column(0) {}
#endif
};

}  // namespace detail

enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };

// The most dimensions a ShapeInfo holds; a kernel may define it before including the headers
// (0 when it never uses ShapeInfo, to keep tensors small, as the performance guide suggests).
#ifndef K_MAX_SHAPE_DIM
#define K_MAX_SHAPE_DIM 8
#endif
static_assert(K_MAX_SHAPE_DIM >= 0 && K_MAX_SHAPE_DIM <= 8, "K_MAX_SHAPE_DIM is 0 to 8");

// A tensor's shape description.
struct ShapeInfo {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    DataFormat dataFormat = DataFormat::ND;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};

    ShapeInfo() = default;
    ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], DataFormat inputFormat = DataFormat::ND)
        : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
    // More than K_MAX_SHAPE_DIM dimensions are kept as a count and rejected where the shape is used.
    ShapeInfo(uint8_t inputShapeDim, const uint32_t inputShape[], uint8_t inputOriginalShapeDim,
              const uint32_t inputOriginalShape[], DataFormat inputFormat)
        : shapeDim(inputShapeDim), originalShapeDim(inputOriginalShapeDim), dataFormat(inputFormat) {
        for (int32_t i = 0; i < inputShapeDim && i < K_MAX_SHAPE_DIM; i++) {
            shape[i] = inputShape[i];
        }
        for (int32_t i = 0; i < inputOriginalShapeDim && i < K_MAX_SHAPE_DIM; i++) {
            originalShape[i] = inputOriginalShape[i];
        }
    }
};

namespace detail {

// ShapeInfo as the simulator stores it (layout shared with the Rust side): always 8 dimensions,
// whatever K_MAX_SHAPE_DIM the kernel chose.
struct RawShape {
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    DataFormat dataFormat = DataFormat::ND;
    uint32_t shape[8] = {};
    uint32_t originalShape[8] = {};
};

// A dimension count past what the kernel's ShapeInfo holds stays a count (rejected where used).
inline RawShape ToRaw(const ShapeInfo& s) {
    RawShape r;
    r.shapeDim = s.shapeDim;
    r.originalShapeDim = s.originalShapeDim;
    r.dataFormat = s.dataFormat;
    for (int32_t i = 0; i < K_MAX_SHAPE_DIM; i++) {
        r.shape[i] = s.shape[i];
        r.originalShape[i] = s.originalShape[i];
    }
    if (K_MAX_SHAPE_DIM < 8) {
        // Dimensions the kernel's ShapeInfo cannot hold were never given.
        if (r.shapeDim > K_MAX_SHAPE_DIM) r.shapeDim = 9;
        if (r.originalShapeDim > K_MAX_SHAPE_DIM) r.originalShapeDim = 9;
    }
    return r;
}

inline ShapeInfo FromRaw(const RawShape& r) {
    ShapeInfo s;
    s.shapeDim = r.shapeDim;
    s.originalShapeDim = r.originalShapeDim;
    s.dataFormat = r.dataFormat;
    for (int32_t i = 0; i < K_MAX_SHAPE_DIM; i++) {
        s.shape[i] = r.shape[i];
        s.originalShape[i] = r.originalShape[i];
    }
    return s;
}

}  // namespace detail

namespace detail {

// A LocalTensor by value: the simulator's own handle, field for field (addresses and lengths in
// bytes; ownerQueue 0: not a queue buffer; shape: the simulator's stored ShapeInfo, or null).
struct RawLocal {
    uint32_t addr = 0;
    uint32_t len = 0;
    uint32_t ownerQueue = 0;
    uint32_t ownerGen = 0;
    uint16_t ownerBuf = 0;
    uint8_t pos = 0;
    uint8_t hw = 0;
    const RawShape* shape = nullptr;
};
static_assert(sizeof(RawLocal) == (sizeof(void*) == 8 ? 32 : 24), "RawLocal is the simulator's handle layout");

// A GlobalTensor by value: host pointer inside a GmAlloc allocation, element count, and the
// simulator's stored ShapeInfo (or null).
struct RawGlobal {
    const void* ptr = nullptr;
    uint64_t size = 0;
    const RawShape* shape = nullptr;
};

struct RawCopyParams {
    uint16_t blockCount, blockLen, srcStride, dstStride;
};

struct RawMask {
    uint8_t mode;  // 0 contiguous count, 1 bitwise, 2 keep the mask register
    uint64_t lo, hi;
};

// Block strides (dst, src0, src1) and repeat strides of a level-0 call.
struct RawRepeat {
    uint16_t blk[3];
    uint8_t rep[3];
};

}  // namespace detail
}  // namespace AscendC

extern "C" {
using AscLoc = AscendC::detail::Loc;
using AscLocal = AscendC::detail::RawLocal;
using AscGlobal = AscendC::detail::RawGlobal;

void ascendc_print_last_error();
void ascendc_block_error(const char* message, AscLoc loc);
void ascendc_set_kernel_mode(uint8_t mode);
// Runs a kernel's blocks in `mode` (a KernelMode value; 255: the mode SetKernelMode chose).
int32_t ascendc_launch_with_mode(const char* name, uint8_t mode, uint32_t blockDim, int32_t (*block)(void*),
                                 void* ctx, AscLoc loc);
// ACLGraph capture (acl_mdl.h): whether a stream is capturing, and a <<<>>> launch recorded on it
// (`run(ctx)` launches it, `release(ctx)` frees it; 1 and `ctx` freed when it is not capturing).
bool ascendc_stream_capturing(void* stream);
int32_t ascendc_capture_launch(void* stream, const char* name, uint32_t blockDim, int32_t (*run)(void*),
                               void (*release)(void*), void* ctx);

void* ascendc_gm_alloc(uint64_t size);
// A GM allocation sized as the device's allocator sizes it (round up to 32 B, plus 32 B): accesses
// reaching the padding are warnings, past it errors.
void* ascendc_gm_alloc_device(uint64_t size);
int32_t ascendc_gm_free(void* ptr, AscLoc loc);
int32_t ascendc_gm_check_arg(const void* ptr, uint32_t index, const char* argText, AscLoc loc);
int32_t ascendc_gm_read(void* dst, const void* src, uint64_t len, AscLoc loc);

uint16_t ascendc_f64_to_f16(double v);
float ascendc_f16_to_f32(uint16_t bits);
uint16_t ascendc_f64_to_bf16(double v);
float ascendc_bf16_to_f32(uint16_t bits);

void* ascendc_pipe_new(AscLoc loc);
void ascendc_pipe_free(void* pipe);
void ascendc_pipe_reset(void* pipe);
void ascendc_pipe_destroy(void* pipe);
int32_t ascendc_pipe_init_queue(void* pipe, void* que, uint32_t num, uint32_t len, AscLoc loc);
int32_t ascendc_pipe_init_tbuf(void* pipe, void* buf, uint32_t len, AscLoc loc);
int32_t ascendc_pipe_event(void* pipe, uint8_t op, uint8_t event, uint32_t* id, AscLoc loc);
void* ascendc_que_new(uint8_t src, uint8_t dst, uint8_t depth);
void ascendc_que_free(void* que);
int32_t ascendc_que_alloc(void* que, AscLocal* out, AscLoc loc);
int32_t ascendc_que_enque(void* que, const AscLocal* in, AscLoc loc);
int32_t ascendc_que_deque(void* que, AscLocal* out, AscLoc loc);
int32_t ascendc_que_free_tensor(void* que, const AscLocal* in, AscLoc loc);
int32_t ascendc_que_free_all_event(void* que, AscLoc loc);
uint32_t ascendc_que_query(const void* que, uint8_t what);
void* ascendc_tbuf_new(uint8_t pos);
void* ascendc_pool_new(uint8_t pos, uint32_t bufIDSize);
void ascendc_pool_free(void* pool);
int32_t ascendc_pipe_init_pool(void* pipe, void* pool, uint32_t len, const void* share, AscLoc loc);
int32_t ascendc_pool_init_pool(void* parent, void* pool, uint32_t len, const void* share, AscLoc loc);
int32_t ascendc_pool_init_queue(void* pool, void* que, uint32_t num, uint32_t len, AscLoc loc);
int32_t ascendc_pool_init_tbuf(void* pool, void* buf, uint32_t len, AscLoc loc);
int32_t ascendc_pool_reset(void* pool, AscLoc loc);
void ascendc_tbuf_free(void* buf);
int32_t ascendc_tbuf_get(const void* buf, uint8_t elem, int64_t count, int64_t offset,
                         AscLocal* out, AscLoc loc);

int32_t ascendc_shape_intern(const AscendC::detail::RawShape* shape, const AscendC::detail::RawShape** out,
                             AscLoc loc);
int32_t ascendc_local_at(uint8_t elem, const AscLocal* t, uint32_t offset, AscLocal* out,
                         AscLoc loc);
int32_t ascendc_local_set_size(uint8_t elem, AscLocal* t, uint32_t n, AscLoc loc);
int32_t ascendc_local_value(uint8_t elem, const AscLocal* t, uint32_t i, uint8_t set, void* value,
                            AscLoc loc);
int32_t ascendc_global_value(uint8_t elem, const AscGlobal* g, uint64_t i, uint8_t set,
                             void* value, AscLoc loc);
int32_t ascendc_global_at(uint8_t elem, const AscGlobal* g, uint64_t offset, const void** out,
                          AscLoc loc);

int32_t ascendc_data_copy(uint8_t elem, uint8_t dir, const AscLocal* dstL, const AscGlobal* dstG,
                          const AscLocal* srcL, const AscGlobal* srcG,
                          const AscendC::detail::RawCopyParams* params, uint32_t count,
                          AscLoc loc);

int32_t ascendc_data_copy_gm(uint16_t form, const AscLocal* local, const AscGlobal* gm,
                             uint32_t count, AscLoc loc);
int32_t ascendc_data_copy_enhanced(uint8_t dstElem, uint8_t srcElem, uint8_t dir, const AscLocal* dstL,
                                   const AscGlobal* dstG, const AscLocal* srcL, const AscGlobal* srcG,
                                   const AscendC::detail::RawCopyParams* params, const void* enhanced, AscLoc loc);
int32_t ascendc_data_copy_ex(uint8_t elem, uint8_t kind, uint8_t dir, const AscLocal* local,
                             const AscGlobal* gm, const uint16_t* params, const void* dstSlices,
                             const void* srcSlices, uint32_t dim, AscLoc loc);
int32_t ascendc_data_copy_pad(uint8_t elem, uint8_t dir, const AscLocal* dstL, const AscGlobal* dstG,
                              const AscLocal* srcL, const AscGlobal* srcG, const void* params,
                              const void* pad, const uint16_t* nd2nz, AscLoc loc);
int32_t ascendc_set_pad_value(uint8_t elem, const void* value, AscLoc loc);

int32_t ascendc_vec_binary(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src0,
                           const AscLocal* src1, int32_t count, const AscendC::detail::RawMask* mask,
                           uint8_t repeat, const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_unary(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, int32_t count,
                          const AscendC::detail::RawMask* mask, uint8_t repeat,
                          const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_scalar(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src, const void* scalar,
                           int32_t count, const AscendC::detail::RawMask* mask, uint8_t repeat,
                           const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_duplicate(uint8_t elem, const AscLocal* dst, const void* scalar, int32_t count,
                              const AscendC::detail::RawMask* mask, uint8_t repeat, uint16_t dstBlk, uint8_t dstRep,
                              AscLoc loc);
int32_t ascendc_vec_cast(uint8_t dstElem, uint8_t srcElem, const AscLocal* dst, const AscLocal* src, uint8_t round,
                         int32_t count, const AscendC::detail::RawMask* mask, uint8_t repeat,
                         const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_compare(uint8_t dstElem, uint8_t elem, const AscLocal* dst, const AscLocal* src0,
                            const AscLocal* src1, const void* scalar, uint8_t cmp, int32_t count,
                            const AscendC::detail::RawMask* mask, uint8_t repeat,
                            const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_select(uint8_t elem, uint8_t maskElem, const AscLocal* dst, const AscLocal* selMask,
                           const AscLocal* src0, const AscLocal* src1, const void* scalar, uint8_t sel, int32_t count,
                           const AscendC::detail::RawMask* mask, uint8_t repeat,
                           const AscendC::detail::RawRepeat* params, AscLoc loc);
int32_t ascendc_vec_mask(uint8_t op, uint8_t elem, uint8_t counter, AscendC::detail::RawMask mask, AscLoc loc);
int32_t ascendc_vec_control(uint8_t op, uint16_t value, AscLoc loc);
int32_t ascendc_vec_reduce(uint8_t op, uint8_t elem, const AscLocal* dst, const AscLocal* src,
                           const AscLocal* tmp, const AscendC::detail::RawMask* mask, const void* args,
                           AscLoc loc);
int32_t ascendc_reduce_spr(uint8_t op, uint8_t elem, void* value, void* index, AscLoc loc);

int32_t ascendc_pipe_barrier(uint8_t pipe, AscLoc loc);
int32_t ascendc_flag(uint8_t event, uint32_t id, uint8_t wait, AscLoc loc);
uint32_t ascendc_get_block_idx();
uint32_t ascendc_get_block_num();
uint32_t ascendc_get_sub_block_idx();
uint32_t ascendc_get_task_ratio();
}
