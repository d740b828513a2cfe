"""`--level-codec` of `taco create`, `export`, `convert` and `migrate`'s shared output options: the
codec of the METADATA/levelN.parquet tables (LZ4_RAW by default, zstd on request; the __meta__
files stay zstd either way), refused when unknown or when the create runs on Dask."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from cli_support import REPO_ROOT, TACO


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def ok(*args) -> str:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def codecs(path: Path) -> set:
    meta = pq.ParquetFile(path).metadata
    return {meta.row_group(g).column(c).compression
            for g in range(meta.num_row_groups) for c in range(meta.num_columns)}


@pytest.fixture
def tree(tmp_path) -> Path:
    src = tmp_path / "src"
    for s in ("s1", "s2", "s3"):
        (src / s).mkdir(parents=True)
        (src / s / "a.bin").write_bytes(b"a" * 10)
        (src / s / "b.bin").write_bytes(b"bb")
    return src


def test_create_writes_lz4_raw_by_default_and_zstd_when_asked(tree, tmp_path):
    ok("create", "--from", tree, tmp_path / "default")
    ok("create", "--from", tree, tmp_path / "zstd", "--level-codec", "zstd")
    ok("create", "--from", tree, tmp_path / "upper", "--level-codec", "LZ4_RAW")
    for level in ("level0.parquet", "level1.parquet"):
        assert codecs(tmp_path / "default" / "METADATA" / level) == {"LZ4"}  # pyarrow's LZ4_RAW
        assert codecs(tmp_path / "zstd" / "METADATA" / level) == {"ZSTD"}
        assert codecs(tmp_path / "upper" / "METADATA" / level) == {"LZ4"}
    assert codecs(tmp_path / "zstd" / "DATA" / "s1" / "__meta__") == {"ZSTD"}
    # Same rows whatever the codec.
    q = ["sql", "SELECT id FROM level0 ORDER BY id", "--csv"]
    assert ok(*q[:1], tmp_path / "default", *q[1:]) == ok(*q[:1], tmp_path / "zstd", *q[1:])


@pytest.mark.parametrize("command", ["export", "convert"])
def test_export_and_convert_take_the_codec(tree, tmp_path, command):
    ok("create", "--from", tree, tmp_path / "in.tacozip")
    ok(command, tmp_path / "in.tacozip", tmp_path / "out", "--format", "folder",
       "--level-codec", "zstd")
    assert codecs(tmp_path / "out" / "METADATA" / "level0.parquet") == {"ZSTD"}
    ok(command, tmp_path / "in.tacozip", tmp_path / "out2", "--format", "folder")
    assert codecs(tmp_path / "out2" / "METADATA" / "level0.parquet") == {"LZ4"}


def test_an_unknown_codec_is_refused_and_nothing_is_written(tree, tmp_path):
    proc = taco("create", "--from", tree, tmp_path / "bad", "--level-codec", "gzip")
    assert proc.returncode == 2, proc.stderr
    assert "--level-codec" in proc.stderr and "zstd" in proc.stderr
    assert not (tmp_path / "bad").exists()


def test_a_dask_create_refuses_the_codec_option(tree, tmp_path):
    proc = taco("create", "--from", tree, tmp_path / "d.tacozip", "--workers", "1",
                "--level-codec", "zstd")
    assert proc.returncode == 2, proc.stderr
    assert "--level-codec is not taken by --scheduler/--workers" in proc.stderr
    assert not (tmp_path / "d.tacozip").exists()
