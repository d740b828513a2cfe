"""Damaged legacy v1 files (issue 16, "Bad input"): each is a file the legacy writer made, then
cut or altered the way storage and transfers damage files; every error names the file and what
was expected, exits 1 (damaged data) and leaves no output behind."""

from __future__ import annotations

import shutil
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from v1_footer import header  # noqa: E402


def damaged(v1, tmp_path, name: str, change) -> Path:
    data = bytearray(v1.path(name).read_bytes())
    data = change(data) or data
    out = tmp_path / name
    out.write_bytes(bytes(data))
    return out


def fails(taco, path, *needles: str) -> str:
    proc = taco("info", path)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    err = proc.stderr.decode()
    assert str(path) in err, err
    for needle in needles:
        assert needle in err, err
    return err


def test_truncated_file(v1, taco, tmp_path):
    size = v1.path("flat.tortilla").stat().st_size
    path = damaged(v1, tmp_path, "flat.tortilla", lambda d: d[: size // 2])
    fails(taco, path, "truncated or corrupt header", "FOOTER at bytes")


def test_truncated_inside_the_header(v1, taco, tmp_path):
    path = damaged(v1, tmp_path, "nested.taco", lambda d: d[:120])
    fails(taco, path, "truncated: a legacy v1 file (Tortilla 0.5 / TACO 0.2) starts with a "
                      "200-byte header, but only 120 bytes")


def test_corrupt_magic(v1, taco, tmp_path):
    def change(d):
        d[0:2] = b"#z"
    path = damaged(v1, tmp_path, "flat.tortilla", change)
    fails(taco, path, "corrupt header: expected the magic bytes '#y' (Tortilla 0.5) or 'WX' "
                      "(TACO 0.2) at its start, found '#z'")


def test_corrupt_footer_offset(v1, taco, tmp_path):
    def change(d):
        d[2:10] = struct.pack("<Q", len(d) + 10)
    path = damaged(v1, tmp_path, "nested.taco", change)
    fails(taco, path, "truncated or corrupt header: the FOOTER")


def test_footer_that_is_not_parquet(v1, taco, tmp_path):
    def change(d):
        h = header(bytes(d))
        d[h["footer_offset"]:h["footer_offset"] + 4] = b"{\"a\""
    path = damaged(v1, tmp_path, "flat.tortilla", change)
    fails(taco, path, "corrupt FOOTER", "PAR1 at both ends")


def test_corrupt_nested_tortilla(v1, taco, tmp_path):
    data = v1.path("nested.taco").read_bytes()
    from v1_footer import footer
    second = footer(data)[1]["tortilla:offset"]

    def change(d):
        d[second:second + 2] = b"XX"
    path = damaged(v1, tmp_path, "nested.taco", change)
    fails(taco, path, "nested tortilla 'region_1'", "'#y' of a nested Tortilla 0.5", "found 'XX'")


def test_unknown_v1_version_in_the_header(v1, taco, tmp_path):
    def change(d):
        d[150] = 7  # a reserved byte: zero in every layout this reader knows
    path = damaged(v1, tmp_path, "flat.tortilla", change)
    fails(taco, path, "unknown v1 version: header byte 150 is 7", "bytes 26-199 as zero")


def test_unknown_v1_version_in_the_collection(v1, taco, tmp_path):
    def change(d):
        i = bytes(d).rindex(b'"taco_version":"0.4.0"')
        d[i:i + 22] = b'"taco_version":"7.4.0"'
    path = damaged(v1, tmp_path, "nested.taco", change)
    fails(taco, path, "unknown v1 version: taco_version is \"7.4.0\", expected a 0.x version")


def test_missing_part(v1, taco, tmp_path):
    for f in v1.manifest["multi.taco"]["files"][:2]:
        shutil.copy(f, tmp_path)
    proc = taco("info", tmp_path / "multi.0000.part.taco")
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert "the header says 3 data partition(s), but 2 file(s) were found" in err
    assert "multi.0000.part.taco" in err


def test_missing_file_is_an_io_error(taco, tmp_path):
    proc = taco("info", tmp_path / "nothing.tortilla")
    assert proc.returncode == 2
    assert b"nothing.tortilla" in proc.stderr and b"no such file" in proc.stderr


@pytest.mark.parametrize("name", ["flat.tortilla", "nested.taco"])
def test_migrate_of_a_damaged_file_writes_nothing(v1, taco, tmp_path, name):
    src_dir = tmp_path / "src"
    src_dir.mkdir()
    path = damaged(v1, src_dir, name, lambda d: d[: len(d) - 50])
    out = tmp_path / "out.tacozip"
    proc = taco("migrate", path, out)
    assert proc.returncode == 1, proc.stderr
    assert str(path).encode() in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]
