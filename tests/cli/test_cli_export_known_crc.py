"""ZIP -> ZIP export copies large samples with copy_file_range and takes their CRC-32 from the
source's central directory instead of reading them (issue 16, the numbers): the archive it
writes must still carry the right CRC for every entry (zipfile.testzip re-reads and checks each
one), the same bytes, and report the time of its byte-copy phase."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO


def ok(*args) -> str:
    proc = subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def big_samples(tmp_path_factory):
    root = tmp_path_factory.mktemp("big")
    files = root / "files"
    files.mkdir()
    # Around the 256 KiB threshold of the kernel copy, and one of several MiB.
    sizes = [1000, 256 * 1024 - 1, 256 * 1024, 300_001, 5 * 1024 * 1024 + 7]
    for i, n in enumerate(sizes):
        (files / f"s{i}.bin").write_bytes(os.urandom(n))
    src = root / "src.tacozip"
    ok("create", "--from", files, src, "-q")
    return files, src, sizes


def entries(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None  # every CRC matches the bytes
        return {n[5:]: z.read(n) for n in z.namelist() if n.startswith("DATA/")}


def test_zip_to_zip_export_keeps_correct_crcs(big_samples, tmp_path):
    files, src, sizes = big_samples
    out = tmp_path / "out.tacozip"
    result = json.loads(ok("export", src, out, "--where", "id <> 's0.bin'", "--json"))
    assert result["sample_bytes"] == sum(sizes[1:])
    assert 0 <= result["copy_seconds"] <= result["export_seconds"] <= result["seconds"]
    assert 0 <= result["copy_cpu_seconds"] <= result["export_seconds"] + 1
    got = entries(out)
    assert got == {f"s{i}.bin": (files / f"s{i}.bin").read_bytes() for i in range(1, 5)}
    with zipfile.ZipFile(out) as z, zipfile.ZipFile(src) as s:
        for name in z.namelist():
            if name.startswith("DATA/"):
                assert z.getinfo(name).CRC == s.getinfo(name).CRC
    assert ok("validate", out).strip().endswith("valid (0 errors, 0 warnings)")


def test_folder_to_zip_and_back_computes_crcs(big_samples, tmp_path):
    files, src, _ = big_samples
    folder = tmp_path / "as_folder"
    ok("convert", src, folder, "-q")
    back = tmp_path / "back.tacozip"
    result = json.loads(ok("convert", folder, back, "--json"))
    assert result["copy_seconds"] > 0
    assert entries(back) == {p.name: p.read_bytes() for p in files.iterdir()}
    # An export of that ZIP again (source CRCs now from tacocore's own central directory).
    again = tmp_path / "again.tacozip"
    ok("export", back, again, "--where", "true", "-q")
    assert entries(again) == entries(back)
