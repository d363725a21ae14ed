// devinfo: the first program to run on a new machine. Prints the device (with whether the
// kernels run native code or PTX JIT-compiled by the driver: DeviceInfo::kernel_code) and its measured
// device-to-device copy bandwidth; exits 3 with the runtime's message where there is no
// usable CUDA device. --check only tells whether a device is usable (used by the GPU tests).
#include <cstdio>

#include "common.cuh"

int main(int argc, char** argv) {
    return cw::run_main("devinfo", [&]() {
        int device = 0;
        bool check_only = false;
        cw::Options opts("devinfo", "Describe the CUDA device and measure its copy bandwidth.");
        opts.add_int("device", &device, 0, 1023, "CUDA device to describe")
            .add_flag("check", &check_only, "only check that the device is usable (no bandwidth run)")
            .exit_text("Exit status: 0 the device is usable (described, and measured unless --check),\n"
                       "2 bad usage, 3 no usable CUDA GPU or a CUDA error.");
        if (!opts.parse(argc, argv)) {
            std::fputs(opts.help_text().c_str(), stdout);
            return cw::kExitOk;
        }

        const cw::DeviceInfo info = cw::select_device(device);
        std::printf("%s\n", info.describe().c_str());
        if (check_only) return cw::kExitOk;
        std::printf("device-to-device copy bandwidth: %.1f GB/s (bytes read + written)\n",
                    cw::measure_copy_bandwidth_GBps());
        return cw::kExitOk;
    });
}
