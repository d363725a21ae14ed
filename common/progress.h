// One progress line per step of a long run: "[7/30] threads=128 blocks=32 ... 1.38 ms PASS".
#pragma once

#include <cstdio>
#include <string>

namespace cw {

inline void progress_line(int step, int total, const std::string& what) {
    std::printf("[%d/%d] %s\n", step, total, what.c_str());
    std::fflush(stdout);
}

}  // namespace cw
