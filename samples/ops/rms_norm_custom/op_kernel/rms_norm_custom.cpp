// y = RmsNorm(x) * gamma over the last axis: each core takes its rows tileRows at a time through
// the RmsNorm high-level API, its last, shorter tile with the tiling op_host made for it.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelRmsNorm {
public:
    __aicore__ inline KernelRmsNorm() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, const RmsNormCustomTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        hLength = t.hLength;
        tileRows = t.tileRows;
        epsilon = static_cast<T>(t.epsilon);
        tileTiling = t.tileTiling;
        uint32_t firstRow;
        if (idx < t.formerNum) {
            rows = t.formerRows;
            firstRow = idx * t.formerRows;
            lastTiling = t.formerLastTiling;
        } else {
            rows = t.tailRows;
            firstRow = t.formerNum * t.formerRows + (idx - t.formerNum) * t.tailRows;
            lastTiling = t.tailLastTiling;
        }
        xGm.SetGlobalBuffer((__gm__ T*)x + firstRow * hLength, rows * hLength);
        yGm.SetGlobalBuffer((__gm__ T*)y + firstRow * hLength, rows * hLength);
        gammaGm.SetGlobalBuffer((__gm__ T*)gamma, hLength);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileRows * hLength * sizeof(T));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileRows * hLength * sizeof(T));
        pipe.InitBuffer(gammaQueue, 1, hLength * sizeof(T));
        pipe.InitBuffer(tmpBuf, t.tmpBytes);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> g = gammaQueue.AllocTensor<T>();
        AscendC::DataCopy(g, gammaGm, hLength);
        gammaQueue.EnQue(g);
        gammaLocal = gammaQueue.DeQue<T>();
        for (uint32_t done = 0; done < rows; done += tileRows) {
            uint32_t n = rows - done < tileRows ? rows - done : tileRows;
            CopyIn(done, n);
            Compute(n == tileRows ? tileTiling : lastTiling);
            CopyOut(done, n);
        }
        gammaQueue.FreeTensor(gammaLocal);
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[row * hLength], n * hLength);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute(const RmsNormTiling& tiling)
    {
        AscendC::LocalTensor<T> xLocal = inQueue.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = outQueue.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        AscendC::RmsNorm<T>(yLocal, xLocal, gammaLocal, tmp, epsilon, tiling);
        outQueue.EnQue<T>(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row, uint32_t n)
    {
        AscendC::LocalTensor<T> yLocal = outQueue.DeQue<T>();
        AscendC::DataCopy(yGm[row * hLength], yLocal, n * hLength);
        outQueue.FreeTensor(yLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueue;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> gammaQueue;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueue;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmpBuf;
    AscendC::GlobalTensor<T> xGm, gammaGm, yGm;
    AscendC::LocalTensor<T> gammaLocal;
    RmsNormTiling tileTiling, lastTiling;
    T epsilon;
    uint32_t hLength;
    uint32_t rows;
    uint32_t tileRows;
};

extern "C" __global__ __aicore__ void rms_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    if (TILING_KEY_IS(1)) {
        KernelRmsNorm<DTYPE_X> op;
        op.Init(x, gamma, y, tilingData);
        op.Process();
    }
}
