"""Architecture selection (common/scripts/select_arch.sh, common/arch.mk) against stub toolkits
that answer like CUDA 13, 12 and 11.8, one without --list-gpu-arch and one too old; with and
without a local GPU (stub nvidia-smi); through make; and objects rebuilt when the toolkit or SMS
changes, and not otherwise (a copy of common/ built by stub compilers)."""
import os
import re
import shutil

import pytest
from cwtest import ROOT, run

SELECT = ROOT / "common/scripts/select_arch.sh"
CUDA13 = "75 80 86 87 88 89 90 100 110 103 120 121"
TOOLKITS = {"cuda13": ("13.0", CUDA13), "cuda12": ("12.4", "50 52 53 60 61 62 70 72 75 80 86 87 89 90"),
            "cuda118": ("11.8", "35 37 50 52 53 60 61 62 70 72 75 80 86 87 89 90"), "nolist": ("12.0", ""), "old": ("9.0", "")}
COMPILING = {"tk118": ("11.8", "52 60 70 75 80 90"), "tk124": ("12.4", "52 60 70 75 80 90"), "tk13": ("13.0", CUDA13)}
GPUS = {"gpu70": "echo 7.0", "gpu86": "echo 8.6", "gpu90": "echo 9.0", "gpu120": "echo 12.0", "nogpu": "exit 9"}


def script(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(0o755)


def stub_nvcc(version, archs, compiles=False):
    """An nvcc answering --version and --list-gpu-arch (or refusing it where archs is empty); a
    compiling one "compiles" by writing its -o file."""
    lst = f"for a in {archs}; do echo compute_$a; done" if archs else "echo 'nvcc fatal : Unknown option' >&2; exit 1"
    text = f"case \"$1\" in --version) echo 'Cuda compilation tools, release {version}, V{version}.0'; exit 0;;\n--list-gpu-arch) {lst}; exit 0;;\nesac\n"
    if compiles:
        text += f'out=""\nwhile [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done\n[ -n "$out" ] && echo "stub {version}" >"$out"\nexit 0\n'
    return text


@pytest.fixture(scope="module")
def stubs(tmp_path_factory):
    d = tmp_path_factory.mktemp("stubs")
    for name, (version, archs) in TOOLKITS.items():
        script(d / name / "nvcc", stub_nvcc(version, archs))
    for name, (version, archs) in COMPILING.items():
        script(d / name / "bin/nvcc", stub_nvcc(version, archs, compiles=True))
    for name, text in GPUS.items():
        script(d / name / "nvidia-smi", text + "\n")
    return d


def select(stubs, toolkit, gpu, sms, mode, origin=None):
    nvcc = stubs / toolkit / "nvcc"
    env = dict(os.environ, PATH=f"{stubs / gpu}:{os.environ['PATH']}")
    return run(["bash", SELECT, nvcc, sms, mode] + ([origin] if origin else []), 30, env=env)


@pytest.mark.parametrize("toolkit,gpu,sms,origin,flags", [
    pytest.param("cuda118", "nogpu", "35 52", "explicit", "35:sm_35 52:sm_52 52:compute_52", id="cuda11.8_builds_sm_35_and_sm_52"),
    pytest.param("cuda12", "nogpu", "35 52", "explicit", "52:sm_52 52:compute_52", id="cuda12_drops_sm_35_keeps_sm_52"),
    pytest.param("cuda13", "nogpu", "35 52", "default", "75:sm_75 75:compute_75", id="default_cuda13_no_gpu_oldest_supported"),
    pytest.param("cuda13", "gpu86", "35 52", "default", "86:sm_86 86:compute_86", id="default_cuda13_local_sm_86"),
    pytest.param("cuda13", "nogpu", "35 90", "explicit", "90:sm_90 90:compute_90", id="explicit_35_90_cuda13_sm_35_skipped"),
    pytest.param("cuda13", "gpu86", "90", "explicit", "90:sm_90 90:compute_90", id="explicit_90_honoured"),
    pytest.param("cuda13", "nogpu", "90 80", "explicit", "90:sm_90 80:sm_80 90:compute_90", id="ptx_for_the_highest_of_several"),
    pytest.param("nolist", "nogpu", "35 52", "explicit", "35:sm_35 52:sm_52 52:compute_52", id="no_list_gpu_arch_builds_what_was_asked"),
    # The default list (nobody set SMS) gets native code for the local GPU beside it; an explicit SMS does not.
    pytest.param("cuda12", "gpu90", "35 52", "default", "52:sm_52 90:sm_90 90:compute_90", id="default_cuda12_local_sm_90_added"),
    pytest.param("cuda12", "gpu90", "35 52", "explicit", "52:sm_52 52:compute_52", id="explicit_cuda12_local_sm_90_exactly_as_asked"),
    pytest.param("cuda13", "gpu90", "75", "default", "75:sm_75 90:sm_90 90:compute_90", id="default_75_on_cuda13_local_sm_90_added"),
    pytest.param("cuda12", "nogpu", "35 52", "default", "52:sm_52 52:compute_52", id="default_no_gpu_the_list_alone"),
    pytest.param("cuda12", "gpu120", "35 52", "default", "52:sm_52 52:compute_52", id="default_gpu_the_toolkit_cannot_build_the_list_alone")])
def test_flags(stubs, toolkit, gpu, sms, origin, flags):
    want = " ".join(f"-gencode arch=compute_{a},code={c}" for a, c in (f.split(":") for f in flags.split()))
    assert " ".join(select(stubs, toolkit, gpu, sms, "--flags", origin).out.split()) == want


@pytest.mark.parametrize("toolkit,gpu,want", [
    pytest.param("cuda12", "gpu90", "arch: building sm_52 sm_90 + compute_90 PTX (default SMS=35 52: sm_35 not supported by nvcc 12.4, "
                 "skipped; sm_90 added for the local GPU)", id="names_the_native_architecture_it_added"),
    pytest.param("cuda12", "gpu120", "...the local GPU's sm_120 is not supported by nvcc 12.4: it runs the compute_52 PTX, compiled by "
                 "the driver)", id="names_a_local_gpu_the_toolkit_cannot_build_for"),
    # compute_75 PTX cannot run on sm_70: no promise of a JIT that cannot happen, and the CUDA that can.
    pytest.param("cuda13", "gpu70", "...the local GPU's sm_70 cannot run this build (compute_75 PTX runs on sm_75 and newer): sm_70 "
                 "(compute capability 7.0) is built by CUDA 12 (or 11.8; CUDA 13 dropped it))", id="a_local_gpu_older_than_the_toolkit_cannot_run_it"),
    pytest.param("cuda13", "nogpu", "arch: building sm_75 + compute_75 PTX (default SMS=35 52 not supported by nvcc 13.0; "
                 "oldest supported)", id="one_line_saying_what_and_why")])
def test_default_message(stubs, toolkit, gpu, want):
    msg = select(stubs, toolkit, gpu, "35 52", "--message", "default").out.rstrip("\n")
    assert msg.endswith(want[3:]) if want.startswith("...") else msg == want, msg


def arch_info(stubs, toolkit, *args, env=(), gpu="gpu90", folder=ROOT / "common"):
    """make -s arch-info with SMS and SMS_DEFAULT unset but for env, and a stub GPU."""
    env = {**{k: v for k, v in os.environ.items() if k not in ("SMS", "SMS_DEFAULT")}, **dict(env),
           "PATH": f"{stubs / gpu}:{os.environ['PATH']}"}
    return run(["make", "--no-print-directory", "-s", "-C", folder, "arch-info", f"CUDA_PATH={stubs / toolkit}", *args], 60, env=env)


@pytest.mark.parametrize("env,args,want", [
    pytest.param({}, [], "arch: building sm_52 sm_90 + compute_90 PTX (default SMS=35 52: sm_35 not supported by nvcc 12.4, skipped; "
                 "sm_90 added for the local GPU)", id="SMS_not_given_default_plus_local_sm_90"),
    pytest.param({}, ["SMS=35 52"], "arch: building sm_52 + compute_52 PTX (SMS=35 52: sm_35 not supported by nvcc 12.4, skipped)",
                 id="SMS_on_the_command_line_exactly_as_asked"),
    pytest.param({"SMS": "35 52"}, [], "arch: building sm_52 + compute_52 PTX (SMS=35 52: sm_35 not supported by nvcc 12.4, skipped)",
                 id="SMS_in_the_environment_exactly_as_asked"),
    pytest.param({}, ["SMS_DEFAULT=75"], "arch: building sm_75 sm_90 + compute_90 PTX (default SMS=75, nvcc 12.4; sm_90 added for "
                 "the local GPU)", id="SMS_DEFAULT_75_still_a_default")])
def test_make_arch_info(stubs, env, args, want):
    """Through make: SMS unset is the default (native added); SMS on the command line or in the
    environment is explicit; SMS_DEFAULT changes the default list and stays a default."""
    r = arch_info(stubs, "cuda12", f"NVCC={stubs}/cuda12/nvcc", *args, env=env)
    assert (r.out + r.err).rstrip("\n") == want, r.tail()


CUDA13_SORTED = "75 80 86 87 88 89 90 100 103 110 120 121"


@pytest.mark.parametrize("toolkit,origin,sms,patterns", [
    pytest.param("cuda13", "explicit", "abc", ["SMS='abc': 'abc' is not a GPU architecture", f"nvcc 13.0 builds {CUDA13_SORTED}"], id="abc"),
    pytest.param("cuda13", "explicit", "10", ["SMS='10': '10' is not a GPU architecture", f"nvcc 13.0 builds {CUDA13_SORTED}"], id="10"),
    pytest.param("cuda13", "explicit", "*", ["SMS='*': '*' is not a GPU architecture"], id="star_not_expanded"),
    pytest.param("cuda12", "explicit", "90a", ["'90a' is not a GPU architecture"], id="90a"),
    pytest.param("cuda12", "explicit", "52 9O", ["'9O' is not a GPU architecture"], id="a_typo_beside_a_good_item"),
    pytest.param("cuda13", "default", "7.5", ["SMS_DEFAULT='7.5': '7.5' is not a GPU architecture"], id="a_typo_in_SMS_DEFAULT"),
    pytest.param("cuda13", "explicit", "", ["SMS is empty"], id="empty"),
    pytest.param("cuda13", "explicit", "70", ["SMS='70': nvcc 13.0", "builds sm_75 to sm_121", "sm_70 (compute capability 7.0) is built by CUDA 12"],
                 id="70_on_cuda13_built_by_cuda12"),
    pytest.param("cuda13", "explicit", "60", ["sm_60 (compute capability 6.0) is built by CUDA 12"], id="60_on_cuda13_built_by_cuda12"),
    pytest.param("cuda12", "explicit", "35", ["builds sm_50 to sm_90", "sm_35 (compute capability 3.5) is built by CUDA 11.8"],
                 id="35_on_cuda12_built_by_cuda11.8"),
    pytest.param("cuda13", "explicit", "35 52", ["sm_35 (compute capability 3.5) is built by CUDA 11.8",
                                                 "sm_52 (compute capability 5.2) is built by CUDA 12"], id="35_52_on_cuda13_each_named"),
    pytest.param("cuda118", "explicit", "100", ["sm_100 (compute capability 10.0) is built by CUDA 12.8 or newer"],
                 id="100_on_cuda11.8_a_newer_cuda")])
def test_sms_refused_in_one_error_line(stubs, toolkit, origin, sms, patterns):
    """common/README.md, "Choosing GPU architectures": exit 1, no flags, one "error:" line naming the
    item and what the toolkit builds, or the CUDA that builds it."""
    msg = select(stubs, toolkit, "gpu90", sms, "--message", origin)
    flags = select(stubs, toolkit, "gpu90", sms, "--flags", origin)
    assert msg.rc == 1 and not flags.out.strip() and len(msg.out.splitlines()) == 1 and msg.out.startswith("error:"), msg.tail()
    assert [p for p in patterns if p not in msg.out] == [], msg.out


def test_toolkit_older_than_11_8_refused_in_one_line(stubs):
    r = run(["bash", SELECT, stubs / "old/nvcc", "35 52", "--message"], 30)
    assert r.rc != 0 and len(r.out.splitlines()) == 1, r.tail()
    assert re.match(r"error: nvcc 9.0 .* older than CUDA 11.8.*module load cuda/11.8", r.out), r.out


def test_make_stops_before_compiling_with_a_toolkit_older_than_11_8(stubs):
    r = arch_info(stubs, "old", f"NVCC={stubs}/old/nvcc")
    assert r.rc == 2 and "older than CUDA 11.8" in r.err and not r.out, r.tail()


@pytest.fixture
def common_copy(tmp_path):
    """What common/ builds from: its Makefiles, headers, devinfo and the GPU self-test."""
    for f in ["Makefile", "arch.mk", "assignment.mk", "devinfo.cu", *(p.name for p in (ROOT / "common").glob("*.h")),
              *(p.name for p in (ROOT / "common").glob("*.cuh"))]:
        shutil.copy(ROOT / "common" / f, tmp_path)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "tests").mkdir()
    for f in ("scripts/select_arch.sh", "scripts/shadowed_cuda_headers.sh", "tests/gpu_selftest.cu"):
        shutil.copy(ROOT / "common" / f, tmp_path / f)
    return tmp_path


def build(stubs, folder, toolkit, sms, jobs="-j1"):
    """make all in the copy without a GPU: its output and how many compiles it ran."""
    env = dict(os.environ, PATH=f"{stubs / 'nogpu'}:{os.environ['PATH']}")
    r = run(["make", "--no-print-directory", jobs, "-C", folder, "all", f"CUDA_PATH={stubs / toolkit}", f"SMS={sms}"], 120, env=env)
    return r, len(re.findall(r"/bin/nvcc .*-o ", r.out + r.err))


def test_objects_rebuilt_when_sms_or_the_toolkit_changes_not_otherwise(stubs, common_copy):
    build(stubs, common_copy, "tk118", "52")
    same, new_sms, new_toolkit = (build(stubs, common_copy, tk, sms)[1] for tk, sms in
                                  (("tk118", "52"), ("tk118", "52 70"), ("tk124", "52 70")))
    assert same == 0 and new_sms >= 3 and new_toolkit >= 3, f"nvcc runs: same {same}, new SMS {new_sms}, new toolkit {new_toolkit}"
    assert "stub 12.4" in (common_copy / "build/devinfo.o").read_text()


@pytest.mark.parametrize("sms", ["abc", "70", 'a"b`c`', "*", "9#0"])
@pytest.mark.parametrize("jobs", ["-j1", "-j4"])
def test_make_refuses_sms_before_any_compile_in_one_line(stubs, common_copy, sms, jobs):
    """One line and exit 2, as common/README.md says (make's "file:line: *** ... Stop."), under -j4
    too; the value named as given, in quotes (a quote, a * or a # reaches the script as typed)."""
    r, compiles = build(stubs, common_copy, "tk13", sms, jobs)
    first = sms.split()[0]
    assert r.rc == 2 and compiles == 0 and not (common_copy / "bin/devinfo").exists(), r.tail()
    assert not r.out and len(r.err.splitlines()) == 1 and re.match(r"^\S*arch\.mk:[0-9]+: \*\*\* SMS='", r.err), r.tail()
    assert f"SMS='{sms}'" in r.err and (first == "70" or f"'{first}' is not a GPU architecture" in r.err), r.err


@pytest.fixture
def top_copy(tmp_path):
    """The top Makefile, common/ and two assignments' Makefiles (the recursion under make -j4)."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copytree(ROOT / "common", tmp_path / "common", ignore=shutil.ignore_patterns("build", "bin"))
    for a in ("one", "two"):
        (tmp_path / a).mkdir()
        (tmp_path / a / "Makefile").write_text(f"# stand-in\nCU_SRCS := x.cu\nCPP_SRCS :=\ninclude ../common/assignment.mk\n")
        (tmp_path / a / "README.md").write_text(f"# {a}, report 00{len(a)}\n")
    return tmp_path


@pytest.mark.parametrize("sms", ["abc", "*"])
def test_top_make_j4_refuses_sms_once(stubs, top_copy, sms):
    """make -j4 at the top refuses a bad SMS in one line, before it recurses into any folder."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}  # as typed, not from make test
    env["PATH"] = f"{stubs / 'nogpu'}:{os.environ['PATH']}"
    r = run(["make", "-j4", "all", f"CUDA_PATH={stubs / 'tk13'}", f"SMS={sms}"], 120, env=env, cwd=top_copy)
    assert r.rc == 2 and len(r.err.splitlines()) == 1 and f"SMS='{sms}': '{sms}' is not a GPU architecture" in r.err, r.tail()
    assert not r.out and not (top_copy / "common/bin").exists(), r.tail()


def test_make_plots_is_not_stopped_by_a_bad_sms(stubs, common_copy):
    env = dict(os.environ, PATH=f"{stubs / 'nogpu'}:{os.environ['PATH']}")
    r = run(["make", "--no-print-directory", "-s", "-C", common_copy, "print-NAME", f"CUDA_PATH={stubs / 'tk13'}", "SMS=abc"], 60, env=env)
    assert r.rc == 0 and r.out.strip() == "devinfo", r.tail()


@pytest.mark.parametrize("toolkit,cc,rc,want", [
    pytest.param("cuda13", "70", 1, "error: sm_70 (compute capability 7.0) is older than what nvcc 13.0 builds (sm_75 to sm_121): no build of it "
                 "runs there; it is built by CUDA 12 (or 11.8; CUDA 13 dropped it)", id="v100_on_cuda13_refused_names_cuda12"),
    pytest.param("cuda13", "60", 1, "...it is built by CUDA 12 (or 11.8; CUDA 13 dropped it)", id="p100_on_cuda13_refused"),
    pytest.param("cuda12", "35", 1, "...it is built by CUDA 11.8 (the last toolkit that builds it)", id="k40_on_cuda12_refused"),
    pytest.param("cuda13", "90", 0, "sm_90 (compute capability 9.0): native code (nvcc 13.0 builds it)", id="h100_on_cuda13_native"),
    pytest.param("cuda12", "100", 0, "...not built by nvcc 12.4 (sm_50 to sm_90): runs its PTX, compiled by the driver when a program starts",
                 id="b200_on_cuda12.4_ptx")])
def test_serves_says_whether_a_build_runs_on_a_gpu(stubs, toolkit, cc, rc, want):
    """select_arch.sh NVCC CC --serves (slurm/preflight.sh's question for each GPU type)."""
    r = run(["bash", SELECT, stubs / toolkit / "nvcc", cc, "--serves"], 30)
    line = r.out.rstrip("\n")
    assert r.rc == rc and len(r.out.splitlines()) == 1 and (line.endswith(want[3:]) if want.startswith("...") else line == want), r.tail()


def test_make_default_sms_on_cuda13_falls_back(stubs, common_copy):
    r = arch_info(stubs, "tk13", gpu="nogpu", folder=common_copy)
    want = "arch: building sm_75 + compute_75 PTX (default SMS=35 52 not supported by nvcc 13.0; oldest supported)"
    assert r.rc == 0 and want in r.out.splitlines(), r.tail()
