"""pytest's hooks for every folder: the helpers' module on the path, the log of the versions the
GPU cases of each module ran (shared by xdist's workers through a file), and what each module
holds against what was selected, so that a module's closing check (cwtest.every_version_ran)
knows whether all of it ran, and runs last."""
import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common", "py"))
import cwtest  # noqa: E402


def pytest_configure(config):
    if "PYTEST_XDIST_WORKER" not in os.environ:  # the controller: a fresh log, which the workers inherit
        fd, path = tempfile.mkstemp(prefix="cw-versions-", suffix=".log")
        os.close(fd)
        os.environ["CW_VERSION_LOG"] = path
        config._cw_version_log_owner = path


def pytest_unconfigure(config):
    path = getattr(config, "_cw_version_log_owner", None)
    if path and os.path.exists(path):
        os.remove(path)


def pytest_collectreport(report):
    # Every test of a module, whatever -k or a test id selects from it.
    if report.passed:
        for item in report.result:
            if isinstance(item, pytest.Item):
                cwtest.COLLECTED.setdefault(cwtest.module_id(item.nodeid), set()).add(item.nodeid)


def pytest_collection_finish(session):
    cwtest.DIST = session.config.getoption("dist", "no")
    for item in session.items:
        cwtest.SELECTED.setdefault(cwtest.module_id(item.nodeid), set()).add(item.nodeid)


def pytest_collection_modifyitems(items):
    # A module's closing check runs after every other test (its log is complete then).
    items.sort(key=lambda item: item.name.startswith("test_every_version_ran"))


# A GoogleTest source (tests/*_test.cpp): its cases, run from the folder's build/unit_tests. The
# hook's argument is `file_path` (a pathlib.Path) from pytest 7 on and `path` (py.path) before:
# pytest 6 is the python3-pytest of Ubuntu 22.04 and RHEL 9, whose pluggy refuses a hook that
# declares an argument its version does not have, so the whole run would stop.
PYTEST_MAJOR = int(pytest.__version__.split(".")[0])
if PYTEST_MAJOR >= 7:
    def pytest_collect_file(parent, file_path):
        if file_path.name.endswith("_test.cpp") and file_path.parent.name == "tests":
            return cwtest.GoogleTestFile.from_parent(parent, path=file_path)
else:
    def pytest_collect_file(parent, path):
        file_path = Path(str(path))
        if file_path.name.endswith("_test.cpp") and file_path.parent.name == "tests":
            node = cwtest.GoogleTestFile.from_parent(parent, fspath=path)
            node.path = file_path  # what pytest 7 calls it (cwtest reads it)
            return node
