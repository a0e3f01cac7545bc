// GroupBarrier through the C++ headers: 2 blocks arrive, 6 wait, for 4 rounds. In round r each
// arriving block adds 100 * r + 12 * (b + 1) into the round's word with SetAtomicAdd and
// DataCopy, then Arrive(b); each waiting block Waits and copies the round's word into its own
// result slot. The output is zeroed with InitOutput and the results with Fill before a SyncAll.
// Prints PASS per case: every waiter saw both arrivals of every round, and the workspace
// counters and GetWorkspaceLen match the documented layout.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

constexpr uint32_t ARRIVE_NUM = 2;
constexpr uint32_t WAIT_NUM = 6;
constexpr uint32_t ROUNDS = 4;

extern "C" __global__ __aicore__ void group_rounds(GM_ADDR bar, GM_ADDR words, GM_ADDR results, GM_ADDR len)
{
    TPipe pipe;
    TQue<TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, 32);
    GlobalTensor<int32_t> wordsGm, resultsGm, myResults;
    GlobalTensor<uint64_t> lenGm;
    wordsGm.SetGlobalBuffer((__gm__ int32_t*)words, ROUNDS * 8);
    resultsGm.SetGlobalBuffer((__gm__ int32_t*)results, ROUNDS * WAIT_NUM * 8);
    lenGm.SetGlobalBuffer((__gm__ uint64_t*)len, 1);
    GroupBarrier<PipeMode::MTE3_MODE> barrier(bar, ARRIVE_NUM, WAIT_NUM);
    uint32_t id = GetBlockIdx();
    // Each block clears its share: 4 words, 24 result elements.
    InitOutput<int32_t>(wordsGm[id * ROUNDS], ROUNDS, 0);
    constexpr uint32_t SHARE = ROUNDS * WAIT_NUM * 8 / (ARRIVE_NUM + WAIT_NUM);
    myResults.SetGlobalBuffer((__gm__ int32_t*)results + id * SHARE, SHARE);
    Fill(myResults, SHARE, -1);
    SyncAll();
    if (id == 0) {
        lenGm.SetValue(0, barrier.GetWorkspaceLen());
    }
    for (uint32_t r = 0; r < ROUNDS; r++) {
        LocalTensor<int32_t> t = que.AllocTensor<int32_t>();
        if (id < ARRIVE_NUM) {
            Duplicate(t, 0, 8);
            PipeBarrier<PIPE_ALL>();
            t.SetValue(0, 100 * r + 12 * (id + 1));
            SetFlag<HardEvent::S_MTE3>(0);
            WaitFlag<HardEvent::S_MTE3>(0);
            SetAtomicAdd<int32_t>();
            DataCopy(wordsGm[r * 8], t, 8);
            DisableDmaAtomic();
            barrier.Arrive(id);
        } else {
            barrier.Wait(id - ARRIVE_NUM);
            DataCopy(t, wordsGm[r * 8], 8);
            PipeBarrier<PIPE_ALL>();
            DataCopy(resultsGm[(r * WAIT_NUM + id - ARRIVE_NUM) * 8], t, 8);
        }
        PipeBarrier<PIPE_ALL>();
        que.FreeTensor(t);
    }
}

int main()
{
    uint8_t* bar = (uint8_t*)GmAlloc(WAIT_NUM * 512);
    int32_t* words = (int32_t*)GmAlloc(ROUNDS * 32 + ARRIVE_NUM * WAIT_NUM * 32);
    int32_t* results = (int32_t*)GmAlloc(ROUNDS * WAIT_NUM * 32);
    uint64_t* len = (uint64_t*)GmAlloc(8);
    ICPU_RUN_KF(group_rounds, ARRIVE_NUM + WAIT_NUM, bar, (GM_ADDR)words, (GM_ADDR)results, (GM_ADDR)len);
    bool rounds = true;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        int32_t want = 2 * 100 * r + 12 + 24;
        for (uint32_t w = 0; w < WAIT_NUM; w++) {
            rounds = rounds && results[(r * WAIT_NUM + w) * 8] == want && results[(r * WAIT_NUM + w) * 8 + 1] == 0;
        }
    }
    bool layout = *len == WAIT_NUM * 512;
    for (uint32_t slot = 0; slot < WAIT_NUM; slot++) {
        const uint32_t* s = (const uint32_t*)(bar + slot * 512);
        layout = layout && s[0] == ARRIVE_NUM * ROUNDS && s[16] == WAIT_NUM * ROUNDS;
    }
    std::printf("GroupBarrier rounds: %s\n", rounds ? "PASS" : "FAIL");
    std::printf("GroupBarrier workspace: %s\n", layout ? "PASS" : "FAIL");
    GmFree(bar);
    GmFree(words);
    GmFree(results);
    GmFree(len);
    return rounds && layout ? 0 : 1;
}
