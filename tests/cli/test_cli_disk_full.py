"""Disk full (hardening issue, "faults while writing"): on a real 1 MiB tmpfs, `taco create` of
more data than fits fails with a message that says so, leaves nothing at the output path (or the
complete previous dataset when it was replacing one) and no temporaries; read commands whose
output stream fills up exit non-zero instead of truncating silently."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO


def taco(*args, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("timeout", 120)
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, **kwargs)


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs (the tests run as root, as `make test` does here and in CI)."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    got = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)],
                         capture_output=True, text=True)
    if got.returncode != 0:
        raise RuntimeError(f"cannot mount a tmpfs for the disk-full test (run as root): {got.stderr}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def make_input(root: Path, marker: bytes, files: int, size: int) -> Path:
    root.mkdir(parents=True)
    for i in range(files):
        (root / f"s{i:03d}.bin").write_bytes(marker * size)
    return root


@pytest.mark.parametrize("name", ["ds.tacozip", "ds"])
def test_create_on_a_full_disk_leaves_nothing(tmp_path, small_disk, name):
    src = make_input(tmp_path / "in", b"x", files=40, size=64 * 1024)  # 2.5 MiB > 1 MiB
    got = taco("create", "--from", src, small_disk / name)
    assert got.returncode != 0
    assert "No space left on device" in got.stderr, got.stderr
    assert name in got.stderr or str(small_disk) in got.stderr, got.stderr
    assert list(small_disk.iterdir()) == [], "a failed create left files behind"


@pytest.mark.parametrize("name", ["ds.tacozip", "ds"])
def test_overwrite_on_a_full_disk_keeps_the_previous_dataset(tmp_path, small_disk, name):
    old = make_input(tmp_path / "old", b"O", files=4, size=32 * 1024)
    big = make_input(tmp_path / "big", b"N", files=40, size=64 * 1024)
    out = small_disk / name
    assert taco("create", "--from", old, out).returncode == 0
    got = taco("create", "--from", big, out, "--overwrite")
    assert got.returncode != 0
    assert "No space left on device" in got.stderr, got.stderr
    assert sorted(p.name for p in small_disk.iterdir()) == [name], "temporaries left behind"
    # The previous dataset is whole and still the old one.
    listed = taco("sql", out, "SELECT count(*) AS n FROM data", "--csv")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[-1] == "4"
    if name.endswith(".tacozip"):
        with zipfile.ZipFile(out) as zf:
            assert zf.testzip() is None
            assert zf.read("DATA/s000.bin") == b"O" * 32 * 1024
    else:
        assert (out / "DATA" / "s000.bin").read_bytes() == b"O" * 32 * 1024
    validated = taco("validate", out)
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_read_commands_report_a_full_output(tmp_path, small_disk):
    src = make_input(tmp_path / "in", b"x", files=3, size=1024)
    ds = tmp_path / "ds.tacozip"
    assert taco("create", "--from", src, ds).returncode == 0
    target = small_disk / "out.csv"
    # 2 MiB of rows into a 1 MiB file system: the write fails part-way.
    query = "SELECT repeat('y', 1000) AS v FROM range(2100)"
    with open(target, "w") as out:
        got = subprocess.run([str(TACO), "sql", str(ds), query, "--csv"], stdout=out,
                             stderr=subprocess.PIPE, text=True, timeout=120)
    assert got.returncode != 0, "a truncated output exited 0"
    assert "No space left on device" in got.stderr or "write" in got.stderr.lower(), got.stderr


@pytest.mark.parametrize("direction", ["folder2zip", "export"])
def test_conversion_into_a_zip_on_a_full_disk_leaves_nothing(tmp_path, small_disk, direction):
    """folder2zip and export copy a ZIP's samples in the kernel (copy_file_range after a
    fallocate hint): a full disk is reported as such by the copy, and the staging file is gone."""
    src = make_input(tmp_path / "in", b"z", files=8, size=512 * 1024)  # 4 MiB > 1 MiB
    zipped = tmp_path / "src.tacozip"
    assert taco("create", "--from", src, zipped).returncode == 0
    if direction == "folder2zip":
        folder = tmp_path / "src_folder"
        assert taco("convert", zipped, folder).returncode == 0
        got = taco("convert", folder, small_disk / "out.tacozip")
    else:
        got = taco("export", zipped, small_disk / "out.tacozip", "--where", "true")
    assert got.returncode != 0
    assert got.returncode != -7, "killed by SIGBUS"
    assert "No space left on device" in got.stderr, got.stderr
    assert list(small_disk.iterdir()) == [], "a failed conversion left files behind"
