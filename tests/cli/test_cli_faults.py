"""Faults while writing (hardening issue): SIGKILL at random points of `taco create --overwrite`
leaves at the output path either the complete previous dataset or the complete new one, never a
mix or nothing, and the next successful run leaves no stray temporaries."""

from __future__ import annotations

import random
import signal
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
KILLS = 60


def taco(*args, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("timeout", 120)
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, **kwargs)


def make_input(root: Path, marker: bytes, files: int = 300) -> Path:
    for i in range(files):
        p = root / f"s{i:04d}.bin"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(marker * 4096)
    return root


def zip_marker(path: Path) -> bytes:
    with zipfile.ZipFile(path) as zf:
        assert zf.namelist()[0] == "TACO_HEADER"
        assert zf.testzip() is None
        return zf.read("DATA/s0000.bin")[:1]


def folder_marker(path: Path) -> bytes:
    assert (path / "COLLECTION.json").is_file() and (path / "METADATA/level0.parquet").is_file()
    files = sorted((path / "DATA").iterdir())
    assert len(files) == 300
    markers = {f.read_bytes()[:1] for f in files}
    assert len(markers) == 1, "a mix of two datasets"
    return markers.pop()


@pytest.mark.parametrize("name", ["ds.tacozip", "ds"])
def test_sigkill_during_overwrite_keeps_a_complete_dataset(tmp_path, name):
    old_in, new_in = make_input(tmp_path / "old", b"O"), make_input(tmp_path / "new", b"N")
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / name
    assert taco("create", "--from", old_in, out).returncode == 0
    start = time.monotonic()
    assert taco("create", "--from", new_in, out, "--overwrite").returncode == 0
    duration = time.monotonic() - start
    check = zip_marker if name.endswith(".tacozip") else folder_marker
    rng = random.Random(20261124)
    seen = set()
    for _ in range(KILLS):
        source = old_in if check(out) == b"N" else new_in
        proc = subprocess.Popen([str(TACO), "create", "--from", str(source), str(out), "--overwrite"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, duration * 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        seen.add(proc.returncode)
        assert out.exists(), "the output path holds nothing after a kill"
        assert check(out) in (b"O", b"N")
    assert -signal.SIGKILL in seen, "no run was killed while working"
    # The next successful run removes what killed runs left behind.
    assert taco("create", "--from", new_in, out, "--overwrite").returncode == 0
    assert check(out) == b"N"
    assert sorted(p.name for p in out_dir.iterdir()) == [name]


def test_input_that_changes_size_during_create(tmp_path):
    src = make_input(tmp_path / "in", b"A", files=50)
    big = src / "zz_growing.bin"
    big.write_bytes(b"x" * (1 << 20))
    out = tmp_path / "ds.tacozip"
    proc = subprocess.Popen([str(TACO), "create", "--from", str(src), str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    with open(big, "ab") as f:  # grows while taco reads the directory and copies the files
        for _ in range(200):
            f.write(b"y" * 65536)
            f.flush()
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        # Whatever was read is consistent: the dataset validates and the sample has its ZIP size.
        assert taco("validate", out, "--crc").returncode == 0
    else:
        assert proc.returncode == 2 and "zz_growing.bin" in err, err
        assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name]
