// CSV results: rows with named columns, the core columns every program's CSV starts with,
// and a sink that appends the rows of one run to a file all together or not at all.
//
// Core columns (README.md, "CSV"), in this order:
//   assignment, version, validated, is_baseline, device, compute_capability, driver,
//   runtime, <size columns: n, or m and n>, threads, blocks, kernel_ms, kernel_ms_scope,
//   bandwidth_GBps, pct_of_copy_bw, baseline_ms, speedup_vs_baseline, result_ok
// then whatever the assignment's tables need. "Not applicable" is always an empty cell.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary_io.h"
#include "options.h"

namespace cw {

class CsvRow {
  public:
    CsvRow& add(const std::string& column, const std::string& value) {
        cells_.emplace_back(column, quote(value));
        return *this;
    }
    CsvRow& add(const std::string& column, const char* value) { return add(column, std::string(value)); }
    CsvRow& add(const std::string& column, long long value) {
        cells_.emplace_back(column, std::to_string(value));
        return *this;
    }
    CsvRow& add(const std::string& column, int value) { return add(column, static_cast<long long>(value)); }
    CsvRow& add(const std::string& column, unsigned long long value) {
        cells_.emplace_back(column, std::to_string(value));
        return *this;
    }
    CsvRow& add(const std::string& column, unsigned long value) {
        return add(column, static_cast<unsigned long long>(value));
    }
    CsvRow& add(const std::string& column, bool value) { return add(column, value ? 1LL : 0LL); }
    // A measurement with `digits` significant digits. NaN means "not applicable" and is
    // written as an empty cell; infinities as inf/-inf.
    CsvRow& add(const std::string& column, double value, int digits = 6) {
        cells_.emplace_back(column, std::isnan(value) ? std::string() : number(value, digits));
        return *this;
    }
    // A computed data value (a maximum, an estimate) for which NaN is a real answer: nan.
    CsvRow& add_value(const std::string& column, double value, int digits = 9) {
        cells_.emplace_back(column, std::isnan(value) ? std::string("nan") : number(value, digits));
        return *this;
    }
    // An empty cell: the column does not apply to this row.
    CsvRow& add_na(const std::string& column) {
        cells_.emplace_back(column, std::string());
        return *this;
    }

    std::string header() const { return join(true); }
    std::string values() const { return join(false); }
    bool empty() const { return cells_.empty(); }

  private:
    static std::string number(double value, int digits) {
        if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", digits, value);
        return buf;
    }
    static std::string quote(const std::string& v) {
        if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
        std::string q = "\"";
        for (char c : v) q += (c == '"') ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    }
    std::string join(bool names) const {
        std::string line;
        for (std::size_t i = 0; i < cells_.size(); ++i) {
            if (i) line += ',';
            line += names ? cells_[i].first : cells_[i].second;
        }
        return line;
    }
    std::vector<std::pair<std::string, std::string>> cells_;
};

// The core of every row. Sizes are (name, value) pairs: {"n", N}, or {"m", M}, {"n", N}.
// threads/blocks < 0 and NaN times mean "not applicable" (a library's own launch, a CPU
// version). bytes is what the algorithm must move (input read once, output written once);
// 0 where bandwidth means nothing (pi). kernel_ms_scope says what kernel_ms covers:
// "kernels" (device work between two events), or a longer span for a baseline whose call
// cannot be split (pi's Thrust call: "call: alloc+kernels+copy+free").
struct CoreRow {
    std::string assignment, version;
    bool validated = true, is_baseline = false;
    std::vector<std::pair<std::string, long long>> sizes;
    long long threads = -1, blocks = -1;
    double kernel_ms = NAN;
    std::string kernel_ms_scope = "kernels";
    double bytes = 0, copy_bw_GBps = NAN, baseline_ms = NAN;
    bool result_ok = false;
};

// Device columns come from device_info.cuh's DeviceInfo; they are passed here as text so
// that host-only code (tests, the CPU side) can build rows too.
struct DeviceColumns {
    std::string device, compute_capability, driver, runtime;
};

inline CsvRow core_row(const DeviceColumns& dev, const CoreRow& c) {
    const double bw = (c.bytes > 0 && c.kernel_ms > 0) ? c.bytes / (c.kernel_ms * 1.0e6) : NAN;
    const double pct = (bw == bw && c.copy_bw_GBps > 0) ? 100.0 * bw / c.copy_bw_GBps : NAN;
    const double speedup = (c.baseline_ms > 0 && c.kernel_ms > 0) ? c.baseline_ms / c.kernel_ms : NAN;
    CsvRow row;
    row.add("assignment", c.assignment).add("version", c.version).add("validated", c.validated);
    row.add("is_baseline", c.is_baseline)
        .add("device", dev.device)
        .add("compute_capability", dev.compute_capability)
        .add("driver", dev.driver)
        .add("runtime", dev.runtime);
    for (const auto& s : c.sizes) row.add(s.first, s.second);
    if (c.threads >= 0) row.add("threads", c.threads); else row.add_na("threads");
    if (c.blocks >= 0) row.add("blocks", c.blocks); else row.add_na("blocks");
    row.add("kernel_ms", c.kernel_ms)
        .add("kernel_ms_scope", c.kernel_ms == c.kernel_ms ? c.kernel_ms_scope : std::string())
        .add("bandwidth_GBps", bw)
        .add("pct_of_copy_bw", pct, 4)
        .add("baseline_ms", c.baseline_ms)
        .add("speedup_vs_baseline", speedup, 4)
        .add("result_ok", c.result_ok);
    return row;
}

// What a --csv file holds where a commit needs it: whether it exists, its size, its first line
// (read no further than `max_header_bytes`: the first max_header_bytes bytes when they hold no
// newline) and whether it ends with a newline. Reads those bytes and the last one, never the
// whole file (a 6 GB file with no newline costs max_header_bytes). Never blocks (the path was
// checked to be a regular file or absent by check_output_path first). An existing file that
// cannot be read is a UsageError naming --csv and the file.
struct CsvFileState {
    bool exists = false;
    unsigned long long bytes = 0;
    std::string header;
    bool ends_with_newline = true;
};

namespace detail {
// Up to `bytes` bytes of `fd` from `offset` on (fewer at the end of the file).
inline std::string read_some(int fd, unsigned long long offset, std::size_t bytes) {
    std::string out(bytes, '\0');
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, &out[got], bytes - got, static_cast<off_t>(offset + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
}
}  // namespace detail

inline CsvFileState csv_file_state(const std::string& path, std::size_t max_header_bytes) {
    CsvFileState state;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 && errno == ENOENT) return state;
    if (fd < 0 || ::fstat(fd, &st) != 0) {
        const int error = errno;
        if (fd >= 0) ::close(fd);
        throw UsageError("cannot read CSV file '" + path + "' (--csv): " + std::strerror(error));
    }
    state.exists = true;
    state.bytes = static_cast<unsigned long long>(st.st_size);
    const std::string head = detail::read_some(fd, 0, max_header_bytes);
    state.header = head.substr(0, head.find('\n'));
    if (state.bytes > 0) state.ends_with_newline = detail::read_some(fd, state.bytes - 1, 1) == "\n";
    ::close(fd);
    return state;
}

// The first line of `path`, read no further than `max_bytes` ("" when the file is missing or
// empty; the first max_bytes bytes when they hold no newline).
inline std::string csv_file_header(const std::string& path, std::size_t max_bytes) {
    return csv_file_state(path, max_bytes).header;
}

// An existing CSV this run may append to: its first line is `header` (mixing two layouts in
// one file would break every plot), and it is below the file-size limit (ulimit -f), which
// no row could pass. An empty file is taken as new.
inline void check_csv_state(const std::string& path, const CsvFileState& state, const std::string& header) {
    if (state.bytes > 0 && state.header != header)
        throw UsageError("CSV file '" + path + "' has different columns; use a new file");
    struct rlimit limit;
    if (state.bytes > 0 && ::getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
        state.bytes >= static_cast<unsigned long long>(limit.rlim_cur))
        throw UsageError("CSV file '" + path + "' (--csv) has " + std::to_string(state.bytes) +
                         " bytes, as many as the file-size limit (ulimit -f) allows: no row can be appended; use a new file");
}

// Checked before any GPU work, creating nothing: `path` can be written, and if it already
// has content, check_csv_state's rules hold. Reads at most the header's length and its newline,
// and the last byte.
inline void check_csv_file(const std::string& path, const std::string& header) {
    check_output_path(path, "CSV file");
    check_csv_state(path, csv_file_state(path, header.size() + 1), header);
}

// The rows of one run, kept in memory and written in commit(): the file gets all of them or
// none. A new (or empty) file is written whole, header first; an existing one gets the rows
// appended, its content neither read (its header and last byte aside) nor copied. A program
// commits only when it exits 0.
class CsvSink {
  public:
    CsvSink() = default;
    explicit CsvSink(std::string path) : path_(std::move(path)) {}
    bool enabled() const { return !path_.empty(); }
    void add(const CsvRow& row) {
        if (!enabled()) return;
        if (header_.empty()) header_ = row.header();
        else if (header_ != row.header()) throw std::logic_error("CsvSink: rows with different columns");
        body_ += row.values() + "\n";
        ++rows_;
    }
    int rows() const { return rows_; }
    // What commit() writes, for a commit of several files (cw::commit_files): false when
    // there is nothing to write. The file is checked again here (check_csv_state: another
    // process may have changed it since the run began); an existing one with content is
    // appended to (a newline first where its last line has none). The PendingFile points into
    // the sink: keep the sink until it is committed.
    bool prepare(PendingFile* file) {
        if (!enabled() || rows_ == 0) return false;
        const CsvFileState state = csv_file_state(path_, header_.size() + 1);
        check_csv_state(path_, state, header_);
        file->path = path_;
        file->what = "CSV file";
        file->append = state.bytes > 0;
        file->prefix = !file->append ? header_ + "\n" : state.ends_with_newline ? "" : "\n";
        file->data = body_.data();
        file->bytes = body_.size();
        return true;
    }
    // Writes every row, all or none (commit_files: a new file through a temporary renamed into
    // place, an existing one appended to and cut back on failure).
    void commit() {
        PendingFile file;
        if (!prepare(&file)) return;
        commit_files({file});
        committed();
    }
    // The rows were written (by commit, or by the caller's commit_files).
    void committed() {
        rows_ = 0;
        body_.clear();
    }

  private:
    std::string path_, header_, body_;
    int rows_ = 0;
};

}  // namespace cw
