// The session of one run: device, copy bandwidth, L2 flusher, results, CSV rows and --output.
// common/run_loop.cuh drives it for every program, in this order:
//
//   1. parse and check everything the user gave (Options, select_versions, InputFile,
//      check_csv_file, check_output_path): exit 2 with one line, no CUDA call yet;
//      --print-csv-header prints the header here, after those checks, and exits 0;
//   2. Session session(program, device): probes the device (exit 3, "no usable CUDA GPU: ..."),
//      prints its description and measures the device-to-device copy bandwidth;
//   3. session.require_memory(host, device, what): a size that cannot fit is refused
//      (exit 2) before any host buffer is filled;
//   4. data, then per version: measure, validate, session.record(...) / demonstration(...),
//      session.add_row(row), session.progress(...);
//   5. return session.finish(): the CSV rows and the --output file are written, together,
//      only when every validated version passed and standard output could be written
//      (exit 0); otherwise nothing is written (exit 1, or 2).
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "buffers.cuh"
#include "common.h"
#include "cuda_check.cuh"
#include "device_info.cuh"
#include "gpu_timing.cuh"

namespace cw {

// --print-csv-header: after every other option was checked, print `header` and stop.
// Returns true when the program should return kExitOk now.
inline bool print_csv_header_if_asked(const SharedOptions& options, const std::string& header) {
    if (!options.print_csv_header) return false;
    std::printf("%s\n", header.c_str());
    return true;
}

class Session {
  public:
    struct Settings {
        bool copy_bandwidth = true;  // measure the device-to-device copy bandwidth (pi: no)
        bool l2_flusher = true;      // allocate an L2 flusher
        bool device = true;          // false: host versions alone run; no CUDA call at all
    };
    Session(const std::string& program, int device, const std::string& csv_path, const std::string& output_path)
        : Session(program, device, csv_path, output_path, Settings()) {}
    Session(const std::string& program, int device, const std::string& csv_path, const std::string& output_path,
            const Settings& settings)
        : program_(program), book_(program), csv_(csv_path), output_path_(output_path), has_device_(settings.device) {
        if (!has_device_) {  // a cluster's login node runs the CPU versions: no probe, empty device columns
            std::printf("%s: CPU versions only: no GPU is used\n", program.c_str());
            return;
        }
        dev_ = select_device(device);
        std::printf("%s\n", dev_.describe().c_str());
        if (settings.copy_bandwidth) {
            copy_bw_ = measure_copy_bandwidth_GBps();
            std::printf("device-to-device copy bandwidth: %.1f GB/s (bytes read + written)\n", copy_bw_);
        }
        if (settings.l2_flusher) flusher_.reset(new L2Flusher());
        std::fflush(stdout);
    }

    const DeviceInfo& device() const { return dev_; }
    bool has_device() const { return has_device_; }
    DeviceColumns columns() const { return has_device_ ? dev_.columns() : DeviceColumns(); }
    double copy_bw_GBps() const { return copy_bw_; }
    L2Flusher* flusher() { return flusher_.get(); }
    ResultBook& book() { return book_; }

    // Host and device bytes a problem needs, checked before anything is allocated.
    void require_memory(unsigned long long host_bytes, unsigned long long device_bytes, const std::string& what) {
        require_host_memory(host_bytes, what);
        if (has_device_) require_device_memory(static_cast<std::size_t>(device_bytes), what);
    }

    // "planned: N runs" (tests read it), then one "[k/N] ..." line per step.
    // Each stops the run (exit 2, nothing written) once standard output cannot be written.
    void plan(int steps) {
        steps_ = steps;
        std::printf("planned: %d runs\n", steps);
        require_standard_output();
    }
    void progress(const std::string& what) {
        progress_line(++step_, steps_, what);
        require_standard_output();
    }

    bool record(const std::string& version, bool ok, const std::string& detail) {
        return book_.record(version, ok, detail);
    }
    void demonstration(const std::string& version, const std::string& detail) { book_.demonstration(version, detail); }
    void add_row(const CsvRow& row) { csv_.add(row); }

    // The --output file's content, written by finish() (the first call wins).
    template <typename T>
    void set_output(const T* data, std::size_t n) {
        if (output_path_.empty() || has_output_) return;
        const char* p = reinterpret_cast<const char*>(data);
        output_.assign(p, p + n * sizeof(T));
        has_output_ = true;
    }

    // Writes the CSV rows and the output only when every validated version passed and
    // standard output was written whole (checked first: a run that exits 2 writes nothing);
    // both together or neither (commit_files).
    int finish() {
        book_.print_summary();
        const int status = book_.exit_status();
        if (status != kExitOk) {
            if (csv_.enabled() || !output_path_.empty())
                std::printf("%s: a result was wrong: no CSV rows and no output file written\n", program_.c_str());
            return status;
        }
        require_standard_output();
        std::vector<PendingFile> files(1);
        const bool rows = csv_.prepare(&files[0]);
        if (!rows) files.clear();
        if (has_output_) {
            files.emplace_back();
            files.back().path = output_path_, files.back().what = "output file";
            files.back().data = output_.data(), files.back().bytes = output_.size();
        }
        if (!files.empty()) commit_files(files);
        if (rows) csv_.committed();
        return status;
    }

  private:
    std::string program_;
    DeviceInfo dev_;
    double copy_bw_ = NAN;
    std::unique_ptr<L2Flusher> flusher_;
    ResultBook book_;
    CsvSink csv_;
    std::string output_path_;
    std::vector<char> output_;
    bool has_output_ = false;
    bool has_device_ = true;
    int steps_ = 0, step_ = 0;
};

}  // namespace cw
