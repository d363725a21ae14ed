// printf-style formatting into a std::string, for result lines and messages
// (e.g. cw::format("%.4f ms", ms)); the compiler checks the arguments against the format.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

namespace cw {

#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
inline std::string format(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int length = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out;
    if (length > 0) {
        std::vector<char> buffer(static_cast<std::size_t>(length) + 1);
        std::vsnprintf(buffer.data(), buffer.size(), fmt, again);
        out.assign(buffer.data(), static_cast<std::size_t>(length));
    }
    va_end(again);
    return out;
}

}  // namespace cw
