"""pytest's hooks for every folder: the helpers' module on the path, the log of the versions the
GPU cases ran (shared by xdist's workers through a file), and the selection each module saw, so
that a module's closing check (cwtest.every_version_ran) knows whether all of it ran."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "common", "py"))
import cwtest  # noqa: E402


def pytest_configure(config):
    if "CW_VERSION_LOG" not in os.environ:  # the controller; xdist's workers inherit it
        fd, path = tempfile.mkstemp(prefix="cw-versions-", suffix=".log")
        os.close(fd)
        os.environ["CW_VERSION_LOG"] = path
        config._cw_version_log_owner = path


def pytest_unconfigure(config):
    path = getattr(config, "_cw_version_log_owner", None)
    if path and os.path.exists(path):
        os.remove(path)


def pytest_itemcollected(item):
    cwtest.COLLECTED.setdefault(str(item.path), set()).add(item.nodeid)


def pytest_collection_finish(session):
    for item in session.items:
        cwtest.SELECTED.setdefault(str(item.path), set()).add(item.nodeid)


def pytest_collection_modifyitems(items):
    # A module's closing check runs after every other test (its log is complete then).
    items.sort(key=lambda item: item.name.startswith("test_every_version_ran"))


def pytest_collect_file(parent, file_path):
    # A GoogleTest source (tests/*_test.cpp): its cases, run from the folder's build/unit_tests.
    if file_path.name.endswith("_test.cpp") and file_path.parent.name == "tests":
        return cwtest.GoogleTestFile.from_parent(parent, path=file_path)
