// One kernel per programming style, together using the whole kernel-side surface: static tensor
// programming (LocalMemAllocator, LocalTensor(pos, addr, size)), a tensor list (ListTensorDesc),
// the tiling registration macros, events by name, the debug dumps, the system workspace and the
// small helpers. Every result lands in GM and is checked against numpy by the test driver.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"

using namespace AscendC;

constexpr uint32_t N = 64;

struct SurfaceTiling {
    uint32_t n;
    float32_t scale;
};

// Results of the scalar checks, one int32 each (see gen_data.py for the expected values).
enum Info : uint32_t {
    CYCLES_GREW = 0,
    DIV_CEIL,
    CEIL_DIVISION,
    STD_MAX,
    STD_MIN,
    STD_ABS,
    IS_AIV,
    IS_AIC,
    SYS_WORKSPACE_SET,
    USER_WORKSPACE_OFFSET_KIB,
    LIST_SIZE,
    LIST_DIM0,
    LIST_SHAPE_PRODUCT,
    CACHE_HINT_DISABLED,
    BF16_TIE_TO_EVEN,
    LIKELY_TAKEN,
    INFO_COUNT,
};

// z = x + y in half with z[0] doubled, x and y taken from a tensor list, in UB tensors placed by
// hand; scale from the tiling goes to out as a float32 (z[1] * scale).
extern "C" __global__ __aicore__ void surface_static(GM_ADDR list, GM_ADDR z, GM_ADDR info, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    REGISTER_TILING_DEFAULT(SurfaceTiling);
    GET_TILING_DATA(t, tiling);
    InitSocState();
    int64_t cycles = GetSystemCycle();
    ASSERT(t.n == N, "tiling n is %u", t.n);

    SetSysWorkspace(workspace);
    GM_ADDR user = GetUserWorkspace(workspace);

    ListTensorDesc tensors(list);
    uint64_t shape[K_MAX_SHAPE_DIM] = {};
    TensorDesc<float16_t> xDesc;
    xDesc.SetShapeAddr(shape);
    tensors.GetDesc(xDesc, 0);
    uint64_t xCount = xDesc.GetShape(0) * xDesc.GetShape(1);
    GlobalTensor<float16_t> xGm = xDesc.GetDataObj();
    xGm.SetGlobalBuffer(xDesc.GetDataPtr(), xCount);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);
    GlobalTensor<float16_t> yGm;
    yGm.SetGlobalBuffer(tensors.GetDataPtr<float16_t>(1), N);
    GlobalTensor<float16_t> zGm;
    zGm.SetGlobalBuffer((__gm__ float16_t*)z, N);
    GlobalTensor<int32_t> infoGm;
    infoGm.SetGlobalBuffer((__gm__ int32_t*)info, INFO_COUNT);

    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float16_t> xL = ub.Alloc<float16_t>(N);
    LocalTensor<float16_t> yL = ub.Alloc<TPosition::VECIN, float16_t, N>();
    LocalTensor<float16_t> zL(TPosition::VECOUT, ub.GetCurAddr(), N);

    DataCopy(xL, xGm, N);
    DataCopy(yL, yGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(zL, xL, yL, N);
    SetFlag<HardEvent::V_S>(EVENT_ID1);
    WaitFlag<HardEvent::V_S>(EVENT_ID1);
    zL(0) = float16_t(float(zL(0)) * 2.0f);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID2);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID2);

    uint32_t square[] = {8, 8};
    DumpTensor(xL, 1, N, ShapeInfo(2, square));
    DumpAccChkPoint(zL, 2, 8, 4);
    DataCopy(zGm, zL, N);
    SetFlag<HardEvent::MTE3_S>(EVENT_ID7);
    WaitFlag<HardEvent::MTE3_S>(EVENT_ID7);
    DumpTensor(zGm, 3, 4);

    bfloat16_t tie = 1.00390625f;  // halfway between 1 and the next bfloat16: rounds to even (1)
    int32_t taken = 0;
    if (likely(t.n > 0)) {
        taken += 1;
    }
    if (unlikely(t.n == 0)) {
        taken += 10;
    }
    infoGm(DIV_CEIL) = DivCeil(t.n, 30u);
    infoGm(CEIL_DIVISION) = CeilDivision(100, 7);
    infoGm(STD_MAX) = Std::max(3, 9);
    infoGm(STD_MIN) = Std::min(-2, 5);
    infoGm(STD_ABS) = Std::abs(-7);
    infoGm(IS_AIV) = ASCEND_IS_AIV ? 1 : 0;
    infoGm(IS_AIC) = ASCEND_IS_AIC ? 1 : 0;
    infoGm(SYS_WORKSPACE_SET) = GetSysWorkSpacePtr() == workspace ? 1 : 0;
    infoGm(USER_WORKSPACE_OFFSET_KIB) = static_cast<int32_t>((user - workspace) / 1024);
    infoGm(LIST_SIZE) = tensors.GetSize();
    infoGm(LIST_DIM0) = static_cast<int32_t>(xDesc.GetDim());
    infoGm(LIST_SHAPE_PRODUCT) = static_cast<int32_t>(xCount);
    infoGm(CACHE_HINT_DISABLED) = xGm.GetL2CacheHint() == CacheMode::CACHE_MODE_DISABLE ? 1 : 0;
    infoGm(BF16_TIE_TO_EVEN) = float(tie) == 1.0f ? 1 : 0;
    infoGm(LIKELY_TAKEN) = taken;
    infoGm(CYCLES_GREW) = GetSystemCycle() > cycles ? 1 : 0;
    PRINTF("surface_static: scale %.2f, z[1] * scale = %.2f\n", t.scale, float(zL(1)) * t.scale);
}

// The TPipe side: the global GetTPipePtr() sees the kernel's pipe; y = x * 3 through a queue.
extern "C" __global__ __aicore__ void surface_pipe(GM_ADDR x, GM_ADDR y, GM_ADDR flags)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, N * sizeof(float32_t));
    GlobalTensor<float32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float32_t*)x, N);
    yGm.SetGlobalBuffer((__gm__ float32_t*)y, N);
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer((__gm__ int32_t*)flags, 2);
    flagGm(0) = ::GetTPipePtr() == &pipe ? 1 : 0;
    flagGm(1) = AscendC::GetTPipePtr() == &pipe ? 1 : 0;

    LocalTensor<float32_t> t = q.AllocTensor<float32_t>();
    DataCopy(t, xGm, N);
    q.EnQue(t);
    t = q.DeQue<float32_t>();
    Muls(t, t, 3.0f, N);
    event_t done = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(done);
    WaitFlag<HardEvent::V_MTE3>(done);
    DataCopy(yGm, t, N);
    q.FreeTensor(t);
}

// A false ASSERT: the launch fails naming this line and the block.
extern "C" __global__ __aicore__ void surface_assert(GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(SurfaceTiling);
    GET_TILING_DATA(t, tiling);
    ASSERT(t.n == N + 1, "n is %u", t.n);
}
