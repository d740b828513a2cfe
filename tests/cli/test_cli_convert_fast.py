"""zip2folder / folder2zip's fast paths (issue 16, the `cp` floor): zip2folder copies two samples
at once in batches of 64, folder2zip sums each sample's CRC on a helper thread ahead of the
kernel copy. Their output must be what the one-at-a-time paths wrote: the same bytes, CRCs that
zipfile, `unzip -t` and the CRCs of the source archive (summed by the buffered writer) agree on,
and nothing left behind when a sample fails in the middle of the copy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO


# More than two batches of 64; sizes on both sides of the 256 KiB kernel-copy threshold, empty
# files among them.
N = 150


def size_of(i: int) -> int:
    return [0, 1000, 256 * 1024 - 1, 256 * 1024, 300_001, 1 << 20][i % 6] + (i // 6)


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def ok(*args) -> str:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    root = tmp_path_factory.mktemp("fast")
    files = root / "files"
    files.mkdir()
    for i in range(N):
        (files / f"s{i:03d}.bin").write_bytes(os.urandom(size_of(i)))
    src = root / "src.tacozip"
    ok("create", "--from", files, src, "-q")
    folder = root / "as_folder"
    ok("convert", src, folder, "-q")
    return files, src, folder


def data_entries(path: Path) -> dict[str, zipfile.ZipInfo]:
    with zipfile.ZipFile(path) as z:
        return {i.filename[5:]: i for i in z.infolist() if i.filename.startswith("DATA/")}


def test_zip2folder_in_parallel_writes_every_sample_exactly(source):
    files, _, folder = source
    written = sorted(p.name for p in (folder / "DATA").iterdir())
    assert written == sorted(p.name for p in files.iterdir())
    for p in files.iterdir():
        assert (folder / "DATA" / p.name).read_bytes() == p.read_bytes(), p.name
    assert ok("validate", folder).strip().endswith("valid (0 errors, 0 warnings)")


def test_folder2zip_crcs_match_the_buffered_writer_and_every_checker(source, tmp_path):
    files, src, folder = source
    back = tmp_path / "back.tacozip"
    result = json.loads(ok("convert", folder, back, "--json"))
    assert result["samples"] == N
    with zipfile.ZipFile(back) as z:
        assert z.testzip() is None  # every CRC re-read and checked
        for p in files.iterdir():
            assert z.read("DATA/" + p.name) == p.read_bytes(), p.name
    # The same CRCs as `taco create`, which sums every byte as it buffers it (the old path).
    made, converted = data_entries(src), data_entries(back)
    assert {n: i.CRC for n, i in converted.items()} == {n: i.CRC for n, i in made.items()}
    # The local headers carry them too (zipfile trusts the central directory): unzip checks both.
    if shutil.which("unzip"):
        proc = subprocess.run(["unzip", "-tq", str(back)], capture_output=True, text=True)
        assert proc.returncode == 0 and "No errors detected" in proc.stdout, proc.stdout
    assert ok("validate", back).strip().endswith("valid (0 errors, 0 warnings)")


def test_reference_reader_reads_the_fast_folder2zip(source, tmp_path):
    tacoreader = pytest.importorskip("tacoreader")
    files, _, folder = source
    back = tmp_path / "back.tacozip"
    ok("convert", folder, back, "-q")
    ds = tacoreader.load(str(back))
    df = ds.data if hasattr(ds, "data") else ds
    assert len(df) == N


@pytest.mark.parametrize("target", ["zip", "folder"])
def test_a_sample_failing_mid_copy_leaves_nothing_behind(source, tmp_path, target):
    _, _, folder = source
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    # The 101st sample: the first two batches of zip2folder's copy are done when it fails.
    (broken / "DATA" / "s100.bin").unlink()
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / ("o.tacozip" if target == "zip" else "o")
    proc = taco("export", broken, out, "--where", "true", "--format", target)
    assert proc.returncode != 0
    assert "s100.bin" in proc.stderr, proc.stderr
    assert "nothing was written" in proc.stderr, proc.stderr
    assert list(out_dir.iterdir()) == []  # no output, no .partial staging
