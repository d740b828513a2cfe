"""The strict-skip mechanism of tests/conftest.py, run on throw-away test files.

A real pytest in a subprocess, on a directory holding a copy of tests/conftest.py and tests that
skip every way the suite does: the normal run must skip them as before; the run with
TACO_STRICT_SKIPS=1 must fail every one but those allowed to skip with a reason.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

SKIPPING_TESTS = '''
import pytest

def test_passes():
    assert True

def test_skips_in_its_body():
    pytest.skip("frobnicator is not built")

def test_imports_a_missing_package():
    pytest.importorskip("no_such_package_for_strict_skips")

@pytest.mark.skipif(True, reason="chromium is not installed")
def test_skipif_mark():
    pass

@pytest.fixture
def unavailable():
    pytest.skip("the server is not running")

def test_skips_in_a_fixture(unavailable):
    pass

@pytest.mark.allowed_skip(reason="this platform has no named pipes")
def test_allowed_to_skip():
    pytest.skip("needs os.mkfifo")

@pytest.mark.allowed_skip
def test_allowed_without_a_reason():
    pytest.skip("needs os.mkfifo")

@pytest.mark.xfail(reason="a known bug", strict=True)
def test_expected_failure():
    assert False
'''

MODULE_LEVEL_SKIP = '''
import pytest
pytest.skip("taco is not built", allow_module_level=True)

def test_never_collected():
    pass
'''

ALLOWED_MODULE = '''
import pytest
pytestmark = [pytest.mark.skipif(True, reason="running as root without setpriv"),
              pytest.mark.allowed_skip(reason="needs setpriv to drop root")]

def test_a():
    pass
'''


@pytest.fixture
def project(tmp_path):
    shutil.copy(CONFTEST, tmp_path / "conftest.py")
    (tmp_path / "test_skipping.py").write_text(textwrap.dedent(SKIPPING_TESTS))
    (tmp_path / "test_module_skip.py").write_text(textwrap.dedent(MODULE_LEVEL_SKIP))
    (tmp_path / "test_allowed_module.py").write_text(textwrap.dedent(ALLOWED_MODULE))
    return tmp_path


def run_pytest(project: Path, strict: bool) -> tuple[int, dict[str, str], str]:
    """Exit code, {test node id: outcome} from the short summary, and the whole output."""
    env = {k: v for k, v in os.environ.items() if k != "TACO_STRICT_SKIPS"}
    if strict:
        env["TACO_STRICT_SKIPS"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q",
         "--continue-on-collection-errors", "--rootdir", str(project), str(project)],
        cwd=project, env=env, capture_output=True, text=True, timeout=300)
    outcomes = {}
    for line in proc.stdout.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("PASSED", "FAILED", "SKIPPED", "XFAIL", "ERROR"):
            # "SKIPPED [1] test_x.py:12: reason" names a file and line, not a test: key by the
            # reason's text; the others are "WORD test_x.py::name[ - message]".
            key = rest.split(" - ")[0] if word != "SKIPPED" else rest.split(": ", 1)[-1]
            outcomes[key] = word
    return proc.returncode, outcomes, proc.stdout + proc.stderr


def test_without_the_variable_tests_skip_as_before(project):
    code, outcomes, out = run_pytest(project, strict=False)
    assert code == 0, out
    assert outcomes["test_skipping.py::test_passes"] == "PASSED", out
    for reason in ("frobnicator is not built", "chromium is not installed",
                   "the server is not running", "taco is not built",
                   "running as root without setpriv"):
        assert outcomes.get(reason) == "SKIPPED", (reason, out)
    assert outcomes["test_skipping.py::test_expected_failure"] == "XFAIL", out
    assert "FAILED" not in outcomes.values(), out


def test_strict_run_fails_every_skip_not_allowed(project):
    code, outcomes, out = run_pytest(project, strict=True)
    assert code == 1, out
    for name in ("test_skips_in_its_body", "test_imports_a_missing_package", "test_skipif_mark",
                 "test_skips_in_a_fixture", "test_allowed_without_a_reason"):
        # A skip in the body fails the test; one at setup (a skipif mark, a fixture) is reported
        # as an error, as pytest reports any failure at setup.
        assert outcomes.get(f"test_skipping.py::{name}") in ("FAILED", "ERROR"), (name, out)
    assert outcomes.get("test_module_skip.py") == "ERROR", out
    # What is left alone: passes, an allowed skip (one test or a module), an expected failure.
    assert outcomes["test_skipping.py::test_passes"] == "PASSED", out
    assert outcomes.get("needs os.mkfifo") == "SKIPPED", out
    assert outcomes.get("running as root without setpriv") == "SKIPPED", out
    assert outcomes["test_skipping.py::test_expected_failure"] == "XFAIL", out


def test_strict_failure_names_the_test_and_what_is_missing(project):
    _, _, out = run_pytest(project, strict=True)
    assert ("test_skipping.py::test_skips_in_its_body skipped under TACO_STRICT_SKIPS=1: "
            "Skipped: frobnicator is not built") in out, out
    assert "no_such_package_for_strict_skips" in out, out
    assert "test_module_skip.py (the whole module) skipped under TACO_STRICT_SKIPS=1" in out, out
    assert "taco is not built" in out, out
    assert "make setup && make build" in out, out
    assert "its allowed_skip mark gives no reason" in out, out
