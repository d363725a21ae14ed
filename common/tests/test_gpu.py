"""On a GPU: devinfo on the real device, common's CUDA helpers (bin/gpu_selftest), and every
validated version of each program with input data to vary (its Makefile's VARY_ARGS: several
sizes, none a multiple of a block or tile), each runner launched on three seeded inputs in a row
and checked each time, so that state a version keeps between launches (descriptors, counters, a
cached result) cannot carry one input's answer into the next. Skipped with the reason without a GPU."""
import re

import pytest
from cwtest import UNDER_TEST, ROOT, gpu_case, make_print, need_built, need_gpu, program, run

pytestmark = pytest.mark.gpu
DEVINFO, SELFTEST = ROOT / "common/bin/devinfo", ROOT / "common/bin/gpu_selftest"


def test_devinfo_describes_the_device_and_measures_copy_bandwidth():
    need_gpu()
    r = run([DEVINFO], 120)
    assert r.rc == 0 and re.search(r"copy bandwidth: [0-9]+\.[0-9] GB/s", r.out), r.tail()


def test_devinfo_device_beyond_those_present_is_a_usage_error():
    need_gpu()
    r = run([DEVINFO, "--device=1000"], 60)
    assert r.rc == 2, r.tail()


@pytest.mark.parametrize("mode", [
    pytest.param("timing", id="time_gpu_and_GpuTimer"),
    pytest.param("flush", id="L2Flusher_and_copy_bandwidth"),
    pytest.param("buffers", id="DeviceBuffer_and_HostBuffer_pageable_pinned_size_0")])
def test_selftest(mode):
    need_built(SELFTEST)
    gpu_case([SELFTEST, mode])


@pytest.mark.parametrize("mode", [
    pytest.param("bad-call", id="CUDA_CHECK_stops_a_failing_call"),
    pytest.param("bad-launch", id="CUDA_CHECK_LAUNCH_stops_an_impossible_launch")])
def test_selftest_exit_3(mode):
    need_gpu()
    need_built(SELFTEST)
    r = run([SELFTEST, mode], 60)
    assert r.rc == 3, r.tail()


@pytest.mark.parametrize("name", [a for a in UNDER_TEST if make_print(a, "VARY_ARGS")])
def test_every_validated_version_on_three_inputs_in_a_row(name):
    need_built(program(name))
    gpu_case([program(name), *make_print(name, "VARY_ARGS").split(), "--vary-input=2", "--repeat=2", "--warmup=1"], cwd=ROOT / name)
