"""One error mechanism (common/cuda_check.cuh, common/common.cuh): below main a failure is an
exception, and cw::run_main alone turns it into one line on standard error and an exit status.
tests/error_exit.cu fails in each way a program can; its lines are the programs' own, word for
word (the CUDA error's and the "no usable CUDA GPU" line are the ones CUDA_CHECK printed when it
ended the program itself), what was printed before stays, and the destructors on the way up run.
No GPU needed but for the kernel fault (a sticky error, device buffers freed while unwinding)."""
import re

import pytest
from cwtest import ROOT, make_print, need_gpu, need_nvcc, run

SOURCE = ROOT / "common/tests/error_exit.cu"
NO_GPU = ("no usable CUDA GPU: this machine has no GPU this program can use (a login node has none); run it on a "
          "GPU node (srun --gres=gpu:1 ..., or a job script in slurm/); the CUDA runtime said: ")


def line_of(mode):
    """The line of error_exit.cu marked [mode]."""
    for number, text in enumerate(SOURCE.read_text().splitlines(), 1):
        if f"// [{mode}]" in text:
            return number
    raise AssertionError(f"no line marked [{mode}] in {SOURCE}")


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    need_nvcc()  # nothing is compiled where CW_NO_BUILD says so (the legacy phase runs a prebuilt pack)
    nvcc = make_print("common", "NVCC")  # the build's nvcc
    binary = tmp_path_factory.mktemp("errors") / "error_exit"
    r = run([nvcc, "-std=c++14", "-Wno-deprecated-gpu-targets", f"-I{ROOT / 'common'}", "-o", binary, SOURCE], 600)
    assert r.rc == 0, r.tail()
    return binary


def call(mode, code):
    return f"at {SOURCE}:{line_of(mode)} in returns({code})"


@pytest.mark.parametrize("mode,status,line", [
    pytest.param("cuda-error", 3, "error_exit: CUDA error 1 (cudaErrorInvalidValue): invalid argument "
                 + call("cuda-error", "cudaErrorInvalidValue"), id="cuda_error_exit_3_its_line"),
    pytest.param("no-device", 3, "error_exit: " + NO_GPU + "no CUDA-capable device is detected (CUDA error 100, "
                 "cudaErrorNoDevice) " + call("no-device", "cudaErrorNoDevice"), id="no_device_exit_3_in_plain_words"),
    pytest.param("old-driver", 3, "error_exit: " + NO_GPU + "CUDA driver version is insufficient for CUDA runtime "
                 "version (CUDA error 35, cudaErrorInsufficientDriver) " + call("old-driver", "cudaErrorInsufficientDriver"),
                 id="driver_older_than_runtime_exit_3_in_plain_words"),
    pytest.param("unwind", 3, "error_exit: CUDA error 1 (cudaErrorInvalidValue): invalid argument "
                 + call("unwind", "cudaErrorInvalidValue"), id="destructors_run_before_the_line"),
    pytest.param("library", 3, "error_exit: cuBLAS error 1 (CUBLAS_STATUS_NOT_INITIALIZED) at f.cu:1 in g()",
                 id="library_failure_exit_3_its_words"),
    pytest.param("unnamed", 3, "CUDA error in thrust::transform_reduce: out of memory", id="thrust_line_without_the_name"),
    pytest.param("internal", 3, "error_exit: internal error: a block size not built", id="logic_error_exit_3"),
    pytest.param("usage", 2, "error_exit: error: option --mode: unknown", id="usage_error_exit_2")])
def test_one_line_and_its_exit_status(harness, mode, status, line):
    r = run([harness, mode], 60)
    assert (r.rc, r.err) == (status, line + "\n"), r.tail()
    want_out = "before the error\n" + ("destructor ran\n" if mode == "unwind" else "")
    assert r.out == want_out, r.tail()


def test_a_caught_cuda_error_carries_the_call_and_the_run_goes_on(harness):
    r = run([harness, "caught"], 60)
    want = f"caught 1 invalid argument {SOURCE}:{line_of('caught')} returns(cudaErrorInvalidValue)\n"
    assert (r.rc, r.err, r.out) == (0, "", "before the error\n" + want), r.tail()


@pytest.mark.gpu
def test_a_kernel_fault_exit_3_one_line_while_device_buffers_are_freed(harness):
    need_gpu()
    r = run([harness, "fault"], 120)
    where = f"at {SOURCE}:({line_of('fault-launch')}|{line_of('fault')}) in (cudaGetLastError\\(\\)|cudaDeviceSynchronize\\(\\))"
    assert r.rc == 3 and len(r.err.splitlines()) == 1, r.tail()
    assert re.fullmatch(r"error_exit: CUDA error 700 \(cudaErrorIllegalAddress\): an illegal memory access was "
                        r"encountered " + where + "\n", r.err), r.tail()
