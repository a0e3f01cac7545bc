// How host-side operator code reports misuse: the message names the call, the process (the
// operator's host program run by `ascendc op run`) ends with status 3 and the command shows it,
// followed by the errors the operator logged (OP_LOGE, log/log.h) before it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ascendc_host {

// The lines the operator logged at error level, in order (see ascendc/host/op_log.h).
inline std::vector<std::string>& LoggedErrors() {
    static std::vector<std::string> lines;
    return lines;
}

[[noreturn]] inline void Fail(const std::string& message) {
    std::fflush(stdout);
    std::string text = "error: " + message;
    if (!LoggedErrors().empty()) {
        text += "\n  the operator logged:";
        for (const auto& l : LoggedErrors()) {
            text += "\n    " + l;
        }
    }
    std::fprintf(stderr, "%s\n", text.c_str());
    std::exit(3);
}

}  // namespace ascendc_host
