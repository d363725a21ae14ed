// Exit statuses shared by every program of the repository (README.md, "Exit status").
#pragma once

namespace cw {

enum ExitCode : int {
    kExitOk = 0,        // every version passed
    kExitWrongResult = 1,  // a GPU result disagreed with the CPU reference
    kExitUsage = 2,     // bad option, bad size or bad input file (reported before any GPU work)
    kExitCuda = 3,      // no usable CUDA device, or a CUDA error
};

}  // namespace cw
