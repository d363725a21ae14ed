// The host side of the shared layer, for .cpp and .cu files alike (no CUDA headers here, so
// CPU references and their unit tests build with the host compiler alone).
#pragma once

#include "binary_io.h"
#include "csv.h"
#include "data.h"
#include "exit_codes.h"
#include "format.h"
#include "options.h"
#include "progress.h"
#include "registry.h"
#include "timing.h"
#include "validate.h"
