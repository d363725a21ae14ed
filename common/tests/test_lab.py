"""The reference apart from the lab (no GPU). An assignment's results/ (and results/<gpu>/) holds only
what its Makefile's `make report` and `make profile` recipes, the scripts they run and its results/
rules write: the names are read from those files (`$(RESULTS_DIR)/NAME`, `$out/NAME`, a
`results/NAME:` rule), never listed here. Every file of the lab, experiments/results/<gpu>/, is one
that experiments/Makefile declares (LAB_OUTPUTS, common/lab.mk) and has the rule that makes it, and
every declared file is committed for some GPU. The lab's figures render from the committed CSVs, its
notes back their numbers, and its new runs (small.sh, gap.sh, reduction_versions' run.sh) assemble
their CSVs as they say, on stand-in programs. Manifests (a file named manifest*: MANIFEST.tsv) are no
file of a run; each lab command records the provenance of the CSVs it replaced in the manifest of
their folder (common/lab.mk's lab_write and lab_record), and only when its run succeeded."""
import csv
import os
import re
import shutil

import pytest
from cwtest import ROOT, UNDER_TEST, figure, run

KEPT = (".csv", ".txt")  # the kinds of file a run writes into a results folder
WRITES = re.compile(r"(?:\$\(RESULTS_DIR\)|\$\{?RESULTS_DIR\}?|\$\{?out\}?)/([A-Za-z0-9_.-]+)")
RULE = re.compile(r"^results/([A-Za-z0-9_.-]+)\s*:(?!=)", re.M)


def is_manifest(path):
    return os.path.basename(path).lower().startswith("manifest")


def committed(folder, depth):
    """The run files (KEPT) of folder and, depth 2, of its sub-folders: paths relative to folder."""
    pattern = ["*", "*/*"][:depth]
    return sorted(str(p.relative_to(folder)) for g in pattern for p in folder.glob(g)
                  if p.is_file() and p.name.endswith(KEPT) and not is_manifest(p))


def report_outputs(name):
    """The file names the assignment's Makefile writes into $(RESULTS_DIR) (report and profile
    recipes, and the scripts of its own folder that they run) or makes by a results/ rule."""
    folder = ROOT / name
    text = (folder / "Makefile").read_text()
    scripts = [folder / s for s in re.findall(r"\bbash\s+([A-Za-z0-9_./-]+\.sh)\b", text) if (folder / s).is_file()]
    texts = [text] + [s.read_text() for s in scripts]
    return {n for t in texts for n in WRITES.findall(t) if n.endswith(KEPT)} | set(RULE.findall(text))


def test_report_outputs_are_read_from_the_makefiles():
    """The reader finds what the Makefiles say: every assignment writes CSVs, pi its sample output,
    scan a CSV by a rule, vecmax its CSVs by run_report.sh, and nothing that is no file name."""
    found = {a: report_outputs(a) for a in ("vecmax", "pi", "scan", "colreduce", "reduction_versions")}
    assert all(any(n.endswith(".csv") for n in names) for names in found.values()), found
    assert "sample_output.txt" in found["pi"] and "hillis_steele_steps.csv" in found["scan"], found
    assert {"sweep.csv", "copies.csv", "bench.csv", "profile.csv"} <= found["vecmax"], found
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+\.(csv|txt)", n) for names in found.values() for n in names), found


@pytest.mark.parametrize("name", UNDER_TEST)
def test_results_hold_only_what_make_report_and_make_profile_write(name):
    allowed = report_outputs(name)
    extra = [f for f in committed(ROOT / name / "results", 2) if os.path.basename(f) not in allowed]
    assert not extra, (f"{name}/results/ holds files that neither `make report` nor `make profile` writes "
                       f"(an experiment's belong in {name}/experiments/results/<gpu>/): {extra}")


def lab(name):
    return ROOT / name / "experiments"


def make(folder, *args, timeout=180):
    return run(["make", "--no-print-directory", "-C", folder, *args], timeout, env=dict(os.environ, MAKEFLAGS=""))


LABS = [a for a in UNDER_TEST if (lab(a) / "results").is_dir() or (lab(a) / "Makefile").is_file()]


@pytest.mark.parametrize("name", LABS)
def test_every_lab_file_is_declared_and_has_the_command_that_makes_it(name):
    files = committed(lab(name) / "results", 2)
    assert all("/" in f for f in files), f"{name}: a lab file outside results/<gpu>/: {files}"
    assert (lab(name) / "Makefile").is_file(), f"{name}/experiments/ has files and no Makefile: {files}"
    r = make(lab(name), "-s", "print-lab-outputs")
    assert r.rc == 0, r.tail()
    declared = set(r.out.split())
    present = {os.path.basename(f) for f in files}
    assert present == declared, (f"{name}: committed but declared by no command: {sorted(present - declared)}; "
                                 f"declared but committed for no GPU: {sorted(declared - present)}")
    # every committed file has its rule (make -n: the commands, printed, not run; the build
    # they need is printed by the assignment's Makefile)
    r = make(lab(name), "-n", *[f"results/{f}" for f in files])
    assert r.rc == 0, r.tail()


def lab_rules(text):
    """[(target names, recipe text)] of the results/%/ rules of an experiments/Makefile."""
    rules, lines = [], text.replace("\\\n", " ").split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^((?:results/%/[A-Za-z0-9_.-]+\s*)+):", line)
        if m:
            body = []
            for rest in lines[i + 1:]:
                if not rest.startswith("\t"):
                    break
                body.append(rest)
            rules.append(([t.split("/")[-1] for t in m.group(1).split()], "\n".join(body)))
    return rules


@pytest.mark.parametrize("name", LABS)
def test_every_lab_rule_records_the_provenance_of_its_csvs(name):
    """Each CSV a rule makes is recorded by its recipe: lab_write (one file, its own) or a
    lab_record call that names it, after the run."""
    rules = lab_rules((lab(name) / "Makefile").read_text())
    assert rules, f"{name}/experiments/Makefile: no results/%/ rule found"
    bad = []
    for targets, recipe in rules:
        recorded = set()
        for names in re.findall(r"\$\(call lab_record,([^)]*)\)", recipe):
            recorded |= set(names.split())
        if "$(call lab_write," in recipe and len(targets) == 1:
            recorded.add(targets[0])
        bad += [t for t in targets if t.endswith(".csv") and t not in recorded]
    assert not bad, f"{name}/experiments/Makefile: CSVs whose rule records no provenance: {bad}"


LAB_MAKEFILE = """LAB_OUTPUTS := one.csv two.csv three.csv
LAB_BUILD :=
ROWS := device,driver\\nGPU C,600.1\\n
include ../../common/lab.mk
results/%/one.csv: lab-force
\t$(call lab_write,printf '$(ROWS)' >$@.partial && test "$${FAIL:-0}" = 0)
results/%/two.csv results/%/three.csv: lab-force
\tmkdir -p $(@D) && printf 'x\\n1\\n' >$(@D)/two.csv && printf 'x\\n2\\n' >$(@D)/three.csv && exit $${FAIL:-0}
\t@$(call lab_record,two.csv three.csv)
"""


def test_a_lab_run_records_its_csvs_and_a_failed_one_nothing(tmp_path):
    """A lab of stand-in rules (common/lab.mk and provenance.py as they are): a run that succeeded
    gives each CSV it replaced its row, with the command that makes it again (and the CW_*
    variables it ran with), the commit, the CSV's GPU; a run that failed writes no manifest."""
    repo = tmp_path / "repo"
    (repo / "common/py").mkdir(parents=True)
    shutil.copy2(ROOT / "common/lab.mk", repo / "common")
    shutil.copy2(ROOT / "common/py/provenance.py", repo / "common/py")
    (repo / "a/experiments").mkdir(parents=True)
    (repo / "a/a_kernels.cu").write_text("__global__ void k() {}\n")
    (repo / "a/experiments/Makefile").write_text(LAB_MAKEFILE)
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false",
                  "commit", "-q", "-m", "lab"]):
        assert run(["git", "-C", repo, *args], 60).rc == 0
    head = run(["git", "-C", repo, "rev-parse", "HEAD"], 60).out.strip()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CW_")}
    mk = ["make", "--no-print-directory", "-C", repo / "a/experiments"]
    r = run(mk + ["results/h100/one.csv"], 120, env=dict(env, MAKEFLAGS="", CW_X="5"))
    assert r.rc == 0, r.tail()
    r = run(mk + ["results/h100/three.csv"], 120, env=dict(env, MAKEFLAGS=""))
    assert r.rc == 0, r.tail()
    manifest = repo / "a/experiments/results/h100/MANIFEST.tsv"
    rows = {row["file"]: row for row in csv.DictReader(manifest.open(), delimiter="\t")}
    assert sorted(rows) == ["one.csv", "three.csv", "two.csv"], rows
    one = rows["one.csv"]
    assert one["command"] == "CW_X='5' make -C a/experiments results/h100/one.csv", one
    assert one["commit"] == head and one["origin"] == "run" and one["gpu"] == "GPU C" and one["driver"] == "600.1", one
    assert rows["two.csv"]["command"] == "make -C a/experiments results/h100/three.csv", rows["two.csv"]
    for target in ("results/h200/one.csv", "results/h200/two.csv"):
        r = run(mk + [target], 120, env=dict(env, MAKEFLAGS="", FAIL="3"))
        assert r.rc != 0, r.tail()
    assert not (repo / "a/experiments/results/h200/MANIFEST.tsv").exists()
    assert not (repo / "a/experiments/results/h200/one.csv").exists()


@pytest.mark.parametrize("name", LABS)
def test_a_lab_file_no_rule_makes_is_found(name):
    """The rule check above can fail: a file the Makefile has no rule for stops make -n."""
    r = make(lab(name), "-n", "results/h100/cw_no_such_experiment.csv")
    assert r.rc != 0 and "No rule to make target" in r.err, r.tail()


LAB_FIGURES = [(a, *line.split()) for a in LABS if (lab(a) / "Makefile").is_file()
               for line in make(lab(a), "-s", "print-figures").out.splitlines() if line.strip()]


@pytest.mark.parametrize("name,fig,csv_path", [pytest.param(*f, id=f"{f[0]}-{f[1]}") for f in LAB_FIGURES])
def test_lab_figure_renders_from_the_committed_csv(name, fig, csv_path, tmp_path):
    assert (lab(name) / csv_path).is_file(), f"{name}/experiments/plots/{fig}.gp reads {csv_path}, which is not committed"
    figure(lab(name) / "plots" / f"{fig}.gp", lab(name) / csv_path, tmp_path / f"{fig}.png")


@pytest.mark.parametrize("name", [a for a in LABS if (lab(a) / "README.md").is_file()])
def test_lab_notes_read_in_a_terminal_and_back_their_numbers(name):
    """experiments/README.md as readme_check.py reads a DETAILS.md: 100 columns, tables in blocks,
    every number in prose in a table of the notes or in a paragraph that names its CSV."""
    r = run(["python3", ROOT / "common/py/readme_check.py", lab(name) / "README.md"], 60)
    assert r.rc == 0, r.tail(20)


# The new runs on stand-in programs: each writes a CSV naming what it was asked (its arguments).
LOOKBACK_TUNING = r"""#!/usr/bin/env bash
{ echo "round,variant,n"; for v in "tile_copy 256x32" "local 256x32 minb6" "256x32 minb6 tid0 sleep100 hint0 stash1" \
  "256x32 minb6 tid0 sleep100 hint0 stash1 win4x32"; do echo "1,$v,$CW_TUNING_N"; done; echo "1,\"filter $2\",0"; } >"$1"
"""
WS_SCAN = r"""#!/usr/bin/env bash
for a in "$@"; do case $a in --csv=*) c=${a#--csv=};; --range=*) r=${a#--range=};; --only=*) o=${a#--only=};; esac; done
printf 'variant,n,mode\nmemcpy_d2d,%s,inclusive\n%s,1,inclusive\n%s_f2,1,inclusive\n%s_la8,1,inclusive\n' "$r" "$o" "$o" "$o" >"$c"
"""
SCAN = r"""#!/usr/bin/env bash
for a in "$@"; do case $a in --csv=*) c=${a#--csv=};; --data=*) d=${a#--data=};; --l2=*) l=${a#--l2=};; esac; done
[ -z "${FAIL:-}" ] || [ "$FAIL" != "${d:-}" ] || exit 1
echo "assignment,version,n,kernel_ms,mode,data,warmup,l2,repeat,baseline_ms,copy_n_ms,k1_name,device" >"$c"
echo "scan,lookback,8388608,0.02,inclusive,${d:-random},3,${l:-flush},20,0.03,0.01,scan_decoupled_lookback,Fake GPU" >>"$c"
"""
RV = r"""#!/usr/bin/env bash
for a in "$@"; do case $a in --csv=*) c=${a#--csv=};; --blocks=*) b=${a#--blocks=};; --sizes=*|--n=*) s=${a#--*=};; esac; done
echo "assignment,version,device,n,blocks,kernel_ms,baseline_ms,result_ok,repeat,copy_bw_GBps" >"$c"
for n in ${s//,/ }; do echo "rv,8,Fake GPU,$n,${b:-1056},0.004,0.005,1,50,2900" >>"$c"; echo "rv,cub,Fake GPU,$n,,0.005,0.005,1,50,2900" >>"$c"; done
"""


def stand_in(root, programs, scripts):
    for path, text in programs.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
        (root / path).chmod(0o755)
    (root / "experiments").mkdir(exist_ok=True)
    for s in scripts:
        shutil.copy2(s, root / "experiments")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_small_sh_keeps_the_committed_variants_of_three_processes(tmp_path):
    stand_in(tmp_path / "scan", {"build/experiments/lookback_tuning": LOOKBACK_TUNING},
             [lab("scan") / s for s in ("small.sh", "staging.sh")])
    r = run(["bash", tmp_path / "scan/experiments/small.sh"], 60, env=dict(os.environ, OUT=str(tmp_path / "out")))
    assert r.rc == 0, r.tail()
    got = rows(tmp_path / "out/lookback_small.csv")
    assert {(g["process"], g["n"]) for g in got if g["n"] != "0"} == {
        (p, n) for p in "123" for n in ("1048576", "2097152", "4194304")}, got
    assert not any(g["variant"].endswith("win4x32") for g in got), got  # the window variant left out
    assert {g["variant"] for g in got if g["variant"].startswith("filter")} == {
        "filter tile_copy,local,256x16 minb8 tid0 sleep100 hint0 stash1,256x32 minb6 tid0 sleep100 hint0 stash1"}, got


def test_gap_sh_writes_both_csvs_with_their_settings_and_ranges(tmp_path):
    stand_in(tmp_path / "scan", {"build/experiments/ws_scan": WS_SCAN, "bin/scan": SCAN},
             [lab("scan") / s for s in ("gap.sh", "staging.sh")])
    shutil.copy2(ROOT / "scan/scan_policy.h", tmp_path / "scan")  # gap.sh reads the ws shape there
    r = run(["bash", tmp_path / "scan/experiments/gap.sh"], 60, env=dict(os.environ, OUT=str(tmp_path / "out")))
    assert r.rc == 0, r.tail()
    settings = rows(tmp_path / "out/program_settings.csv")
    assert [(s["setting"], s["process"]) for s in settings] == [
        (k, p) for k in ("default", "full", "iota", "warmup200", "l2keep") for p in "123"], settings
    assert [s["data"] for s in settings][::3] == ["random", "full", "iota", "random", "random"], settings
    assert settings[-1]["l2"] == "keep" and list(settings[0])[:3] == ["setting", "process", "version"], settings
    ranges = rows(tmp_path / "out/ws_range.csv")
    assert [(g["range"], g["process"], g["variant"]) for g in ranges] == [
        (k, p, v) for k in ("1000", "1000000") for p in "123" for v in ("memcpy_d2d", "ws_t4096_s12_r2_w8_st0_d0_l2")], ranges


def test_gap_sh_writes_nothing_when_a_run_fails(tmp_path):
    stand_in(tmp_path / "scan", {"build/experiments/ws_scan": WS_SCAN, "bin/scan": SCAN},
             [lab("scan") / s for s in ("gap.sh", "staging.sh")])
    (tmp_path / "out").mkdir()
    r = run(["bash", tmp_path / "scan/experiments/gap.sh"], 60, env=dict(os.environ, OUT=str(tmp_path / "out"), FAIL="iota"))
    assert r.rc != 0 and os.listdir(tmp_path / "out") == [], (r.tail(), os.listdir(tmp_path / "out"))


def test_reduction_versions_v8_grid_runs_eight_sweeps_at_their_grids(tmp_path):
    stand_in(tmp_path / "rv", {"bin/reduction_versions": RV}, [lab("reduction_versions") / "run.sh"])
    r = run(["bash", tmp_path / "rv/experiments/run.sh", "v8_grid"], 60, env=dict(os.environ, OUT=str(tmp_path / "out")))
    assert r.rc == 0, r.tail()
    got = rows(tmp_path / "out/v8_grid.csv")
    assert list(got[0]) == "device,n,grid,v8_ms,cub_ms,v8_over_cub,v8_ok,repeat,copy_bw_GBps".split(","), got[0]
    assert [g["grid"] for g in got][::7] == [str(w * 1056) for w in (1, 4, 8, 16) * 2] and len(got) == 56, got
    assert {g["v8_over_cub"] for g in got} == {"1.25"}, got  # CUB's time over version 8's
