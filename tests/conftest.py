"""Strict skips: under `make test` a skipped test is a failure, unless it is allowed to skip.

Many tests skip when an optional package is missing (`pytest.importorskip`) or when `taco` is not
built. That is the right thing on a developer's partial checkout, but `make test` installs and
builds everything first, so a skip there hides a broken setup and proves nothing.

With TACO_STRICT_SKIPS=1 in the environment (scripts/run_tests.sh sets it), every skip becomes a
failure that names the test and the skip's own reason (what is missing). Without the variable,
tests skip as usual.

A test that may skip even on a complete setup (a limitation of the platform, not of the setup)
says so with a reason:

    @pytest.mark.allowed_skip(reason="needs named pipes (os.mkfifo), which this OS lacks")

or `pytestmark = pytest.mark.allowed_skip(reason=...)` for a whole module. A module-level skip
(`pytest.skip(..., allow_module_level=True)` or an `importorskip` at import) happens before the
module's markers exist, so it cannot be allowed: write it as a `skipif` mark instead.

This file only adds hooks and one marker; it defines no fixtures or names to import, so it does
not take part in the `from conftest import ...` of tests/python (see scripts/run_tests.sh).
"""

from __future__ import annotations

import os

import pytest

STRICT_ENV = "TACO_STRICT_SKIPS"
ALLOWED_MARK = "allowed_skip"

HOW_TO_FIX = (
    "make test installs and builds everything, so this skip hides a broken setup: run "
    "`make setup && make build` (Python packages come from scripts/python-requirements*.txt, "
    "system ones from scripts/setup.sh), or, if the skip is a limitation of the platform, mark "
    f"the test @pytest.mark.{ALLOWED_MARK}(reason=...)."
)


def strict_skips() -> bool:
    return os.environ.get(STRICT_ENV, "") not in ("", "0")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        f"{ALLOWED_MARK}(reason): the test may skip even under {STRICT_ENV}=1 (make test); "
        "the reason says why the skip is not a broken setup",
    )


def skip_reason(report) -> str:
    # A skip's longrepr is (file, line, "Skipped: <reason>").
    if isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        return str(report.longrepr[2])
    return str(report.longrepr)


def allowance(item) -> str | None:
    """The reason an item is allowed to skip, or None when it is not (or gives no reason)."""
    mark = item.get_closest_marker(ALLOWED_MARK)
    if mark is None:
        return None
    reason = mark.kwargs.get("reason") or (mark.args[0] if mark.args else "")
    return str(reason).strip() or None


def fail_the_skip(report, where: str, reason: str, extra: str = "") -> None:
    report.outcome = "failed"
    report.longrepr = (
        f"{where} skipped under {STRICT_ENV}=1: {reason}\n{extra}{HOW_TO_FIX}"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    # An xfail is reported as a skip with `wasxfail`: that is an expected failure, not a skip.
    if not strict_skips() or not report.skipped or hasattr(report, "wasxfail"):
        return
    if allowance(item) is not None:
        return
    extra = ""
    if item.get_closest_marker(ALLOWED_MARK) is not None:
        extra = f"(its {ALLOWED_MARK} mark gives no reason, so it does not count)\n"
    fail_the_skip(report, item.nodeid, skip_reason(report), extra)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if strict_skips() and report.skipped:
        fail_the_skip(report, f"{collector.nodeid} (the whole module)", skip_reason(report))


@pytest.fixture()
def duckdb_spatial_offline(monkeypatch):
    """Every duckdb.connect() of this test (tacoreader's) finds DuckDB's spatial extension in
    the duckdb-ext-spatial wheel and never asks the network for another (as
    bench/bench_spacetime.py does), so the reference's spatial filters run offline."""
    import importlib.util
    import os

    import duckdb

    ext = list(importlib.util.find_spec("duckdb_ext").submodule_search_locations)[0]
    connect = duckdb.connect

    def offline_connect(*a, **k):
        db = connect(*a, **k)
        db.execute(f"SET extension_directory = '{os.path.join(ext, 'extensions')}'")
        db.execute("SET custom_extension_repository = '/nonexistent/tacocore-test'")
        return db

    monkeypatch.setattr(duckdb, "connect", offline_connect)
