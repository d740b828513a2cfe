"""Legacy v1 files under paths that are not UTF-8 (issue 18 item 8): read by the CLI (info, ls,
sql, cat, validate) and migrated to TACO 2.0 outputs whose names are not UTF-8 either, from files
the legacy writers made (tests/legacy/conftest.py). Fails on main f1e9635 with DuckDB's
"Invalid unicode" error.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

BAD = {"ff": b"\xff", "continuation": b"\x80", "overlong": b"\xc0\xaf"}


@pytest.fixture(params=sorted(BAD))
def bad(request) -> bytes:
    return BAD[request.param]


def ok(taco, *args) -> bytes:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "backslashreplace")
    return proc.stdout


@pytest.mark.parametrize("name", ["flat.tortilla", "nested.taco"])
def test_cli_reads_and_migrates_v1_files_under_such_paths(v1, taco, tmp_path, bad, name):
    parent = tmp_path / os.fsdecode(b"legacy" + bad)
    parent.mkdir()
    src = parent / os.fsdecode(b"v" + bad + b"_" + name.encode())
    shutil.copy(v1.path(name), src)
    info = json.loads(ok(taco, "info", "--json", src).decode("utf-8"))
    assert info["path"] == os.fsencode(src).decode("utf-8", "backslashreplace")
    count = json.loads(ok(taco, "sql", src, "SELECT count(*) AS n FROM data", "--json"))[0]["n"]
    assert count == len(v1.manifest[name]["rows"])
    assert ok(taco, "ls", src)
    # validate answers as it does for the same file under a UTF-8 name (a v1 file is not 2.0)
    proc, same = taco("validate", src), taco("validate", v1.path(name))
    assert proc.returncode == same.returncode, proc.stdout + proc.stderr
    assert proc.stdout.split(b":")[-1] == same.stdout.split(b":")[-1]
    if name == "flat.tortilla":
        assert ok(taco, "cat", src, "tile_4") == (v1.inputs / "tile_4.tif").read_bytes()
    for out in (parent / os.fsdecode(b"m" + bad + b".tacozip"), parent / os.fsdecode(b"m" + bad)):
        ok(taco, "migrate", src, out)
        got = json.loads(ok(taco, "sql", out, "SELECT count(*) AS n FROM data", "--json"))[0]["n"]
        assert got == count
        assert b"valid (0 errors" in ok(taco, "validate", out)
    assert not [p for p in parent.iterdir() if ".partial" in p.name]
