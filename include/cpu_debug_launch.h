// CPU-debug launch entry for sources that launch with <<<>>> and include this header:
// AscendC::AscCPUKernelLaunch(numBlocks, l2ctrl, stream, name, kernel, args...) runs the kernel
// on the simulator as ICPU_RUN_KF does. `ascendc run` / `ascendc cxx` turn <<<>>> launches into
// calls of the same launcher themselves, so including this header is optional here.
#pragma once

#include "acl/acl.h"
#include "ascendc/chevron.h"

namespace AscendC {

// Runs `numBlocks` blocks of `kernelFunc(args...)` as a <<<>>> launch does (in the mode of the
// kernel's execution-space qualifier); `l2ctrl` and `stream` are accepted and not used (the launch
// completes before this returns). `name` names the kernel in messages.
template <typename T, typename... Args>
inline void AscCPUKernelLaunch(unsigned numBlocks, void* l2ctrl, aclrtStream stream, const char* name,
                               T kernelFunc, Args... args)
{
    detail::Chevron(detail::Loc(name, 0, 0), name, nullptr, kernelFunc, numBlocks, l2ctrl, stream)(args...);
}

}  // namespace AscendC
