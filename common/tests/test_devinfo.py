"""devinfo (common/devinfo.cu) without a GPU: its options, its help and its exit status 3 with the
CUDA runtime's message where no device is usable (its GPU cases are in test_gpu.py)."""
import re

import pytest
from cwtest import ROOT, gpu_reason, need_built, run, usage_error

DEVINFO = ROOT / "common/bin/devinfo"


@pytest.mark.parametrize("arg,pattern", [
    pytest.param("--bogus", "unknown option", id="unknown_option"),
    pytest.param("--device=abc", "expects an integer", id="non_numeric_device"),
    pytest.param("--device=-1", "out of range", id="negative_device")])
def test_usage_error(arg, pattern):
    need_built(DEVINFO)
    usage_error([DEVINFO, arg], pattern)


def test_help_lists_every_option_and_ends_with_its_own_exit_statuses():
    """Not the assignments' ("all versions passed")."""
    need_built(DEVINFO)
    r = run([DEVINFO, "--help"], 10)
    assert r.rc == 0 and re.search(r"--device=N.*--check", r.out.replace("\n", " ")), r.tail()
    assert any(line.startswith("Exit status: 0 the device is usable") for line in r.out.splitlines()[-2:]), r.tail()
    assert "versions passed" not in r.out, r.tail()


def test_without_a_usable_device_exit_3_with_the_runtime_message():
    need_built(DEVINFO)
    if gpu_reason() is None:
        pytest.skip("a usable GPU is present")
    r = run([DEVINFO], 60)
    assert r.rc == 3 and re.match(r"devinfo: no usable CUDA GPU: .*CUDA error (100|35),", r.err), r.tail()
