"""vecmax, tier 1 (no GPU): the sweep list, tables.py on made-up runs of the program's columns
(every table of a run, no-data lines, the counters' table and its figure), the tables of the
committed run, and run_report.sh's steps with a stand-in program. What every assignment's
documents must be (tables reproduced, a relabelled run's own tables, numbers in prose backed)
is tested once for all in common/tests."""
import csv
import os
import re
import shutil
import sys

import pytest
from cwtest import ROOT, figure, labels, need_built, program, run, versions

NAME = "vecmax"
B = program(NAME)
HERE = ROOT / NAME
N1, N2 = 40960000, 268435456  # the report's N, 2^28
# The report's 30 (threads, blocks) configurations, in the order of its test_params.py.
REPORT_CONFIGS = [(t, b) for b in (4, 16, 32, 64, 128) for t in (32, 64, 128, 256, 512, 1024)]


@pytest.fixture(autouse=True)
def built():
    need_built(B)


def sweep_configs():
    """sweep_configs.txt: its (threads, blocks) lines and the arguments of its vecmax-args line."""
    text = (HERE / "sweep_configs.txt").read_text()
    pairs = [tuple(map(int, l.split())) for l in (l.split("#")[0] for l in text.splitlines()) if len(l.split()) == 2]
    args = re.search(r"^# vecmax-args: (.*)$", text, re.M)
    return pairs, args.group(1).split() if args else []


def default_labels():
    return labels(NAME, lambda v: v.default)


def test_sweep_configs_hold_the_report_30_configurations_once():
    assert sweep_configs()[0] == REPORT_CONFIGS


def test_sweep_configs_select_their_versions_by_a_registry_tag():
    """The sweep's --only is @TAG, a tag the registry gives to validated versions only (no list here)."""
    only = [a for a in sweep_configs()[1] if a.startswith("--only=@")]
    assert only, "no '# vecmax-args:' line with --only=@TAG"
    tagged = labels(NAME, lambda v: only[0][len("--only=@"):] in v.tags)
    assert tagged and set(tagged) <= set(labels(NAME, lambda v: v.validated)), (only, tagged)


def write_run(path, rows):
    """A CSV of the program's columns (--print-csv-header): one row per dict, other columns 0."""
    header = run([B, "--print-csv-header"]).out.strip().split(",")
    base = dict.fromkeys(header, "0") | {"assignment": NAME, "device": "fake", "host_memory": "pageable",
                                         "data": "uniform", "result_ok": "1"}
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        f.writelines(",".join(str((base | row)[c]) for c in header) + "\n" for row in rows)


def tables(results, out):
    r = run([sys.executable, HERE / "tables.py", results, "--out", out])
    assert r.rc == 0, r.tail()
    return out.read_text()


def test_tables_of_a_run_with_the_program_columns(tmp_path):
    """Every table of a made-up run (sweep, copies of every version, bench of every version) is filled."""
    res = tmp_path / "vecmax/results"
    res.mkdir(parents=True)
    tag = next(a for a in sweep_configs()[1] if a.startswith("--only=@"))[len("--only=@"):]
    sweep_version = labels(NAME, lambda v: tag in v.tags)[0]
    write_run(res / "sweep.csv", [
        dict(version=sweep_version, threads=t, blocks=b, kernel_ms=100.0 / (t * b), input_ms=10, output_ms=0.1,
             total_gpu_ms=10.1 + 100.0 / (t * b), cpu_ms=30, speedup_gpu=30 / (10.1 + 100.0 / (t * b)), n=N1)
        for t, b in REPORT_CONFIGS])
    write_run(res / "copies.csv", [
        dict(version=v, host_memory=mem, input_ms=12, h2d_GBps=13.6, kernel_ms=0.1, output_ms=0.02, total_gpu_ms=12.2,
             cpu_ms=30, speedup_gpu=2.4, n=N1) for mem in ("pageable", "pinned") for v in default_labels()])
    ms = {v.label: 0.064 if v.baseline else 0.058 for v in versions(NAME)}
    write_run(res / "bench.csv", [
        dict(version=v, n=n, kernel_ms=ms[v], kernel_ms_no_flush=ms[v], baseline_ms=0.064,
             speedup_vs_baseline=0.064 / ms[v], bandwidth_GBps=2800, pct_of_copy_bw=93)
        for n in (N1, N2) for v in default_labels()])
    md = tables(res, tmp_path / "run.md")
    expected = ["| 32 | 4 | ", "| quantity | GTX 970 | fake |"] + [
        line for v in default_labels() for line in (f"| 40,960,000 | pinned | {v} |", f"| 268,435,456 | {v} | ")]
    assert not [e for e in expected if "\n" + e not in md], md
    assert not [f for f in ("sweep", "copies", "bench") if f"(no data: {f}.csv" in md], md  # h200/'s: not this run


def test_tables_without_any_results_say_no_data(tmp_path):
    md = tables(tmp_path, tmp_path / "empty.md")
    assert "(no data: sweep.csv" in md and "(no data: bench.csv" in md, md


def write_profile(path):
    """A profile.csv in ncu_tidy.py's layout: each default version's kernels (profile_kernels; two for
    a version tagged profile_two_kernels, the second a small pass), both sizes, every counter the
    table reads; version i has DRAM throughput 40.5 + 10 i % and a grid of 128 + 8 i blocks."""
    w = csv.writer(open(path, "w"), lineterminator="\n")
    w.writerow("assignment,version,kernel,m,n,metric,unit,value,launches,device,ncu_version".split(","))
    expect = []
    for i, v in enumerate(v for v in versions(NAME) if v.default):
        kernels = 2 if "profile_two_kernels" in v.tags else 1
        dram, grid = 40.5 + 10 * i, 128 + 8 * i
        expect.append(rf"\| 40,960,000 \| {v.label} \| {kernels} \| .* \| {dram:.1f} \| {grid} × 1024 \|")
        for n in (N1, N2):
            for k in range(kernels):
                for m, u, x in (("gpu__time_duration.sum", "nsecond", 3000 if k else n / 700.0),
                                ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", dram),
                                ("dram__bytes_read.sum", "byte", 4096 if k else 4 * n),
                                ("dram__bytes_write.sum", "byte", 512),
                                ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", 30),
                                ("sm__warps_active.avg.pct_of_peak_sustained_active", "%", 80),
                                ("launch__grid_size", "", 1 if k else grid), ("launch__block_size", "", 1024),
                                ("launch__registers_per_thread", "register/thread", 32),
                                ("launch__waves_per_multiprocessor", "", 1)):
                    w.writerow([NAME, v.label, f"{v.kernels or v.label}_kernel{k}<P>", "", n, m, u, x, 1, "fake GPU",
                                "2025.3"])
    return expect


def test_tables_fill_the_counters_table_from_a_profile_and_dram_sol_draws_it(tmp_path):
    expect = write_profile(tmp_path / "profile.csv")
    md = tables(tmp_path, tmp_path / "prof.md")
    assert not [e for e in expect if not re.search("^" + e, md, re.M)], md
    figure(HERE / "plots/dram_sol.gp", tmp_path / "profile.csv", tmp_path / "dram_sol.png")


def test_tables_of_the_committed_run_hold_the_best_configuration_and_the_library_at_2_28(tmp_path):
    """The 1024 x 128 sweep row, and each version of two kernels (CUB) at 2^28 with both of them."""
    md = tables(HERE / "results", tmp_path / "run.md")
    two = labels(NAME, lambda v: "profile_two_kernels" in v.tags)
    assert "\n| 1024 | 128 | " in md and all(f"\n| 268,435,456 | {v} | 2 | " in md for v in two), md


def run_report(tmp_path, **env):
    """run_report.sh beside a copy of sweep_configs.txt and a stand-in program that passes every run."""
    v = tmp_path / "v"
    (v / "bin").mkdir(parents=True)
    for f in ("run_report.sh", "sweep_configs.txt"):
        shutil.copy(HERE / f, v)
    (v / "bin/vecmax").write_text('#!/bin/sh\necho "vecmax version=stand-in: Result = PASS"\n')
    (v / "bin/vecmax").chmod(0o755)
    return run(["bash", v / "run_report.sh"],
               env={**os.environ, "VECMAX_SKIP_SWEEP": "0", "RESULTS_DIR": str(tmp_path / "out"), **env})


def test_run_report_runs_the_sweep_and_the_four_fixed_steps(tmp_path):
    r, n = run_report(tmp_path), len(sweep_configs()[0]) + 4
    assert r.rc == 0 and f"\n[{n}/{n}] bench" in "\n" + r.out, r.tail()
    assert "wrote sweep.csv copies.csv bench.csv" in r.out, r.tail()


def test_run_report_with_skip_sweep_runs_the_four_fixed_steps_alone(tmp_path):
    """VECMAX_SKIP_SWEEP=1 (slurm/submit_all.sh --sweep-array: its job array runs the sweep)."""
    r = run_report(tmp_path, VECMAX_SKIP_SWEEP="1")
    assert r.rc == 0 and "\n[4/4] bench" in "\n" + r.out and "sweep threads=" not in r.out, r.tail()
    assert "wrote copies.csv bench.csv in" in r.out, r.tail()
