"""Issue 18 "Done when": the JSON size limit of USER-GUIDE §8 Limits. A COLLECTION.json (or a
`--collection` file) larger than 64 MiB is refused by name before it is parsed, not read whole
into memory several times over.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from cli_support import REPO_ROOT, TACO


LIMIT = 64 << 20


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def test_oversized_collection_json_is_refused_at_load(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"a")
    ds = tmp_path / "ds"
    assert taco("create", "--from", src, ds, "--format", "folder", "--quiet").returncode == 0
    doc = (ds / "COLLECTION.json").read_text()
    assert taco("info", ds).returncode == 0
    # Valid JSON, only padded with whitespace past the limit.
    (ds / "COLLECTION.json").write_text(doc + " " * (LIMIT + 1 - len(doc.encode())))
    proc = taco("info", ds, "--json")
    assert proc.returncode == 1, proc.stderr
    error = json.loads(proc.stderr)
    assert error["kind"] == "TacoFormatError"
    assert "COLLECTION.json" in error["error"] and "more than the limit of 67108864" in error["error"]


def test_oversized_collection_option_is_refused_at_create(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"a")
    big = tmp_path / "collection.json"
    big.write_text('{"id": "x"}' + " " * LIMIT)
    proc = taco("create", "--from", src, tmp_path / "out.tacozip", "--collection", big)
    assert proc.returncode != 0
    assert "collection.json" in proc.stderr and "more than the limit" in proc.stderr
    assert not (tmp_path / "out.tacozip").exists()
