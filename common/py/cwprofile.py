"""`make profile`'s path under Nsight Compute for the GPU tests (common/scripts/ncu_profile.sh,
common/py/ncu_tidy.py's rows); each helper skips with ncu_profile.sh --check's words where ncu or
a GPU is missing, and asserts with the command's output where a run fails.
  metrics(folder)                      the Makefile's PROFILE_METRICS, as a list
  profile_experiments(folder, tmp_path, figure, ...)
                                       make profile-experiments at a small size, its figure and
                                       tables; the tidy rows
"""
import csv
import os
import re
import shutil
import sys
from pathlib import Path

import pytest
from cwtest import ROOT, make_print, run

NCU_PROFILE = ROOT / "common/scripts/ncu_profile.sh"


def need_ncu():
    r = run(["bash", NCU_PROFILE, "--check"], 60)
    if r.rc != 0:
        pytest.skip((r.err.strip().splitlines() or ["ncu_profile.sh --check failed"])[0])


def metrics(folder):
    return make_print(folder, "profile-metrics").split(",")


def rows_of(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def profile_experiments(folder, tmp_path, figure, committed="*.csv", sub="", **make_vars):
    """`make profile-experiments RESULTS_DIR=R VAR=VALUE...` into a fresh R (P = tmp_path/profile,
    R = P/sub, or P where sub is empty) exits 0; where gnuplot is installed, plots/FIGURE.gp draws
    R/profile.csv with no warning or error; and `tables.py R --out P/tables.md` (with the committed
    results/COMMITTED, a glob, beside the new profile.csv, never the committed one) exits 0 and fills
    every table that reads profile.csv. Returns the rows of R/profile.csv for the caller's verdict."""
    need_ncu()
    prof = Path(tmp_path) / "profile"
    res = prof / sub if sub else prof
    res.mkdir(parents=True, exist_ok=True)
    r = run(["make", "--no-print-directory", "-s", "-C", ROOT / folder, "profile-experiments", f"RESULTS_DIR={res}",
             *(f"{k}={v}" for k, v in make_vars.items())], 600, env=dict(os.environ, CW_PROFILE_LOG_DIR=str(prof / "ncu")))
    assert r.rc == 0, "make profile-experiments failed\n" + r.tail()
    if shutil.which("gnuplot"):
        g = run(["gnuplot", "-c", ROOT / folder / "plots" / f"{figure}.gp", res / "profile.csv", prof / f"{figure}.png"], 120)
        assert g.rc == 0 and not re.search(r"warning|error", g.out + g.err, re.I), f"{figure}.gp\n" + g.tail()
    for f in (ROOT / folder).glob(f"results/{committed}"):
        if f.name != "profile.csv":
            shutil.copy(f, res)
    t = run([sys.executable, "tables.py", res, "--out", prof / "tables.md"], 120, cwd=ROOT / folder)
    assert t.rc == 0, "tables.py failed\n" + t.tail()
    assert not re.search(r"^\(no data: profile.csv", (prof / "tables.md").read_text(), re.M), "a profile table without data"
    return rows_of(res / "profile.csv")
