"""scan's experiment scripts without a GPU: experiments/mid.sh and start.sh on stand-in programs (a
ws_scan, a scan and a lookback_tuning that write rows naming their arguments): the processes of each,
the CSVs assembled with a process column, and nothing written when a process fails."""
import csv
import os
import shutil

import pytest
from cwtest import ROOT, run

WS_SCAN = r"""#!/usr/bin/env bash
for a in "$@"; do case $a in --csv=*) c=${a#--csv=};; --trace=*) t=${a#--trace=};; --sizes=*) s=${a#--sizes=};; esac; done
printf 'variant,n,sizes\nws,1,"%s"\n' "$s" >"$c"
[ -z "${t:-}" ] || printf 'variant,n,cta\nws,1,0\nws,1,1\n' >"$t"
"""
SCAN = r"""#!/usr/bin/env bash
for a in "$@"; do case $a in --csv=*) c=${a#--csv=};; --la-kernel=*) k=${a#--la-kernel=};; esac; done
n=$(cat "$(dirname "$0")/calls" 2>/dev/null || echo 0); echo $((n + 1)) >"$(dirname "$0")/calls"
[ "$((n + 1))" != "${FAIL_AT:-0}" ] || exit 1
[ -f "$c" ] || echo "version,la_kernel" >"$c"
echo "lookahead,$k" >>"$c"
"""
LOOKBACK_TUNING = r"""#!/usr/bin/env bash
n=$(cat "$(dirname "$0")/calls" 2>/dev/null || echo 0); echo $((n + 1)) >"$(dirname "$0")/calls"
[ "$((n + 1))" != "${FAIL_AT:-0}" ] || { echo "WRONG at $((n + 1))"; exit 1; }
printf 'variant,n\n"%s",%s\n' "$2" "$CW_TUNING_N" >"$1"
"""


@pytest.fixture
def tree(tmp_path):
    """A scan folder with mid.sh and the two stand-ins where it looks for them."""
    root = tmp_path / "scan"
    (root / "experiments").mkdir(parents=True)
    (root / "build/experiments").mkdir(parents=True)
    (root / "bin").mkdir()
    for script in ("mid.sh", "start.sh", "staging.sh"):
        shutil.copy2(ROOT / "scan/experiments" / script, root / "experiments")
    shutil.copy2(ROOT / "scan/scan_policy.h", root)  # the scripts read the program's ws shape there
    for path, text in ((root / "build/experiments/ws_scan", WS_SCAN), (root / "bin/scan", SCAN),
                       (root / "build/experiments/lookback_tuning", LOOKBACK_TUNING)):
        path.write_text(text)
        path.chmod(0o755)
    return root


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_mid_sh_assembles_three_processes_of_each_csv(tree, tmp_path):
    out = tmp_path / "out/not-yet-made"  # $OUT need not exist (a device call's fresh $OUT/sub)
    r = run(["bash", tree / "experiments/mid.sh"], 60, env=dict(os.environ, OUT=str(out)))
    assert r.rc == 0, r.tail()
    mid, trace, switch = rows(out / "ws_scan_mid.csv"), rows(out / "ws_trace.csv"), rows(out / "la_switch.csv")
    assert [m["process"] for m in mid] == ["1", "2", "3"] and "2^20" in mid[0]["sizes"], mid
    assert [t["process"] for t in trace] == ["1", "1"], trace  # the trace of the first process
    assert [s["la_kernel"] for s in switch] == ["ws", "lookback"] * 3, switch


def test_mid_sh_writes_nothing_when_a_process_fails(tree, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    r = run(["bash", tree / "experiments/mid.sh"], 60, env=dict(os.environ, OUT=str(out), FAIL_AT="4"))
    assert r.rc != 0 and sorted(os.listdir(out)) == [], (r.tail(), os.listdir(out))


def test_mid_sh_stops_with_one_line_when_a_program_is_not_built(tree, tmp_path):
    (tree / "bin/scan").unlink()
    r = run(["bash", tree / "experiments/mid.sh"], 60, env=dict(os.environ, OUT=str(tmp_path)))
    assert r.rc == 2 and len(r.err.splitlines()) == 1 and "not built" in r.err, r.tail()


def test_start_sh_assembles_the_processes_of_each_csv(tree, tmp_path):
    out = tmp_path / "out/not-yet-made"
    r = run(["bash", tree / "experiments/start.sh"], 60, env=dict(os.environ, OUT=str(out)))
    assert r.rc == 0, r.tail()
    window, fill = rows(out / "lookback_window.csv"), rows(out / "ws_first_fill.csv")
    trace = rows(out / "ws_trace_first_fill.csv")
    small = [(w["process"], w["n"]) for w in window if w["n"] in ("65536", "4194304")]
    assert small == [(p, n) for p in "123" for n in ("65536", "4194304")], window
    large = [(w["process"], w["n"]) for w in window if int(w["n"]) >= 20000000]
    assert large == [(p, n) for p in "12" for n in ("20000000", "268435456")], window
    small = "minb6 tid1 sleep100 hint0 stash1,256x32 minb6 tid0 sleep100 hint0 stash1"  # the filters it passes
    large = "256x32 minb6 tid0 sleep100 hint0 stash1"
    assert all(w["variant"] == (small if int(w["n"]) < 20000000 else large) for w in window), window
    assert [f["process"] for f in fill] == ["1", "2", "3"] and "2^28" in fill[0]["sizes"], fill
    assert len(trace) == 2, trace


def test_start_sh_writes_nothing_when_a_process_fails(tree, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    r = run(["bash", tree / "experiments/start.sh"], 60, env=dict(os.environ, OUT=str(out), FAIL_AT="17"))
    assert r.rc != 0 and sorted(os.listdir(out)) == [], (r.tail(), os.listdir(out))
    assert "start.sh: stopped (exit 1); the last lines of lt.log:" in r.err and "WRONG at 17" in r.err, r.tail()
