// File and print helpers of this sample: .bin reading and writing, half printing through
// aclFloat16, and the error-check macros.
#pragma once

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "acl/acl.h"

// Reports a failed acl call (code and message) with the call's file and line.
#define CHECK_ACL(call)                                                                      \
    do {                                                                                     \
        aclError checkAclRet = (call);                                                       \
        if (checkAclRet != ACL_ERROR_NONE) {                                                 \
            const char* checkAclMsg = aclGetRecentErrMsg();                                  \
            std::cerr << __FILE__ << ":" << __LINE__ << ": " #call " failed with acl error " \
                      << checkAclRet << ": " << (checkAclMsg ? checkAclMsg : "") << std::endl; \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

// Ends main with status 1 when a file could not be read or written.
#define CHECK_FILE(call)  \
    do {                  \
        if (!(call)) {    \
            return 1;     \
        }                 \
    } while (0)

// Reads exactly `fileSize` bytes of `filePath` into `buffer` (`bufferSize` bytes).
inline bool ReadFile(const std::string& filePath, size_t fileSize, void* buffer, size_t bufferSize)
{
    std::ifstream file(filePath, std::ios::binary | std::ios::ate);
    if (!file) {
        std::cerr << "cannot open " << filePath << " (run scripts/gen_data.py first)" << std::endl;
        return false;
    }
    size_t size = static_cast<size_t>(file.tellg());
    if (size != fileSize || size > bufferSize) {
        std::cerr << filePath << " has " << size << " bytes, expected " << fileSize << std::endl;
        return false;
    }
    file.seekg(0);
    file.read(static_cast<char*>(buffer), static_cast<std::streamsize>(size));
    return static_cast<bool>(file);
}

// Writes `size` bytes of `buffer` to `filePath`.
inline bool WriteFile(const std::string& filePath, const void* buffer, size_t size)
{
    std::ofstream file(filePath, std::ios::binary);
    if (!file) {
        std::cerr << "cannot create " << filePath << " (does output/ exist?)" << std::endl;
        return false;
    }
    file.write(static_cast<const char*>(buffer), static_cast<std::streamsize>(size));
    return static_cast<bool>(file);
}

// Prints the first `count` halves of `data` as floats.
inline void PrintHalfData(const void* data, size_t count, const char* name)
{
    const aclFloat16* h = static_cast<const aclFloat16*>(data);
    std::cout << name << ":";
    for (size_t i = 0; i < count; i++) {
        std::cout << " " << aclFloat16ToFloat(h[i]);
    }
    std::cout << " ..." << std::endl;
}
