"""`taco validate` against rules of the TACO 2.0.0 specification that a dataset can break while
every reader still opens it: ids that look like padding (readers hide them, so real samples
vanish), a level 0 without `internal:parent_id`, an empty level 0, a `taco_version` that is no
version, and ZIP local headers that contradict the central directory (unzip and GDAL's /vsizip/
trust the local header, tacocore the directory).
"""

from __future__ import annotations

import json
import os
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cli_support import taco


def make(tmp_path: Path, fmt: str) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for n in ("a.bin", "b.bin", "c.bin"):
        (src / n).write_bytes(n.encode())
    out = tmp_path / ("ds" if fmt == "folder" else "ds.tacozip")
    proc = taco("create", "--from", src, out, "--format", fmt)
    assert proc.returncode == 0, proc.stderr
    assert taco("validate", out).returncode == 0
    return out


def edit_level0(ds: Path, edit) -> None:
    path = ds / "METADATA" / "level0.parquet"
    table = pq.read_table(path)
    pq.write_table(edit(table), path)


def set_column(table, name: str, values):
    return table.set_column(table.column_names.index(name), name, pa.array(values, table.schema.field(name).type))


@pytest.mark.parametrize("new_id, needle", [
    ("__TACOPAD__b", "a padding id is __TACOPAD__ and a number"),
    ("__TACOPAD__", "a padding id is __TACOPAD__ and a number"),
])
def test_an_id_that_only_looks_like_padding_is_an_error(tmp_path, new_id, needle):
    # Readers hide every id starting with __TACOPAD__: this real sample would vanish from every view.
    ds = make(tmp_path, "folder")
    os.rename(ds / "DATA" / "b.bin", ds / "DATA" / new_id)
    edit_level0(ds, lambda t: set_column(t, "id", ["a.bin", new_id, "c.bin"]))
    proc = taco("validate", ds)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "row.padding" in proc.stdout and needle in proc.stdout, proc.stdout
    assert f"'{new_id}'" in proc.stdout


@pytest.mark.parametrize("fmt", ["folder", "zip"])
def test_padding_with_bytes_is_an_error(tmp_path, fmt):
    # Readers hide padding, and its bytes with it: padding is an empty FILE.
    ds = make(tmp_path, "folder")
    os.rename(ds / "DATA" / "b.bin", ds / "DATA" / "__TACOPAD__0")
    edit_level0(ds, lambda t: set_column(t, "id", ["a.bin", "__TACOPAD__0", "c.bin"]))
    proc = taco("validate", ds)
    assert proc.returncode == 1, proc.stdout
    assert "padding is empty, but DATA/__TACOPAD__0 holds 5 bytes" in proc.stdout, proc.stdout
    if fmt == "zip":
        # convert validates its input first and refuses, so nothing drops the 5 bytes.
        out = taco("convert", ds, tmp_path / "padded.tacozip", "--format", "zip")
        assert out.returncode == 1 and "padding is empty" in out.stderr, out.stderr
        assert not (tmp_path / "padded.tacozip").exists()


def test_level0_without_parent_id_is_an_error(tmp_path):
    ds = make(tmp_path, "folder")
    edit_level0(ds, lambda t: t.drop(["internal:parent_id"]))
    proc = taco("validate", ds)
    assert proc.returncode == 1, proc.stdout
    assert "no column 'internal:parent_id' (spec §6.2" in proc.stdout, proc.stdout


def test_an_empty_level0_says_so(tmp_path):
    ds = make(tmp_path, "folder")
    edit_level0(ds, lambda t: t.slice(0, 0))
    proc = taco("validate", ds)
    assert proc.returncode == 1
    assert "level 0 has no samples" in proc.stdout, proc.stdout
    assert "starts with a \n" not in proc.stdout


@pytest.mark.parametrize("version, ok", [("foo", False), ("2.0.0", True), ("0.5.0", True), ("2.0.0-rc.1", True), ("2.", False)])
def test_taco_version_must_be_a_version(tmp_path, version, ok):
    ds = make(tmp_path, "folder")
    doc = json.loads((ds / "COLLECTION.json").read_text())
    doc["taco_version"] = version
    (ds / "COLLECTION.json").write_text(json.dumps(doc, indent=4))
    proc = taco("validate", ds)
    assert (proc.returncode == 0) == ok, proc.stdout
    if not ok:
        assert f"'{version}' is not a specification version" in proc.stdout


def test_a_missing_taco_version_is_one_finding(tmp_path):
    ds = make(tmp_path, "folder")
    doc = json.loads((ds / "COLLECTION.json").read_text())
    del doc["taco_version"]
    (ds / "COLLECTION.json").write_text(json.dumps(doc, indent=4))
    proc = taco("validate", ds)
    assert proc.returncode == 1
    assert "required field 'taco_version' is missing" in proc.stdout
    assert "(1 error," in proc.stdout, proc.stdout


def test_create_refuses_a_taco_version_that_is_no_version(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"a")
    proc = taco("create", "--from", src, tmp_path / "x.tacozip", "--taco-version", "foo")
    assert proc.returncode != 0 and "is not a specification version" in proc.stderr, proc.stderr
    assert not (tmp_path / "x.tacozip").exists()


@pytest.mark.parametrize("field, offset, value, needle", [
    ("method", 8, 8, "gives compression method 8, the directory says 0"),
    ("flags", 6, 8, "gives flags 0x00000008"),
    ("size", 22, 99, "gives sizes "),
])
def test_local_headers_that_contradict_the_directory_are_errors(tmp_path, field, offset, value, needle):
    ds = make(tmp_path, "zip")
    with zipfile.ZipFile(ds) as z:
        info = z.getinfo("DATA/b.bin")
    data = bytearray(ds.read_bytes())
    width = 4 if offset >= 14 else 2
    data[info.header_offset + offset:info.header_offset + offset + width] = value.to_bytes(width, "little")
    ds.write_bytes(bytes(data))
    proc = taco("validate", ds)
    assert proc.returncode == 1, proc.stdout
    assert "DATA/b.bin" in proc.stdout and needle in proc.stdout, proc.stdout


def test_a_meta_whose_values_differ_from_its_level_table_is_an_error(tmp_path):
    # Spec §6.2: a __meta__ is a complete snapshot of its children. tacoreader navigates through
    # it and SQL reads the level table: the same sample must carry the same values in both.
    src = tmp_path / "src"
    for scene in ("s_a", "s_b"):
        (src / scene).mkdir(parents=True)
        for n in ("x.bin", "y.bin"):
            (src / scene / n).write_bytes(n.encode())
    ds = tmp_path / "ds"
    assert taco("create", "--from", src, ds, "--format", "folder").returncode == 0

    def with_cloud(path: Path, values):
        table = pq.read_table(path)
        pq.write_table(table.append_column("cloud", pa.array(values, pa.float64())), path)

    with_cloud(ds / "METADATA" / "level1.parquet", [1.0, 1.0, 1.0, 1.0])
    with_cloud(ds / "DATA" / "s_a" / "__meta__", [1.0, 1.0])
    with_cloud(ds / "DATA" / "s_b" / "__meta__", [1.0, 2.0])  # y.bin of s_b disagrees
    proc = taco("validate", ds)
    assert proc.returncode == 1, proc.stdout
    values = [line for line in proc.stdout.splitlines() if "meta.values" in line]
    assert len(values) == 1, proc.stdout
    assert "DATA/s_b/__meta__ row 1" in values[0] and "(s_b/y.bin)" in values[0] and "(cloud)" in values[0]
