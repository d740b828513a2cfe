"""`taco migrate` / tacocore.migrate (issue 16): a v1 file becomes a TACO 2.0 ZIP or FOLDER that
`taco validate` accepts and the reference reader (tacoreader) loads, with every sample's bytes
and every FOOTER value as the legacy writer stored them."""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from v1_footer import collection, footer  # noqa: E402

tacoreader = pytest.importorskip("tacoreader")

DROPPED = {"tortilla:id", "tortilla:offset", "tortilla:length", "__index_level_0__"}


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def vsi_bytes(vsi: str) -> bytes:
    """The bytes a gdal_vsi path names, read with plain Python (no GDAL)."""
    if vsi.startswith("/vsisubfile/"):
        spec, path = vsi[len("/vsisubfile/"):].split(",", 1)
        offset, size = map(int, spec.split("_"))
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(size)
    return Path(vsi).read_bytes()


def reference_rows(frame) -> list[dict]:
    data = getattr(frame, "data", frame)
    return data.to_pylist() if hasattr(data, "to_pylist") else data.to_arrow().to_pylist()


def check_values(got: list[dict], expected: list[dict]) -> None:
    assert [g["id"] for g in got] == [e["tortilla:id"] for e in expected]
    for g, e in zip(got, expected):
        for col, value in e.items():
            if col not in DROPPED:
                assert same(g[col], value), (e["tortilla:id"], col, g[col], value)
        assert g["type"] == ("FOLDER" if e["tortilla:file_format"] == "TORTILLA" else "FILE")


def migrate_ok(taco, src, out, *extra) -> None:
    proc = taco("migrate", src, out, *extra)
    assert proc.returncode == 0, proc.stderr.decode()
    valid = taco("validate", out)
    assert valid.returncode == 0, valid.stdout.decode() + valid.stderr.decode()


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_migrate_flat_tortilla(v1, taco, tmp_path, fmt):
    out = tmp_path / ("flat.tacozip" if fmt == "zip" else "flat")
    migrate_ok(taco, v1.path("flat.tortilla"), out, "--format", fmt)
    ds = tacoreader.load(str(out))
    got = reference_rows(ds.data)
    check_values(got, footer(v1.path("flat.tortilla").read_bytes()))
    for g, row in zip(got, v1.manifest["flat.tortilla"]["rows"]):
        assert vsi_bytes(g["internal:gdal_vsi"]) == Path(row["path"]).read_bytes()


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_migrate_nested_taco(v1, taco, tmp_path, fmt):
    src = v1.path("nested.taco")
    out = tmp_path / ("nested.tacozip" if fmt == "zip" else "nested")
    migrate_ok(taco, src, out, "--format", fmt)
    data = src.read_bytes()
    top = footer(data)
    ds = tacoreader.load(str(out))
    check_values(reference_rows(ds.data), top)
    for i, (parent, want) in enumerate(zip(top, v1.manifest["nested.taco"]["rows"])):
        children = reference_rows(ds.read(i))
        check_values(children, footer(data, parent["tortilla:offset"]))
        for g, c in zip(children, want["children"]):
            assert vsi_bytes(g["internal:gdal_vsi"]) == Path(c["path"]).read_bytes()
    col = json.loads((out / "COLLECTION.json").read_text()) if fmt == "folder" else None
    if col is not None:
        assert col["legacy_v1"]["collection"] == collection(src)
        assert "taco:subset_of" not in col


def test_migrate_deep_tortilla(v1, taco, tmp_path):
    out = tmp_path / "deep.tacozip"
    migrate_ok(taco, v1.path("deep.tortilla"), out)
    ds = tacoreader.load(str(out))
    for i, site in enumerate(v1.manifest["deep.tortilla"]["rows"]):
        sensors = ds.read(i)
        assert [r["id"] for r in reference_rows(sensors)] == ["sensor_0", "sensor_1"]
        for k, sensor in enumerate(site["children"]):
            files = reference_rows(sensors.read(k))
            assert [r["id"] for r in files] == ["red", "nir"]
            for g, f in zip(files, sensor["children"]):
                assert vsi_bytes(g["internal:gdal_vsi"]) == Path(f["path"]).read_bytes()


def test_migrate_multipart(v1, taco, tmp_path):
    out = tmp_path / "multi.tacozip"
    migrate_ok(taco, v1.path("multi.0001.part.taco"), out)
    got = reference_rows(tacoreader.load(str(out)).data)
    assert [g["id"] for g in got] == [r["id"] for r in v1.manifest["multi.taco"]["rows"]]
    for g, row in zip(got, v1.manifest["multi.taco"]["rows"]):
        assert vsi_bytes(g["internal:gdal_vsi"]) == Path(row["path"]).read_bytes()
        assert g["stac:crs"] == "EPSG:32631"


def test_migrate_refuses_nested_tortillas_that_differ(v1, taco, tmp_path):
    out = tmp_path / "irregular.tacozip"
    proc = taco("migrate", v1.path("irregular.taco"), out)
    assert proc.returncode == 1
    err = proc.stderr.decode()
    assert "irregular.taco: cannot migrate" in err and "position-isomorphic" in err
    assert "'group_1' holds [FILE band_2, FILE band_3]" in err
    assert not out.exists() and os.listdir(tmp_path) == []


def test_migrate_never_overwrites_silently(v1, taco, tmp_path):
    out = tmp_path / "flat.tacozip"
    migrate_ok(taco, v1.path("flat.tortilla"), out)
    before = out.read_bytes()
    again = taco("migrate", v1.path("flat.tortilla"), out)
    assert again.returncode == 2 and b"exists" in again.stderr
    assert out.read_bytes() == before
    forced = taco("migrate", v1.path("flat.tortilla"), out, "--overwrite")
    assert forced.returncode == 0, forced.stderr


def test_migrate_from_python(v1, tmp_path):
    tacocore = pytest.importorskip("tacocore")
    out = tmp_path / "nested"
    result = tacocore.migrate(v1.path("nested.taco"), out)
    assert result["format"] == "folder" and result["files"] == 6
    assert result["level_rows"] == [3, 6]
    ds = tacocore.load(str(out))
    assert ds.collection["id"] == "legacyfixture"
    with pytest.raises(tacocore.TacoIOError):
        tacocore.migrate(v1.path("nested.taco"), out)
    with pytest.raises(tacocore.TacoFormatError, match="not a legacy v1 file"):
        tacocore.migrate(out / "COLLECTION.json", tmp_path / "x")


def test_migrate_split_nested_taco(v1, taco, tmp_path):
    out = tmp_path / "split.tacozip"
    migrate_ok(taco, v1.path("split.taco"), out)
    ds = tacoreader.load(str(out))
    assert [r["id"] for r in reference_rows(ds.data)] == ["region_0", "region_1", "region_2"]
    for i, parent in enumerate(v1.manifest["split.taco"]["rows"]):
        children = reference_rows(ds.read(i))
        assert [r["id"] for r in children] == ["lr", "hr"]
        for g, c in zip(children, parent["children"]):
            assert vsi_bytes(g["internal:gdal_vsi"]) == Path(c["path"]).read_bytes()


def test_migrate_from_python_takes_the_level_codec(v1, tmp_path):
    tacocore = pytest.importorskip("tacocore")
    pq = pytest.importorskip("pyarrow.parquet")

    def codecs(path):
        meta = pq.ParquetFile(path).metadata
        return {meta.row_group(g).column(c).compression
                for g in range(meta.num_row_groups) for c in range(meta.num_columns)}

    tacocore.migrate(v1.path("nested.taco"), tmp_path / "zstd", level_codec="zstd")
    tacocore.migrate(v1.path("nested.taco"), tmp_path / "lz4")
    assert codecs(tmp_path / "zstd" / "METADATA" / "level0.parquet") == {"ZSTD"}
    assert codecs(tmp_path / "zstd" / "METADATA" / "level1.parquet") == {"ZSTD"}
    assert codecs(tmp_path / "lz4" / "METADATA" / "level0.parquet") == {"LZ4"}  # LZ4_RAW
    with pytest.raises(ValueError, match=r"'brotli'.*lz4_raw.*zstd"):
        tacocore.migrate(v1.path("nested.taco"), tmp_path / "bad", level_codec="brotli")
    assert not (tmp_path / "bad").exists()
