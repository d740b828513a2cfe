"""`taco export` / `taco convert` from datasets served over http by nginx on loopback (issue 16):
bytes come through range reads and land identical to the local fixtures'."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from remote_paths import FIXTURES

NESTED_ZIP = "ref/tacoreader/zip/nested/nested.tacozip"
NESTED_FOLDER = "ref/tacoreader/folder/nested"
FLAT_ZIP = "ref/tacoreader/zip/flat/flat.tacozip"


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root / "DATA")): p.read_bytes()
            for p in (root / "DATA").rglob("*") if p.is_file() and p.name != "__meta__"}


@pytest.mark.parametrize("rel", [NESTED_ZIP, NESTED_FOLDER])
def test_remote_export_nested(served, taco, tmp_path, rel):
    out = tmp_path / "out"
    ok(taco("export", served.url(rel), out, "--where", "id <> 'americas'", "--format", "folder"))
    truth = tree_bytes(FIXTURES / "tacoreader/folder/nested")
    assert tree_bytes(out) == {k: v for k, v in truth.items() if not k.startswith("americas/")}
    assert ok(taco("validate", out)).strip().endswith("valid (0 errors, 0 warnings)")


def test_remote_convert_to_zip(served, taco, tmp_path):
    out = tmp_path / "flat.tacozip"
    result = json.loads(ok(taco("convert", served.url(FLAT_ZIP), out, "--format", "zip",
                                "--json")))
    assert result["files"] == 5
    truth = tree_bytes(FIXTURES / "tacoreader/folder/flat")
    with zipfile.ZipFile(out) as z:
        assert {n[5:]: z.read(n) for n in z.namelist() if n.startswith("DATA/")} == truth
        assert z.read("COLLECTION.json") == \
            (FIXTURES / "tacoreader/folder/flat/COLLECTION.json").read_bytes()
