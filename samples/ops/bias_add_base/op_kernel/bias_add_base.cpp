// y = x * alpha + bias (then max(y, 0) with relu): each core streams its rows tile by tile,
// the bias tile of the same columns beside each x tile, double-buffered.
#include "kernel_operator.h"
#include "bias_add_base_tiling_data.h"

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelBiasAddBase {
public:
    __aicore__ inline KernelBiasAddBase() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR bias, GM_ADDR y, const BiasAddBaseTilingData& t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        rows = idx + 1 == AscendC::GetBlockNum() ? t.lastCoreRows : t.rowsPerCore;
        cols = t.cols;
        tile = t.tileCols;
        alpha = static_cast<T>(t.alpha);
        relu = t.relu != 0;
        uint64_t start = static_cast<uint64_t>(idx) * t.rowsPerCore * cols;
        xGm.SetGlobalBuffer((__gm__ T*)x + start, rows * cols);
        yGm.SetGlobalBuffer((__gm__ T*)y + start, rows * cols);
        biasGm.SetGlobalBuffer((__gm__ T*)bias, cols);
        pipe.InitBuffer(inX, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(inBias, BUFFER_NUM, tile * sizeof(T));
        pipe.InitBuffer(outY, BUFFER_NUM, tile * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        uint32_t tilesPerRow = cols / tile;
        for (uint32_t r = 0; r < rows; ++r) {
            for (uint32_t j = 0; j < tilesPerRow; ++j) {
                CopyIn(r, j);
                Compute();
                CopyOut(r, j);
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r, uint32_t j)
    {
        AscendC::LocalTensor<T> xl = inX.AllocTensor<T>();
        AscendC::LocalTensor<T> bl = inBias.AllocTensor<T>();
        AscendC::DataCopy(xl, xGm[r * cols + j * tile], tile);
        AscendC::DataCopy(bl, biasGm[j * tile], tile);
        inX.EnQue(xl);
        inBias.EnQue(bl);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<T> xl = inX.DeQue<T>();
        AscendC::LocalTensor<T> bl = inBias.DeQue<T>();
        AscendC::LocalTensor<T> yl = outY.AllocTensor<T>();
        AscendC::Muls(yl, xl, alpha, tile);
        AscendC::Add(yl, yl, bl, tile);
        if (relu) {
            AscendC::Maxs(yl, yl, T(0), tile);
        }
        outY.EnQue(yl);
        inX.FreeTensor(xl);
        inBias.FreeTensor(bl);
    }
    __aicore__ inline void CopyOut(uint32_t r, uint32_t j)
    {
        AscendC::LocalTensor<T> yl = outY.DeQue<T>();
        AscendC::DataCopy(yGm[r * cols + j * tile], yl, tile);
        outY.FreeTensor(yl);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inX, inBias;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outY;
    AscendC::GlobalTensor<T> xGm, biasGm, yGm;
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t tile = 0;
    T alpha;
    bool relu = false;
};

extern "C" __global__ __aicore__ void bias_add_base(GM_ADDR x, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(BiasAddBaseTilingData);
    GET_TILING_DATA_WITH_STRUCT(BiasAddBaseTilingData, tilingData, tiling);
    KernelBiasAddBase<DTYPE_X> op;
    op.Init(x, bias, y, tilingData);
    op.Process();
}
