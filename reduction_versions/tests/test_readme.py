"""Tier 1 (no GPU): README.md and DETAILS.md name no prose templates, and every option and make target
they name exists (--help, the Makefile; Nsight Compute's own options left out). What every assignment's
documents must be (tables reproduced from the committed CSVs, a relabelled run's own tables, numbers in
prose backed) is tested once for all in common/tests; a new version label reaching the tables and
figures, in test_adding_a_version.py."""
import re

from cwtest import ROOT, need_built, program, run

NAME = "reduction_versions"
DOCS = (ROOT / NAME / "README.md").read_text() + (ROOT / NAME / "DETAILS.md").read_text()
NCU_OPTIONS = {"--kernel-name", "--launch-count", "--clock-control", "--cache-control", "--check", "--out"}


def test_documents_name_no_prose_templates():
    assert "prose.md" not in DOCS


def test_every_option_and_make_target_the_documents_name_exists():
    need_built(program(NAME))
    known = set(re.findall(r"--[a-z0-9-]+", run([program(NAME), "--help"]).out)) | NCU_OPTIONS
    targets = set(re.findall(r"^([A-Za-z0-9_-]+):", run(["make", "-qp", "-C", ROOT / NAME]).out, re.M))
    bad = [f"{o} is not in --help" for o in sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", DOCS)) - known)]
    bad += [f"make {t} is not a target" for t in sorted(set(re.findall(r"`make (?:-C [\w/]+ )?([a-z][a-z0-9-]*)", DOCS)))
            if t not in targets]
    assert not bad, "; ".join(bad)
