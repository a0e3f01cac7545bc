// A program that never ends on its own: `main PIDFILE` writes its pid and executable path, then
// waits for a signal (the robustness test stops `ascendc run` with SIGTERM).
#include <climits>
#include <cstdio>
#include <unistd.h>

#include "tikicpulib.h"

int main(int argc, char** argv)
{
    if (argc < 2) {
        return 2;
    }
    char exe[PATH_MAX] = {0};
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    char tmp[PATH_MAX];
    std::snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
    FILE* f = std::fopen(tmp, "w");
    std::fprintf(f, "%d %s\n", (int)getpid(), exe);
    std::fclose(f);
    std::rename(tmp, argv[1]);
    for (;;) {
        pause();
    }
}
