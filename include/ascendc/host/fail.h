// How host-side operator code reports misuse: the message names the call, the process (the
// operator's host program run by `ascendc op run`) ends with status 3 and the command shows it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace ascendc_host {

[[noreturn]] inline void Fail(const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "error: %s\n", message.c_str());
    std::exit(3);
}

}  // namespace ascendc_host
