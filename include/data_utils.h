// Reading and writing raw .bin files (the inputs and outputs of the golden workflow).
#pragma once

#include <cstdio>
#include <string>

// Reads the file into `buffer` (at most `bufferSize` bytes); `fileSize` receives its size.
inline bool ReadFile(const std::string& filePath, size_t& fileSize, void* buffer, size_t bufferSize) {
    FILE* f = std::fopen(filePath.c_str(), "rb");
    if (f == nullptr) {
        std::fprintf(stderr, "error: cannot open %s\n", filePath.c_str());
        return false;
    }
    std::fseek(f, 0, SEEK_END);
    long size = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    if (size < 0 || static_cast<size_t>(size) > bufferSize) {
        std::fprintf(stderr, "error: %s has %ld bytes, more than the %zu-byte buffer\n",
                     filePath.c_str(), size, bufferSize);
        std::fclose(f);
        return false;
    }
    fileSize = std::fread(buffer, 1, static_cast<size_t>(size), f);
    std::fclose(f);
    return fileSize == static_cast<size_t>(size);
}

// Writes `size` bytes of `buffer` to the file.
inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size) {
    FILE* f = std::fopen(filePath.c_str(), "wb");
    if (f == nullptr) {
        std::fprintf(stderr, "error: cannot create %s\n", filePath.c_str());
        return false;
    }
    size_t written = std::fwrite(buffer, 1, size, f);
    std::fclose(f);
    return written == size;
}
