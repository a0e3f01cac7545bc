// aclFinalize with and without aclInit before it: without, it has nothing to release and
// succeeds quietly; a second aclFinalize is ACL_ERROR_REPEAT_FINALIZE; aclInit works afterwards.
#include <cstdio>

#include "acl/acl.h"

int main()
{
    std::printf("aclFinalize without aclInit: %d\n", aclFinalize());
    std::printf("aclInit: %d\n", aclInit(nullptr));
    std::printf("aclFinalize: %d\n", aclFinalize());
    std::printf("aclFinalize again: %d\n", aclFinalize());
    return 0;
}
