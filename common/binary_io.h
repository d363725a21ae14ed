// Files a program reads and writes, and the promises it keeps about them (README.md, "Data
// safety"):
//   - an input is opened without blocking and must be a regular file: a FIFO, directory,
//     device or /proc file is refused at once with a message that says what it is; its size
//     (fstat) is checked against the program's limits and shape before any byte is read;
//   - an output is checked before any GPU work (its folder is writable, the path is not a
//     directory or a device) but nothing is created until there is something to write: the
//     content goes to a temporary file in the same folder and is renamed into place, so a
//     run that stops early (exit 1, 2, 3, a signal) leaves no new file and an existing one
//     unchanged.
// Raw binary files are little-endian elements, row-major for matrices, with no header.
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"

namespace cw {

// What a path is, in words ("a FIFO", "a directory", ...), from its mode.
inline std::string file_kind(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// Host memory the program may still take (MemAvailable; 0 when unknown).
inline unsigned long long available_host_bytes() {
    std::FILE* f = std::fopen("/proc/meminfo", "r");
    if (f == nullptr) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, f) != nullptr)
        if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    std::fclose(f);
    return kib * 1024ULL;
}

// Refuses (exit 2, before anything is allocated) a size whose host buffers would not fit:
// `bytes` against 90 % of the available memory.
inline void require_host_memory(unsigned long long bytes, const std::string& what) {
    const unsigned long long avail = available_host_bytes();
    if (avail > 0 && bytes > avail / 10 * 9)
        throw UsageError(what + " needs " + std::to_string(bytes >> 20) + " MiB of host memory, " +
                         std::to_string(avail >> 20) + " MiB are available");
}

// An input file, opened (O_NONBLOCK: a FIFO with no writer cannot hang the program) and
// checked: a regular, non-empty file. count() is its size in elements of `elem_bytes`.
class InputFile {
  public:
    InputFile(const std::string& path, std::size_t elem_bytes) : path_(path), elem_bytes_(elem_bytes) {
        fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd_ < 0) throw UsageError("cannot open input file '" + path + "': " + std::strerror(errno));
        struct stat st;
        if (::fstat(fd_, &st) != 0) fail("cannot read input file '" + path + "': " + std::strerror(errno));
        if (!S_ISREG(st.st_mode))
            fail("input file '" + path + "' is " + file_kind(st.st_mode) + ", not a regular file");
        if (st.st_size == 0)
            fail("input file '" + path + "' is empty (or a special file such as /proc's, whose size is unknown)");
        bytes_ = static_cast<unsigned long long>(st.st_size);
        if (bytes_ % elem_bytes != 0)
            fail("input file '" + path + "' has " + std::to_string(bytes_) + " bytes, not a whole number of " +
                 std::to_string(elem_bytes) + "-byte elements");
    }
    ~InputFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    std::size_t count() const { return static_cast<std::size_t>(bytes_ / elem_bytes_); }
    const std::string& path() const { return path_; }
    // The limits, checked before any byte is read: at most max_count elements, and (when
    // multiple_of > 1) a whole number of rows of that many elements.
    void require_count(unsigned long long max_count, const std::string& limit_reason, std::size_t multiple_of = 1,
                       const std::string& shape = "") const {
        if (count() > max_count)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) + " elements, more than " +
                             std::to_string(max_count) + " (" + limit_reason + ")");
        if (multiple_of > 1 && count() % multiple_of != 0)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) +
                             " elements, not a whole number of " + shape);
    }
    void require_exact(std::size_t expected, const std::string& what) const {
        if (count() != expected)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) + " elements, " + what +
                             " needs " + std::to_string(expected));
    }
    // Reads the whole file into `data` (count() elements of T).
    template <typename T>
    void read_into(T* data) {
        static_assert(sizeof(T) > 0, "");
        if (sizeof(T) != elem_bytes_) throw std::logic_error("InputFile: element size mismatch");
        // Back to blocking reads: the file is regular, so a read cannot wait for a writer.
        ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
        char* dst = reinterpret_cast<char*>(data);
        unsigned long long left = bytes_;
        while (left > 0) {
            const ssize_t got = ::read(fd_, dst, left > (1ULL << 30) ? (1ULL << 30) : static_cast<std::size_t>(left));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0)
                throw UsageError("cannot read input file '" + path_ + "'" +
                                 (got < 0 ? std::string(": ") + std::strerror(errno) : std::string(" (short read)")));
            dst += got;
            left -= static_cast<unsigned long long>(got);
        }
    }
    template <typename T>
    std::vector<T> read_all() {
        std::vector<T> data(count());
        read_into(data.data());
        return data;
    }

  private:
    [[noreturn]] void fail(const std::string& message) {
        ::close(fd_);
        fd_ = -1;
        throw UsageError(message);
    }
    std::string path_;
    std::size_t elem_bytes_;
    int fd_ = -1;
    unsigned long long bytes_ = 0;
};

namespace detail {
// The temporary file being written right now, removed by the signal handler if the program
// is stopped while writing it (the only moment a stray file could exist).
inline volatile std::sig_atomic_t& writing_flag() {
    static volatile std::sig_atomic_t flag = 0;
    return flag;
}
inline char* writing_path() {
    static char path[4096];
    return path;
}
extern "C" inline void remove_partial_and_exit(int sig) {
    if (writing_flag()) ::unlink(writing_path());
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
}  // namespace detail

// Installs the handler that removes a half-written temporary file on SIGINT, SIGTERM and
// SIGHUP (cw::run_main calls it once).
inline void install_partial_file_cleanup() {
    std::signal(SIGINT, detail::remove_partial_and_exit);
    std::signal(SIGTERM, detail::remove_partial_and_exit);
    std::signal(SIGHUP, detail::remove_partial_and_exit);
}

// Checked before any GPU work, creating nothing: `path` can later be written (its folder
// exists and is writable; the path is not a directory, FIFO or device). `what` names the
// option ("output file", "CSV file").
inline void check_output_path(const std::string& path, const std::string& what) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            throw UsageError(what + " '" + path + "' is " + file_kind(st.st_mode) + ", not a regular file");
        if (::access(path.c_str(), W_OK) != 0)
            throw UsageError("cannot write " + what + " '" + path + "': " + std::strerror(errno));
    }
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    if (::stat(dir.c_str(), &st) != 0)
        throw UsageError("cannot write " + what + " '" + path + "': folder '" + dir + "' " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) throw UsageError("cannot write " + what + " '" + path + "': '" + dir + "' is not a folder");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw UsageError("cannot write " + what + " '" + path + "': folder '" + dir + "' is not writable");
}

// Replaces `path` with `prefix` followed by `bytes` bytes of `data`, atomically: the content
// goes to a temporary file in the same folder, which is renamed over `path` only once it
// is complete. On failure nothing is left and `path` is unchanged (UsageError).
inline void write_file_atomically(const std::string& path, const std::string& what, const std::string& prefix,
                                  const void* data, std::size_t bytes) {
    std::string tmp = path + ".tmp.XXXXXX";
    std::vector<char> name(tmp.begin(), tmp.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw UsageError("cannot write " + what + " '" + path + "': " + std::strerror(errno));
    tmp = name.data();
    std::snprintf(detail::writing_path(), 4096, "%s", tmp.c_str());
    detail::writing_flag() = 1;
    bool ok = true;
    auto put = [&](const char* p, std::size_t left) {
        while (ok && left > 0) {
            const ssize_t w = ::write(fd, p, left);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) ok = false;
            else p += w, left -= static_cast<std::size_t>(w);
        }
    };
    put(prefix.data(), prefix.size());
    put(static_cast<const char*>(data), bytes);
    struct stat old;
    if (ok && ::stat(path.c_str(), &old) == 0) {
        (void)::fchmod(fd, old.st_mode & 07777);  // an existing file keeps its permissions
    } else if (ok) {
        const mode_t mask = ::umask(0);  // a new file gets what open(..., 0666) would give
        ::umask(mask);
        (void)::fchmod(fd, 0666 & ~mask);
    }
    ok = (::close(fd) == 0) && ok;
    ok = ok && ::rename(tmp.c_str(), path.c_str()) == 0;
    const int saved = errno;
    if (!ok) ::unlink(tmp.c_str());
    detail::writing_flag() = 0;
    if (!ok) throw UsageError("cannot write " + what + " '" + path + "': " + std::strerror(saved));
}

// The raw binary result of a run, written once at the end (OutputFile::commit), never
// before: an early stop leaves nothing behind.
template <typename T>
inline void write_binary(const std::string& path, const T* data, std::size_t n) {
    write_file_atomically(path, "output file", std::string(), data, n * sizeof(T));
}

}  // namespace cw
