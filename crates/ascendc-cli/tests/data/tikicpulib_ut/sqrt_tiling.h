// The tiling struct of the sqrt kernel, shared by the kernel, its TilingFunc and the test.
#pragma once
#include <cstdint>

struct SqrtTiling {
    uint32_t count;  // elements per block
    float scale;
};

// What the TilingFunc reads from the compile info.
struct SqrtCompileInfo {
    uint32_t maxBlocks;
};
