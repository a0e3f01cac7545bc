// Shared by the launch-form tests (tests/cpp/launch_*.asc): one tile of TILE floats per block
// through the queues (GM -> UB, a vector operation, UB -> GM), and host buffers on the acl
// runtime with a check that prints `<case>: PASS` or the first wrong element.
#pragma once

#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

constexpr uint32_t TILE = 64;
constexpr uint32_t BLOCKS = 4;
constexpr size_t COUNT = TILE * BLOCKS;

// z = op(x, y) on this block's tile.
template <typename Op>
__aicore__ inline void BinaryTile(GM_ADDR x, GM_ADDR y, GM_ADDR z, Op op)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qx, qy;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qy, 1, TILE * sizeof(float));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
    AscendC::GlobalTensor<float> gx, gy, gz;
    uint32_t at = AscendC::GetBlockIdx() * TILE;
    gx.SetGlobalBuffer((__gm__ float*)x + at, TILE);
    gy.SetGlobalBuffer((__gm__ float*)y + at, TILE);
    gz.SetGlobalBuffer((__gm__ float*)z + at, TILE);
    AscendC::LocalTensor<float> a = qx.AllocTensor<float>();
    AscendC::LocalTensor<float> b = qy.AllocTensor<float>();
    AscendC::DataCopy(a, gx, TILE);
    AscendC::DataCopy(b, gy, TILE);
    qx.EnQue(a);
    qy.EnQue(b);
    a = qx.DeQue<float>();
    b = qy.DeQue<float>();
    AscendC::LocalTensor<float> c = qz.AllocTensor<float>();
    op(c, a, b);
    qz.EnQue(c);
    qx.FreeTensor(a);
    qy.FreeTensor(b);
    c = qz.DeQue<float>();
    AscendC::DataCopy(gz, c, TILE);
    qz.FreeTensor(c);
}

// z = op(x) on this block's tile.
template <typename Op>
__aicore__ inline void UnaryTile(GM_ADDR x, GM_ADDR z, Op op)
{
    BinaryTile(x, x, z, [&](auto& c, auto& a, auto&) { op(c, a); });
}

// The acl runtime for one program: device 0 and a stream.
struct AclSession {
    aclrtStream stream = nullptr;
    AclSession()
    {
        aclInit(nullptr);
        aclrtSetDevice(0);
        aclrtCreateStream(&stream);
    }
    ~AclSession()
    {
        aclrtDestroyStream(stream);
        aclrtResetDevice(0);
        aclFinalize();
    }
};

// COUNT floats of device memory holding `values`.
inline void* ToDevice(const std::vector<float>& values)
{
    void* p = nullptr;
    aclrtMalloc(&p, COUNT * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(p, COUNT * sizeof(float), values.data(), COUNT * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
    return p;
}

// 0.25, 0.5, … and 1, 2, …: inputs with exact sums, products and square roots of squares.
inline std::vector<float> Ramp(float step)
{
    std::vector<float> v(COUNT);
    for (size_t i = 0; i < COUNT; i++) {
        v[i] = step * float(i % 61 + 1);
    }
    return v;
}

// Prints `name: PASS` when the COUNT floats at device `z` equal expected(i) within `tol`
// (relative), else the first element that does not; returns whether it passed.
template <typename F>
bool Check(const char* name, void* z, F expected, float tol = 0.0f)
{
    std::vector<float> got(COUNT);
    aclrtMemcpy(got.data(), COUNT * sizeof(float), z, COUNT * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    for (size_t i = 0; i < COUNT; i++) {
        float want = expected(i);
        float diff = got[i] > want ? got[i] - want : want - got[i];
        if (diff > tol * (want < 0 ? -want : want)) {
            std::printf("%s: FAIL at %zu: %g, expected %g\n", name, i, got[i], want);
            return false;
        }
    }
    std::printf("%s: PASS\n", name);
    return true;
}
