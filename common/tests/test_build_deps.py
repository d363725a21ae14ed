"""Header dependencies (common/assignment.mk): a scratch assignment beside a copy of common/'s
build files, built by the real compilers (nvcc for its .cu files, the host compiler for its CPU
reference and unit test); then each header, touched alone, must mark out of date (make -n)
exactly the objects, unit tests and experiments that include it, and the links that take them,
and nothing else. A built tree must have nothing to do; one built before the dependencies (its
build configuration without their flags) is rebuilt whole."""
import os
import re
import shutil

import pytest
from cwtest import ROOT, run

GTEST = any(os.path.exists(p) for p in ("/usr/include/gtest/gtest.h", "/usr/local/include/gtest/gtest.h"))
GOALS = ["all", "unit-tests", "experiments"]

# The scratch assignment "mini", laid out as a real one (main.cu, mini_kernels.cu and .cuh, the
# library baseline mini_cub.cu, the CPU reference mini_cpu.cpp, a unit test, an experiment).
SOURCES = {
    "mini/Makefile": "BASELINE_SRCS := mini_cub.cu\ninclude ../common/assignment.mk\n",
    "mini/main.cu": '#include "format.h"\n#include "mini_cpu.h"\n#include "mini_cub.cuh"\n#include "mini_kernels.cuh"\n'
                    '#include "mini_versions.cuh"\n'
                    "int main() { return kernel_value() + cub_value() + cpu_value() + kVersions - 7; }\n",
    "mini/mini_versions.cuh": "#pragma once\nconstexpr int kVersions = 1;\n",
    "mini/mini_kernels.cuh": "#pragma once\nint kernel_value();\n",
    "mini/mini_policy.h": "#pragma once\nconstexpr int kThreads = 2;\n",
    "mini/mini_kernels.cu": '#include "mini_kernels.cuh"\n#include "mini_policy.h"\n'
                            "__global__ void kernel(int* x) { *x = kThreads; }\nint kernel_value() { return kThreads; }\n",
    "mini/mini_cub.cuh": "#pragma once\nint cub_value();\n",
    "mini/mini_cub.cu": '#include "mini_cub.cuh"\nint cub_value() { return 3; }\n',
    "mini/mini_cpu.h": "#pragma once\nint cpu_value();\n",
    "mini/mini_cpu.cpp": '#include "mini_cpu.h"\nint cpu_value() { return 1; }\n',
    "mini/tests/mini_test.cpp": '#include <gtest/gtest.h>\n#include "mini_cpu.h"\nTEST(Mini, Cpu) { EXPECT_EQ(cpu_value(), 1); }\n',
    "mini/experiments/tune.cu": '#include "mini_policy.h"\nint main() { return kThreads - 2; }\n',
}
TESTS = {"build/tests/mini_test.o", "build/unit_tests"} if GTEST else set()

# header -> what touching it must remake (objects, and the programs that link them).
EXPECTED = {
    "mini/mini_kernels.cuh": {"build/main.o", "build/mini_kernels.o", "bin/mini"},
    "mini/mini_policy.h": {"build/mini_kernels.o", "bin/mini", "build/experiments/tune"},
    "mini/mini_versions.cuh": {"build/main.o", "bin/mini"},
    "mini/mini_cub.cuh": {"build/baseline_mini_cub.o", "build/main.o", "bin/mini"},
    "mini/mini_cpu.h": {"build/mini_cpu.o", "build/main.o", "bin/mini"} | TESTS,
    "common/format.h": {"build/main.o", "bin/mini"},
}


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    if shutil.which("nvcc") is None and not os.path.exists("/usr/local/cuda/bin/nvcc"):
        pytest.skip("no nvcc: nothing can be built")
    d = tmp_path_factory.mktemp("deps")
    for f in ("arch.mk", "assignment.mk", "format.h", "scripts/select_arch.sh", "scripts/shadowed_cuda_headers.sh"):
        (d / "common" / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "common" / f, d / "common" / f)
    for f, text in SOURCES.items():
        (d / f).parent.mkdir(parents=True, exist_ok=True)
        (d / f).write_text(text)
    r = run(["make", "--no-print-directory", "-C", d / "mini", "-j2", *GOALS], 600)
    assert r.rc == 0, r.tail()
    return d


def remade(mini):
    """What `make -n` would remake: the output (-o) of every compile and link it lists."""
    r = run(["make", "--no-print-directory", "-n", "-C", mini / "mini", *GOALS], 120)
    assert r.rc == 0, r.tail()
    return set(re.findall(r" -o (\S+)", r.out))


def test_a_built_tree_has_nothing_to_remake(mini):
    assert remade(mini) == set()


def test_a_tree_built_before_the_dependencies_is_rebuilt_whole(mini):
    """Its objects have no .d file, so nothing says which headers they read: its build
    configuration (build/build-config.stamp) lacks the dependency flags, which rebuilds all."""
    stamp = mini / "mini/build/build-config.stamp"
    kept, stat = stamp.read_text(), stamp.stat()
    assert kept.rstrip().endswith("| -MMD -MP"), kept
    stamp.write_text(kept.rstrip()[:-len("| -MMD -MP")].rstrip() + "\n")
    try:
        objects = {"build/main.o", "build/mini_kernels.o", "build/baseline_mini_cub.o", "build/mini_cpu.o"}
        assert objects <= remade(mini)
    finally:
        stamp.write_text(kept)
        os.utime(stamp, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.mark.parametrize("header", sorted(EXPECTED))
def test_a_touched_header_remakes_its_includers_only(mini, header):
    path = mini / header
    before = path.stat()
    newest = max(p.stat().st_mtime for p in (mini / "mini").rglob("*") if p.is_file())
    os.utime(path, (newest + 10, newest + 10))
    try:
        assert remade(mini) == EXPECTED[header]
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
