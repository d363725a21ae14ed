// Files a program reads and writes, and the promises it keeps about them (README.md, "Data
// safety"):
//   - an input is opened without blocking and must be a regular file: a FIFO, directory,
//     device or a pseudo-file of the kernel (/proc, /sys, debugfs ...: their sizes say nothing
//     about their contents) is refused at once with a message that says what it is; its size
//     (fstat) is checked against the program's limits, its shape and the host memory before
//     any byte is read; its contents (NaN, infinity) only as the run reads them, once;
//   - an output is checked before any GPU work (its folder is writable and on a real
//     filesystem, its name fits, the path is not a directory or a device, and --csv and
//     --output are not one file) but nothing is created until there is something to write:
//     the content goes to a temporary file in the same folder and is renamed into place, so a
//     run that stops early (exit 1, 2, 3, a signal) leaves no new file and an existing one
//     unchanged; an existing CSV gets its rows appended instead, neither read nor copied, and
//     is cut back to its old size if the commit fails or a signal stops it; a run's outputs
//     (--csv and --output) are committed all together or not at all (commit_files).
// Raw binary files are little-endian elements, row-major for matrices, with no header.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <poll.h>
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
    // multiple_of > 1) a whole number of rows of that many elements; then the file's bytes
    // against the host memory (require_host_memory): a 1 TB sparse file is refused at once.
    void require_count(unsigned long long max_count, const std::string& limit_reason, std::size_t multiple_of = 1,
                       const std::string& shape = "") const {
        if (count() > max_count)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) + " elements, more than " +
                             std::to_string(max_count) + " (" + limit_reason + ")");
        if (multiple_of > 1 && count() % multiple_of != 0)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) +
                             " elements, not a whole number of " + shape);
        require_host_memory(bytes_, "input file '" + path_ + "'");
    }
    void require_exact(std::size_t expected, const std::string& what) const {
        if (count() != expected)
            throw UsageError("input file '" + path_ + "' holds " + std::to_string(count()) + " elements, " + what +
                             " needs " + std::to_string(expected));
        require_host_memory(bytes_, "input file '" + path_ + "'");
    }
    // Every element must be finite (a NaN or an infinity is bad input for a program whose
    // reference cannot check it). Reads nothing here: read_into checks each piece as it
    // reads it, so the contents are read once, and only by a run that happens (after the
    // options, the device probe and the memory check); a bad value is a UsageError (exit 2)
    // naming the first such element.
    template <typename T>
    void require_finite() {
        if (sizeof(T) != elem_bytes_) throw std::logic_error("InputFile: element size mismatch");
        first_not_finite_ = &first_not_finite<T>;
    }
    // Reads the whole file into `data` (count() elements of T), in pieces of at most 64 MiB,
    // each checked by require_finite's rule when it was asked for.
    template <typename T>
    void read_into(T* data) {
        static_assert(sizeof(T) > 0, "");
        if (sizeof(T) != elem_bytes_) throw std::logic_error("InputFile: element size mismatch");
        char* dst = reinterpret_cast<char*>(data);
        const unsigned long long piece = (64ULL << 20) / elem_bytes_ * elem_bytes_;
        for (unsigned long long done = 0; done < bytes_; done += piece) {
            const unsigned long long n = std::min(piece, bytes_ - done);
            read_at(done, dst + done, n);
            if (first_not_finite_ == nullptr) continue;
            const long long bad = first_not_finite_(dst + done, static_cast<std::size_t>(n / elem_bytes_));
            if (bad >= 0)
                throw UsageError("input file '" + path_ + "' holds a value that is not finite (element " +
                                 std::to_string(done / elem_bytes_ + static_cast<unsigned long long>(bad)) + ")");
        }
    }
    template <typename T>
    std::vector<T> read_all() {
        std::vector<T> data(count());
        read_into(data.data());
        return data;
    }

  private:
    template <typename T>
    static long long first_not_finite(const char* bytes, std::size_t n) {
        const T* v = reinterpret_cast<const T*>(bytes);
        for (std::size_t i = 0; i < n; ++i)
            if (!std::isfinite(v[i])) return static_cast<long long>(i);
        return -1;
    }
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
    long long (*first_not_finite_)(const char*, std::size_t) = nullptr;  // set by require_finite
};

namespace detail {
// An appended file cut back to its old size, best effort: it runs while another error is being
// reported (or in the signal handler), so its own failure has nothing better to do. A variable,
// not a (void) cast: nvcc's front end still warns about a warn_unused_result function's value
// cast away (glibc's ftruncate under _FORTIFY_SOURCE, #1650-D, an error with WERROR=1).
inline void truncate_back(int fd, off_t size) {
    const int ignored = ::ftruncate(fd, size);
    (void)ignored;
}

// What a commit has under way (at most kTempSlots at once): its temporary files, removed by the
// signal handler if the program is stopped while they exist (the only moments a stray file
// could exist), and the files it appends to, cut back to their old size by the handler. A
// slot is filled while it is free, then marked used.
constexpr int kTempSlots = 4;
struct TempSlot {
    volatile std::sig_atomic_t used;
    char path[4096];  // a temporary file to remove, when fd < 0
    int fd;           // a file being appended to (open), to cut back to `size` bytes
    off_t size;
};
inline TempSlot* temp_slots() {
    static TempSlot slots[kTempSlots];
    return slots;
}
// The signals that end a program and are cleaned up after: Ctrl-C, kill and Slurm's time
// limit or scancel, a closed terminal, Ctrl-\.
inline const int* terminating_signals() {
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, 0};
    return sigs;
}
// While a DeferSignals lives (a temporary's creation and registration, a commit's renames),
// a terminating signal is only noted, whichever thread it reaches (the CUDA runtime's and
// OpenMP's threads do not block signals; sigprocmask would hold back only this one's), and
// acted on when the last DeferSignals ends.
inline volatile std::sig_atomic_t& defer_depth() {
    static volatile std::sig_atomic_t depth = 0;
    return depth;
}
inline volatile std::sig_atomic_t& deferred_signal() {
    static volatile std::sig_atomic_t sig = 0;
    return sig;
}
extern "C" inline void remove_partial_and_reraise(int sig) {
    if (defer_depth() > 0) {
        deferred_signal() = sig;
        return;
    }
    for (int i = 0; i < kTempSlots; ++i) {
        const TempSlot& slot = temp_slots()[i];
        if (!slot.used) continue;
        if (slot.fd >= 0) truncate_back(slot.fd, slot.size);  // async-signal-safe, as unlink is
        else ::unlink(slot.path);
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
class DeferSignals {
  public:
    DeferSignals() { defer_depth() = defer_depth() + 1; }
    ~DeferSignals() {
        defer_depth() = defer_depth() - 1;
        const int sig = deferred_signal();
        if (defer_depth() == 0 && sig != 0) remove_partial_and_reraise(sig);  // ends the program
    }
    DeferSignals(const DeferSignals&) = delete;
    DeferSignals& operator=(const DeferSignals&) = delete;
    // A terminating signal arrived meanwhile (it will end the program when this ends).
    static bool pending() { return deferred_signal() != 0; }
};
// A temporary file (`path`), or a file appended to (`fd`, its size before: `size`).
inline int register_temp(const std::string& path, int fd = -1, off_t size = 0) {
    for (int i = 0; i < kTempSlots; ++i) {
        TempSlot& slot = temp_slots()[i];
        if (slot.used) continue;
        std::snprintf(slot.path, sizeof slot.path, "%s", path.c_str());
        slot.fd = fd;
        slot.size = size;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        slot.used = 1;
        return i;
    }
    throw std::logic_error("more temporary files at once than binary_io.h keeps track of");
}
inline void release_temp(int slot) {
    if (slot >= 0) temp_slots()[slot].used = 0;
}
}  // namespace detail

// How every program meets a signal (cw::run_main calls it once):
//   - SIGINT, SIGTERM, SIGHUP and SIGQUIT end it as they would, after removing the temporary
//     files of a commit under way (a signal the parent set to be ignored stays ignored: nohup);
//   - SIGPIPE and SIGXFSZ are ignored: a write to a closed pipe or past the file-size limit
//     (ulimit -f) fails with EPIPE or EFBIG instead, which the program reports like any write
//     error (one line, exit 2; a commit's temporary files removed, nothing committed).
inline void install_partial_file_cleanup() {
    for (const int* s = detail::terminating_signals(); *s != 0; ++s) {
        struct sigaction old;
        if (::sigaction(*s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        std::signal(*s, detail::remove_partial_and_reraise);
    }
    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGXFSZ, SIG_IGN);
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
    // A symbolic link that leads back to itself names no file: the commit's rename would replace
    // the link with the file instead of writing where it points.
    if (!exists && errno == ELOOP) throw UsageError(cannot + std::strerror(errno));
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

// One file of a commit: `path` (the option's `what`: "output file", "CSV file") is to hold
// `prefix` followed by `bytes` bytes of `data`; with `append`, the existing file keeps what it
// holds and gets them at its end (a CSV's rows: the file is neither read nor copied).
struct PendingFile {
    std::string path, what, prefix;
    const void* data = nullptr;
    std::size_t bytes = 0;
    bool append = false;
};

namespace detail {
// A name in the folder of `path` for a temporary or a backup, from the target's name
// (shortened where a long one would leave no room for the suffix) and `suffix` ("tmp").
inline std::string sibling_template(const std::string& path, const char* suffix) {
    const std::pair<std::string, std::string> parts = split_path(path);
    const std::string folder = path.find('/') == std::string::npos ? "" : (parts.first == "/" ? "/" : parts.first + "/");
    return folder + parts.second.substr(0, kTempNameKeep) + "." + suffix + ".XXXXXX";
}
// Writes `left` bytes from `p` to `fd`; false, errno set, when a write fails.
inline bool write_whole(int fd, const char* p, std::size_t left) {
    while (left > 0) {
        const ssize_t w = ::write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            if (w == 0) errno = EIO;
            return false;
        }
        p += w, left -= static_cast<std::size_t>(w);
    }
    return true;
}
// A pending file's prefix, then its data.
inline bool write_content(int fd, const PendingFile& file) {
    return write_whole(fd, file.prefix.data(), file.prefix.size()) &&
           write_whole(fd, static_cast<const char*>(file.data), file.bytes);
}
// Writes `file`'s content into a new temporary file beside it (registered for the signal
// handler); returns its slot and sets `tmp`, or sets `error` (errno) and returns -1.
inline int write_temporary(const PendingFile& file, std::string* tmp, int* error) {
    std::vector<char> name;
    const std::string pattern = sibling_template(file.path, "tmp");
    name.assign(pattern.begin(), pattern.end());
    name.push_back('\0');
    int fd = -1, slot = -1;
    {
        DeferSignals defer;  // no signal between the file's creation and its registration
        fd = ::mkstemp(name.data());
        if (fd < 0) {
            *error = errno;
            return -1;
        }
        slot = register_temp(name.data());
    }
    *tmp = name.data();
    bool ok = write_content(fd, file);
    int saved = ok ? 0 : errno;
    struct stat old;
    if (ok && ::stat(file.path.c_str(), &old) == 0) {
        (void)::fchmod(fd, old.st_mode & 07777);  // an existing file keeps its permissions
    } else if (ok) {
        const mode_t mask = ::umask(0);  // a new file gets what open(..., 0666) would give
        ::umask(mask);
        (void)::fchmod(fd, 0666 & ~mask);
    }
    if (::close(fd) != 0 && ok) ok = false, saved = errno;
    if (ok) return slot;
    ::unlink(tmp->c_str());
    release_temp(slot);
    *error = saved;
    return -1;
}
// Appends `file`'s content to the existing file, then flushes it to the disk (fsync), the
// file registered meanwhile for the signal handler, which cuts it back to its old size.
// Returns the slot, the open file (*fd) and its old size (*size); or -1 with `error` set and
// the file as it was.
inline int append_content(const PendingFile& file, int* fd, off_t* size, int* error) {
    *fd = ::open(file.path.c_str(), O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    *error = *fd < 0 ? errno : 0;
    if (*error == 0 && ::fstat(*fd, &st) != 0) *error = errno;
    else if (*error == 0 && !S_ISREG(st.st_mode)) *error = EINVAL;  // a regular file before the run, replaced since
    if (*error != 0) {
        if (*fd >= 0) ::close(*fd);
        return -1;
    }
    *size = st.st_size;
    const int slot = register_temp("", *fd, *size);
    if (write_content(*fd, file) && ::fsync(*fd) == 0) return slot;
    *error = errno;
    truncate_back(*fd, *size);
    ::close(*fd);
    release_temp(slot);
    return -1;
}
// A hard link to the existing `path` beside it, so that a commit can put it back; "" when
// none could be made.
inline std::string backup_link(const std::string& path) {
    const std::string pattern = sibling_template(path, "old");
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        const int fd = ::mkstemp(name.data());  // a free name, then the link in its place
        if (fd < 0) return "";
        ::close(fd);
        ::unlink(name.data());
        if (::link(path.c_str(), name.data()) == 0) return name.data();
        if (errno != EEXIST) return "";
    }
    return "";
}

// One commit_files under way. Per file: its slot in the signal handler's table (-1 once let
// go), and its temporary and the backup link of the existing target it is renamed over; or,
// for an append, the open file and its size before. `order`: the files to rename.
struct Commit {
    explicit Commit(const std::vector<PendingFile>& f)
        : files(f), tmp(f.size()), backup(f.size()), slot(f.size(), -1), fd(f.size(), -1), old_size(f.size(), 0),
          existed(f.size(), false) {}
    const std::vector<PendingFile>& files;
    std::vector<std::string> tmp, backup;
    std::vector<int> slot, fd;
    std::vector<off_t> old_size;
    std::vector<bool> existed;
    std::vector<std::size_t> order;
};

[[noreturn]] inline void commit_error(const PendingFile& f, int error, const std::string& more) {
    throw UsageError("cannot write " + f.what + " '" + f.path + "': " + std::strerror(error) + more);
}

// Everything still held, undone: the temporaries not renamed removed, the appends cut back to
// their old size.
inline void discard_writes(Commit& c) {
    for (std::size_t i = 0; i < c.files.size(); ++i) {
        if (c.slot[i] < 0) continue;
        if (c.files[i].append) {
            truncate_back(c.fd[i], c.old_size[i]);
            ::close(c.fd[i]);
        } else {
            ::unlink(c.tmp[i].c_str());
        }
        release_temp(c.slot[i]);
        c.slot[i] = -1;
    }
}

// Every content written, no target replaced yet: the temporaries first, then the appends (which
// change their file: only once every temporary is whole). A failure undoes all of it.
inline void write_contents(Commit& c) {
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < c.files.size(); ++i) {
            if (c.files[i].append != (pass == 1)) continue;
            int error = 0;
            c.slot[i] = c.files[i].append ? append_content(c.files[i], &c.fd[i], &c.old_size[i], &error)
                                          : write_temporary(c.files[i], &c.tmp[i], &error);
            if (c.slot[i] >= 0) continue;
            discard_writes(c);
            commit_error(c.files[i], error, c.files.size() > 1 ? " (nothing written)" : "");
        }
}

// The temporaries to rename: new files first, then existing ones, so that only an existing
// file renamed before another needs a backup.
inline void plan_renames(Commit& c) {
    for (std::size_t i = 0; i < c.files.size(); ++i) {
        struct stat st;
        c.existed[i] = ::stat(c.files[i].path.c_str(), &st) == 0;
    }
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t i = 0; i < c.files.size(); ++i)
            if (!c.files[i].append && c.existed[i] == (pass == 1)) c.order.push_back(i);
}

// Renames the temporaries in order, each existing target linked to a backup first. Returns how
// many were renamed: all, or up to the one that failed (`error` set). `can_undo`: every
// existing file renamed over has a backup.
inline std::size_t rename_temporaries(Commit& c, int* error, bool* can_undo) {
    std::size_t renamed = 0;
    for (; renamed < c.order.size(); ++renamed) {
        const std::size_t i = c.order[renamed];
        if (c.existed[i]) {
            c.backup[i] = backup_link(c.files[i].path);
            // Only the last file may go without one (a filesystem without hard links): nothing
            // after it can fail, and a signal during the renames then finds the commit whole.
            if (c.backup[i].empty() && renamed + 1 < c.order.size()) {
                *error = errno != 0 ? errno : EIO;
                return renamed;
            }
            *can_undo = *can_undo && !c.backup[i].empty();
        }
        if (::rename(c.tmp[i].c_str(), c.files[i].path.c_str()) != 0) {
            *error = errno;
            return renamed;
        }
        release_temp(c.slot[i]);
        c.slot[i] = -1;
    }
    return renamed;
}

// The first `renamed` renames put back (a new file removed, an existing one restored from its
// backup), and the backup of the one that failed removed. Returns whether an existing file
// could not be put back.
inline bool undo_renames(Commit& c, std::size_t renamed) {
    bool lost = false;
    for (std::size_t k = renamed; k-- > 0;) {
        const std::size_t i = c.order[k];
        if (c.existed[i]) lost = ::rename(c.backup[i].c_str(), c.files[i].path.c_str()) != 0 || lost;
        else ::unlink(c.files[i].path.c_str());
    }
    if (renamed < c.order.size() && !c.backup[c.order[renamed]].empty()) ::unlink(c.backup[c.order[renamed]].c_str());
    return lost;
}

// The commit is whole: the backups removed, the appended files closed and let go.
inline void release_commit(Commit& c) {
    for (std::size_t i = 0; i < c.files.size(); ++i) {
        if (!c.backup[i].empty()) ::unlink(c.backup[i].c_str());
        if (c.files[i].append && c.slot[i] >= 0) {
            ::close(c.fd[i]);
            release_temp(c.slot[i]);
            c.slot[i] = -1;
        }
    }
}
}  // namespace detail

// Commits a run's files all together or not at all (README.md, "Data safety"): each content
// goes to a temporary file beside its target, or is appended to its target (a PendingFile's
// `append`) and flushed; nothing is renamed until every one is whole. Then the temporaries are
// renamed over their targets with the terminating signals deferred. If a write, an append or a
// rename fails (a full disk, a file-size limit, a folder removed meanwhile), or a signal arrived
// during the renames, what was renamed is put back (a new file removed, an existing one
// restored from a hard link made just before), every temporary is removed and every append cut
// back to the file's old size, and the failure is a UsageError naming the file (the signal
// ends the program): no target changed.
inline void commit_files(const std::vector<PendingFile>& files) {
    detail::Commit c(files);
    detail::write_contents(c);
    // Signals wait until the commit is whole or undone.
    detail::DeferSignals defer;
    detail::plan_renames(c);
    int error = 0;
    bool can_undo = true;
    const std::size_t renamed = detail::rename_temporaries(c, &error, &can_undo);
    const bool interrupted = renamed == c.order.size() && can_undo && detail::DeferSignals::pending();
    if (renamed < c.order.size() || interrupted) {
        const bool lost = detail::undo_renames(c, renamed);
        detail::discard_writes(c);
        if (interrupted) return;  // the signal ends the program when `defer` ends
        detail::commit_error(files[c.order[renamed]], error,
                             lost ? " (and an existing file could not be put back)" : (files.size() > 1 ? " (nothing written)" : ""));
    }
    detail::release_commit(c);
}

// Replaces `path` with `prefix` followed by `bytes` bytes of `data`, atomically: the content
// goes to a temporary file in the same folder, which is renamed over `path` only once it
// is complete. On failure nothing is left and `path` is unchanged (UsageError).
inline void write_file_atomically(const std::string& path, const std::string& what, const std::string& prefix,
                                  const void* data, std::size_t bytes) {
    PendingFile file;
    file.path = path, file.what = what, file.prefix = prefix, file.data = data, file.bytes = bytes;
    commit_files({file});
}

// Standard output, flushed and checked: "" when every write so far succeeded, else why not.
// (A write that failed inside an earlier printf left its errno behind it; a pipe whose
// reader is gone is then recognised by poll's POLLERR, so that it is still named.)
inline std::string standard_output_error() {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return "";
    int error = errno;
    struct pollfd out = {STDOUT_FILENO, POLLOUT, 0};
    if (error == 0 && ::poll(&out, 1, 0) == 1 && (out.revents & POLLERR) != 0) error = EPIPE;
    return std::string("cannot write standard output: ") + (error != 0 ? std::strerror(error) : "write error");
}

// A run stops (UsageError, exit 2, nothing committed) as soon as its standard output cannot
// be written (/dev/full, a full disk under `> log`, a closed pipe): called at every progress
// line and before the commit.
inline void require_standard_output() {
    const std::string error = standard_output_error();
    if (!error.empty()) throw UsageError(error);
}

// The end of every program (cw::run_main): standard output is flushed and checked, as GNU
// tools do, so that `--help > /dev/full` or a full disk under `> log` is an error, not a
// silent exit 0. Returns `status`, or kExitUsage with one line on stderr when a write to
// standard output failed (a non-zero status is kept: it says more).
inline int finish_standard_output(const char* program, int status) {
    const std::string error = standard_output_error();
    if (error.empty()) return status;
    std::fprintf(stderr, "%s: error: %s\n", program, error.c_str());
    return status != kExitOk ? status : kExitUsage;
}

// The raw binary result of a run, written once at the end (OutputFile::commit), never
// before: an early stop leaves nothing behind.
template <typename T>
inline void write_binary(const std::string& path, const T* data, std::size_t n) {
    write_file_atomically(path, "output file", std::string(), data, n * sizeof(T));
}

}  // namespace cw
