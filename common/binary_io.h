// Raw little-endian binary input and output (--input=FILE, --output=FILE): the file is the
// elements themselves, row-major for matrices, with no header. Every problem with an input
// file is a UsageError naming the file.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "options.h"

namespace cw {

// Reads a whole file of T. expected_count == 0 accepts any non-zero whole number of
// elements; otherwise the file must hold exactly expected_count elements.
template <typename T>
inline std::vector<T> read_binary(const std::string& path, std::size_t expected_count = 0) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr)
        throw UsageError("cannot open input file '" + path + "': " + std::strerror(errno));
    long long bytes = -1;
    if (std::fseek(f, 0, SEEK_END) == 0) bytes = std::ftell(f);
    if (bytes < 0 || std::fseek(f, 0, SEEK_SET) != 0) {
        std::fclose(f);
        throw UsageError("cannot read input file '" + path + "' (not a regular file?)");
    }
    const std::string elem = std::to_string(sizeof(T)) + "-byte elements";
    if (bytes == 0) {
        std::fclose(f);
        throw UsageError("input file '" + path + "' is empty");
    }
    if (bytes % static_cast<long long>(sizeof(T)) != 0) {
        std::fclose(f);
        throw UsageError("input file '" + path + "' has " + std::to_string(bytes) +
                         " bytes, not a whole number of " + elem);
    }
    const std::size_t count = static_cast<std::size_t>(bytes) / sizeof(T);
    if (expected_count != 0 && count != expected_count) {
        std::fclose(f);
        throw UsageError("input file '" + path + "' holds " + std::to_string(count) + " " + elem +
                         ", expected " + std::to_string(expected_count));
    }
    std::vector<T> data(count);
    const std::size_t got = std::fread(data.data(), sizeof(T), count, f);
    std::fclose(f);
    if (got != count) throw UsageError("cannot read input file '" + path + "' (short read)");
    return data;
}

// Writes n elements; a failure (unwritable path, full disk) is a UsageError.
template <typename T>
inline void write_binary(const std::string& path, const T* data, std::size_t n) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr)
        throw UsageError("cannot open output file '" + path + "': " + std::strerror(errno));
    const std::size_t put = std::fwrite(data, sizeof(T), n, f);
    const bool closed = std::fclose(f) == 0;
    if (put != n || !closed) throw UsageError("cannot write output file '" + path + "'");
}

// Checks before any GPU work that an output file can be created (so a long run does not end
// in an error). Leaves an empty file behind.
inline void check_writable(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "ab");
    if (f == nullptr)
        throw UsageError("cannot open output file '" + path + "': " + std::strerror(errno));
    std::fclose(f);
}

}  // namespace cw
