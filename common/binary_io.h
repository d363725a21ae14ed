// Files a program reads and writes, and the promises it keeps about them (README.md, "Data
// safety"):
//   - an input is opened without blocking and must be a regular file: a FIFO, directory,
//     device or a pseudo-file of the kernel (/proc, /sys, debugfs ...: their sizes say nothing
//     about their contents) is refused at once with a message that says what it is; its size
//     (fstat) is checked against the program's limits and shape before any byte is read;
//   - an output is checked before any GPU work (its folder is writable and on a real
//     filesystem, its name fits, the path is not a directory or a device, and --csv and
//     --output are not one file) but nothing is created until there is something to write:
//     the content goes to a temporary file in the same folder and is renamed into place, so a
//     run that stops early (exit 1, 2, 3, a signal) leaves no new file and an existing one
//     unchanged.
// Raw binary files are little-endian elements, row-major for matrices, with no header.
#pragma once

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/vfs.h>
#endif

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

// The kernel's pseudo-filesystems: their files are views of kernel state, not data. A sysfs
// file reports 4096 bytes whatever it holds, a /proc file 0, and writing one changes a kernel
// setting (or fails) instead of storing anything. Returns the filesystem's name when `fd`
// (an open file or folder) lies on one, "" otherwise. The numbers are the f_type values of
// statfs(2) (linux/magic.h).
inline std::string pseudo_filesystem(int fd) {
#if defined(__linux__)
    struct statfs fs;
    if (::fstatfs(fd, &fs) != 0) return "";
    static const struct {
        unsigned long magic;
        const char* name;
    } kPseudo[] = {
        {0x9fa0UL, "procfs (/proc)"},       {0x62656572UL, "sysfs (/sys)"},    {0x64626720UL, "debugfs"},
        {0x74726163UL, "tracefs"},          {0x73636673UL, "securityfs"},      {0x27e0ebUL, "cgroupfs"},
        {0x63677270UL, "cgroup2fs"},        {0x62656570UL, "configfs"},        {0xcafe4a11UL, "bpffs"},
        {0x6165676cUL, "pstore"},           {0xde5e81e4UL, "efivarfs"},        {0xf97cff8cUL, "selinuxfs"},
        {0x65735543UL, "fusectl"},          {0x42494e4dUL, "binfmt_misc"},     {0x1cd1UL, "devpts"},
    };
    const unsigned long type = static_cast<unsigned long>(fs.f_type) & 0xffffffffUL;
    for (const auto& p : kPseudo)
        if (p.magic == type) return p.name;
#else
    (void)fd;
#endif
    return "";
}

// The same for a path (a folder, say); "" when it cannot be opened.
inline std::string pseudo_filesystem(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return "";
    const std::string name = pseudo_filesystem(fd);
    ::close(fd);
    return name;
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
        const std::string pseudo = pseudo_filesystem(fd_);
        if (!pseudo.empty())
            fail("input file '" + path + "' is a pseudo-file of " + pseudo +
                 ", not data (its size says nothing about its content)");
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
    // Before the device probe, without keeping the data: every element is finite (a NaN or
    // an infinity is bad input for a program whose reference cannot check it). Reads the
    // file in 1 MiB pieces at explicit offsets, so read_into still starts at its beginning.
    template <typename T>
    void require_finite() {
        if (sizeof(T) != elem_bytes_) throw std::logic_error("InputFile: element size mismatch");
        std::vector<T> piece((1u << 20) / sizeof(T));
        for (unsigned long long first = 0; first < count(); first += piece.size()) {
            const std::size_t n = static_cast<std::size_t>(
                std::min<unsigned long long>(piece.size(), count() - first));
            read_at(first * sizeof(T), reinterpret_cast<char*>(piece.data()), n * sizeof(T));
            for (std::size_t i = 0; i < n; ++i)
                if (!std::isfinite(piece[i]))
                    throw UsageError("input file '" + path_ + "' holds a value that is not finite (element " +
                                     std::to_string(first + i) + ")");
        }
    }
    // Reads the whole file into `data` (count() elements of T).
    template <typename T>
    void read_into(T* data) {
        static_assert(sizeof(T) > 0, "");
        if (sizeof(T) != elem_bytes_) throw std::logic_error("InputFile: element size mismatch");
        read_at(0, reinterpret_cast<char*>(data), bytes_);
    }
    template <typename T>
    std::vector<T> read_all() {
        std::vector<T> data(count());
        read_into(data.data());
        return data;
    }

  private:
    // `bytes` bytes from byte `offset` on (pread: the file offset is not used).
    void read_at(unsigned long long offset, char* dst, unsigned long long bytes) {
        // Back to blocking reads: the file is regular, so a read cannot wait for a writer.
        ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
        while (bytes > 0) {
            const ssize_t got = ::pread(fd_, dst, bytes > (1ULL << 30) ? (1ULL << 30) : static_cast<std::size_t>(bytes),
                                        static_cast<off_t>(offset));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0)
                throw UsageError("cannot read input file '" + path_ + "'" +
                                 (got < 0 ? std::string(": ") + std::strerror(errno) : std::string(" (short read)")));
            dst += got;
            offset += static_cast<unsigned long long>(got);
            bytes -= static_cast<unsigned long long>(got);
        }
    }
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

namespace detail {
// The folder and the name of a path ("." for a bare name, "/" for /name).
inline std::pair<std::string, std::string> split_path(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) return {".", path};
    return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// What names one file, however it is spelled: its device and inode when it exists (a
// symbolic link and its target agree), else the real path of its folder and its name
// (./a.csv and a.csv agree).
inline std::string file_identity(const std::string& path) {
    struct stat st;
    if (::stat(path.c_str(), &st) == 0)
        return "inode " + std::to_string(static_cast<unsigned long long>(st.st_dev)) + ":" +
               std::to_string(static_cast<unsigned long long>(st.st_ino));
    const std::pair<std::string, std::string> parts = split_path(path);
    char* real = ::realpath(parts.first.c_str(), nullptr);
    const std::string folder = real != nullptr ? real : parts.first;
    std::free(real);
    return "path " + folder + "/" + parts.second;
}

// The outputs this process has checked, as (what, path, identity): --csv and --output
// naming one file would have one write replace the other's, so the second is refused.
struct CheckedOutput {
    std::string what, path, identity;
};
inline std::vector<CheckedOutput>& checked_outputs() {
    static std::vector<CheckedOutput> outputs;
    return outputs;
}

// The longest name the temporary file of write_file_atomically may take from its target's
// name: the target's name may use the whole of NAME_MAX (255 bytes on Linux's filesystems),
// and ".tmp.XXXXXX" must still fit.
constexpr std::size_t kTempNameKeep = 200;
}  // namespace detail

// Checked before any GPU work, creating nothing: `path` can later be written. The path is
// not a directory, FIFO or device; its folder exists, is writable and lies on a real
// filesystem (not /proc, /sys or another of pseudo_filesystem's); its name fits the
// filesystem's limit; and it is not the file another output of this run (another `what`)
// names. `what` names the option ("output file", "CSV file").
inline void check_output_path(const std::string& path, const std::string& what) {
    const std::string cannot = "cannot write " + what + " '" + path + "': ";
    if (path.size() >= 4000) throw UsageError(cannot + "the path is longer than 4000 bytes");
    struct stat st;
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists) {
        if (!S_ISREG(st.st_mode))
            throw UsageError(what + " '" + path + "' is " + file_kind(st.st_mode) + ", not a regular file");
        if (::access(path.c_str(), W_OK) != 0) throw UsageError(cannot + std::strerror(errno));
    }
    const std::pair<std::string, std::string> parts = detail::split_path(path);
    const std::string& dir = parts.first;
    const std::string& name = parts.second;
    if (name.empty()) throw UsageError(cannot + "it names a folder, not a file");
    if (::stat(dir.c_str(), &st) != 0) throw UsageError(cannot + "folder '" + dir + "' " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode)) throw UsageError(cannot + "'" + dir + "' is not a folder");
    if (::access(dir.c_str(), W_OK | X_OK) != 0) throw UsageError(cannot + "folder '" + dir + "' is not writable");
    const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
    const std::size_t limit = name_max > 0 ? static_cast<std::size_t>(name_max) : 255;
    if (name.size() > limit)
        throw UsageError(cannot + "its name is " + std::to_string(name.size()) + " bytes, more than the " +
                         std::to_string(limit) + " its folder allows");
    const std::string pseudo = pseudo_filesystem(dir);
    if (!pseudo.empty())
        throw UsageError(cannot + "folder '" + dir + "' is on " + pseudo + ", a view of the kernel, not storage");
    struct statvfs vfs;
    if (::statvfs(dir.c_str(), &vfs) == 0 && (vfs.f_flag & ST_RDONLY) != 0)
        throw UsageError(cannot + "folder '" + dir + "' is on a read-only filesystem");
    const std::string identity = detail::file_identity(path);
    for (const detail::CheckedOutput& earlier : detail::checked_outputs())
        if (earlier.what != what && earlier.identity == identity)
            throw UsageError(what + " '" + path + "' is the same file as " + earlier.what + " '" + earlier.path +
                             "'; give each its own file");
    detail::checked_outputs().push_back({what, path, identity});
}

// Replaces `path` with `prefix` followed by `bytes` bytes of `data`, atomically: the content
// goes to a temporary file in the same folder, which is renamed over `path` only once it
// is complete. On failure nothing is left and `path` is unchanged (UsageError).
inline void write_file_atomically(const std::string& path, const std::string& what, const std::string& prefix,
                                  const void* data, std::size_t bytes) {
    // In the same folder (rename is atomic only within one filesystem); the target's name,
    // shortened where a long one would leave no room for the suffix.
    const std::pair<std::string, std::string> parts = detail::split_path(path);
    const std::string folder = path.find('/') == std::string::npos ? "" : (parts.first == "/" ? "/" : parts.first + "/");
    std::string tmp = folder + parts.second.substr(0, detail::kTempNameKeep) + ".tmp.XXXXXX";
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

// The end of every program (cw::run_main): standard output is flushed and checked, as GNU
// tools do, so that `--help > /dev/full` or a full disk under `> log` is an error, not a
// silent exit 0. Returns `status`, or kExitUsage with one line on stderr when a write to
// standard output failed (a non-zero status is kept: it says more).
inline int finish_standard_output(const char* program, int status) {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int saved = errno;
        std::fprintf(stderr, "%s: error: cannot write standard output: %s\n", program,
                     saved != 0 ? std::strerror(saved) : "write error");
        return status != kExitOk ? status : kExitUsage;
    }
    return status;
}

// The raw binary result of a run, written once at the end (OutputFile::commit), never
// before: an early stop leaves nothing behind.
template <typename T>
inline void write_binary(const std::string& path, const T* data, std::size_t n) {
    write_file_atomically(path, "output file", std::string(), data, n * sizeof(T));
}

}  // namespace cw
