// GPU self-test of the CUDA half of common/ (tier 2): run as
//   gpu_selftest timing      time_gpu calls warm-up + repeat runs; GpuTimer measures a known delay
//   gpu_selftest bad-call    CUDA_CHECK on a failing call must stop the program with exit 3
//   gpu_selftest bad-launch  CUDA_CHECK_LAUNCH on an impossible launch must exit 3
//   gpu_selftest flush       L2Flusher allocates and flushes; copy bandwidth is positive
//   gpu_selftest buffers     HostBuffer (pageable, pinned) and DeviceBuffer round trips; size 0
// Each mode first prints "planned: N runs" (its number of checks), then one "Result =" line
// per check, as the assignment programs do, so that cwtest.gpu_case (common/py/cwtest.py) can count them.
#include <cstdio>
#include <cstring>

#include "common.cuh"

namespace {

__global__ void spin_kernel(long long cycles, int* counter) {
    const long long start = clock64();
    while (clock64() - start < cycles) {
    }
    if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(counter, 1);
}

void plan(int checks) {
    std::printf("planned: %d runs\n", checks);
}

int check(bool ok, const char* what) {
    std::printf("gpu_selftest version=%s: Result = %s\n", what, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "timing";
    return cw::run_main("gpu_selftest", [&]() {
        cw::select_device(0);
        int failures = 0;
        if (std::strcmp(mode, "timing") == 0) {
            plan(3);
            int* counter = nullptr;
            CUDA_CHECK(cudaMalloc(&counter, sizeof(int)));
            CUDA_CHECK(cudaMemset(counter, 0, sizeof(int)));
            int clock_khz = 0;
            CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
            const long long cycles = static_cast<long long>(clock_khz) * 2;  // about 2 ms at the base clock
            const cw::Timing t = cw::time_gpu(3, 7, [&](cudaStream_t s) {
                spin_kernel<<<1, 32, 0, s>>>(cycles, counter);
                CUDA_CHECK_LAUNCH();
            });
            int calls = 0;
            CUDA_CHECK(cudaMemcpy(&calls, counter, sizeof(int), cudaMemcpyDeviceToHost));
            failures += check(calls == 10, "time_gpu-runs-warmup-plus-repeat");
            failures += check(t.samples_ms.size() == 7, "time_gpu-keeps-every-sample");
            // The clock may boost above its base rate: the delay lies between 0.5 and 2.5 ms.
            std::printf("median %.3f ms for a %lld-cycle spin at %d kHz\n", t.median_ms(), cycles, clock_khz);
            failures += check(t.median_ms() > 0.5 && t.median_ms() < 2.5, "GpuTimer-measures-a-known-delay");
            CUDA_CHECK(cudaFree(counter));
        } else if (std::strcmp(mode, "bad-call") == 0) {
            void* p = nullptr;
            CUDA_CHECK(cudaMalloc(&p, static_cast<size_t>(1) << 60));  // must exit 3 here
            failures += check(false, "CUDA_CHECK-did-not-stop");
        } else if (std::strcmp(mode, "bad-launch") == 0) {
            int* counter = nullptr;
            CUDA_CHECK(cudaMalloc(&counter, sizeof(int)));
            spin_kernel<<<1, 4096>>>(1, counter);  // more threads than a block may have
            CUDA_CHECK_LAUNCH();                    // must exit 3 here
            failures += check(false, "CUDA_CHECK_LAUNCH-did-not-stop");
        } else if (std::strcmp(mode, "flush") == 0) {
            plan(1);
            cw::L2Flusher flusher;
            flusher.flush();
            CUDA_CHECK(cudaDeviceSynchronize());
            const double bw = cw::measure_copy_bandwidth_GBps(64u << 20);
            std::printf("copy bandwidth %.1f GB/s\n", bw);
            failures += check(bw > 1.0, "copy-bandwidth-is-measured");
        } else if (std::strcmp(mode, "buffers") == 0) {
            // Host -> device -> host through both kinds of host buffer, and size 0 (a valid,
            // non-null one-element allocation).
            plan(3);
            const std::size_t n = 1000003;
            for (bool pinned : {false, true}) {
                cw::HostBuffer<int> in(n, pinned), out(n, pinned);
                for (std::size_t i = 0; i < n; ++i) in.data()[i] = static_cast<int>(i * 7919 % 100003) - 50000;
                cw::DeviceBuffer<int> d(n);
                CUDA_CHECK(cudaMemcpy(d.data(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
                CUDA_CHECK(cudaMemcpy(out.data(), d.data(), n * sizeof(int), cudaMemcpyDeviceToHost));
                bool same = d.size() == n && in.size() == n && in.pinned() == pinned;
                for (std::size_t i = 0; i < n && same; ++i) same = in.data()[i] == out.data()[i];
                failures += check(same, pinned ? "pinned-round-trip" : "pageable-round-trip");
            }
            cw::DeviceBuffer<double> empty_device(0);
            cw::HostBuffer<double> empty_host(0, true);
            failures += check(empty_device.data() != nullptr && empty_host.data() != nullptr, "size-0-not-null");
        } else {
            throw cw::UsageError(std::string("unknown mode '") + mode + "'");
        }
        return failures == 0 ? cw::kExitOk : cw::kExitWrongResult;
    });
}
