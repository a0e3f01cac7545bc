// GroupBarrier<pipeMode>: an Arrive group of vector blocks releases a Wait group through
// counters in a zeroed GM workspace (512-byte aligned, GetWorkspaceLen() bytes), round after
// round. Atlas A2 only, PipeMode::MTE3_MODE only; the barrier keeps the last 1600 bytes of UB
// and takes its event IDs from the kernel's TPipe. On a cube core it does nothing.
#pragma once

#include "tpipe.h"

extern "C" {
int32_t ascendc_group_barrier_new(const void* pipe, uint8_t mode, const void* workspace, uint32_t arriveSize,
                                  uint32_t waitSize, void** out, AscLoc loc);
void ascendc_group_barrier_free(void* barrier);
int32_t ascendc_group_barrier_sync(void* barrier, uint8_t wait, uint32_t index, AscLoc loc);
uint64_t ascendc_group_barrier_workspace_len(const void* barrier);
}

namespace AscendC {

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
public:
    GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn,
                 detail::Loc loc = detail::Loc()) {
        const void* pipe = detail::currentPipe != nullptr ? detail::currentPipe->Handle() : nullptr;
        detail::Check(ascendc_group_barrier_new(pipe, static_cast<uint8_t>(pipeMode), groupWorkspace, arriveSizeIn,
                                                waitSizeIn, &handle_, loc));
    }
    GroupBarrier(const GroupBarrier&) = delete;
    GroupBarrier& operator=(const GroupBarrier&) = delete;
    ~GroupBarrier() { ascendc_group_barrier_free(handle_); }

    // This block of the Arrive group (arriveIndex in [0, arriveSize - 1]) has done its work.
    void Arrive(uint32_t arriveIndex, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_group_barrier_sync(handle_, 0, arriveIndex, loc));
    }
    // Blocks this Wait-group block (waitIndex in [0, waitSize - 1]) until the Arrive group has
    // arrived in this round.
    void Wait(uint32_t waitIndex, detail::Loc loc = detail::Loc()) {
        detail::Check(ascendc_group_barrier_sync(handle_, 1, waitIndex, loc));
    }
    // The GM bytes the barrier uses: max(arriveSize, waitSize) * 512.
    uint64_t GetWorkspaceLen() const { return ascendc_group_barrier_workspace_len(handle_); }

private:
    void* handle_ = nullptr;
};

}  // namespace AscendC
