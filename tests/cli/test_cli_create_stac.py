"""`taco create --from DIR --stac` (issue 14): stac:* columns from each GeoTIFF's own
georeferencing, checked against GDAL's Python bindings and pyproj; times from --metadata;
non-raster files and FOLDERs get typed nulls; the extent follows the centroids and intervals."""

from __future__ import annotations

import io
import json
import struct
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
gdal = pytest.importorskip("osgeo.gdal")
osr = pytest.importorskip("osgeo.osr")
pq = pytest.importorskip("pyarrow.parquet")
pyproj = pytest.importorskip("pyproj")


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def geotiff(path: Path, epsg: int, gt: tuple, bands: int = 2, rows: int = 20, cols: int = 30) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    ds = gdal.GetDriverByName("GTiff").Create(str(path), cols, rows, bands, gdal.GDT_Byte)
    ds.SetGeoTransform(gt)
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(epsg)
    ds.SetProjection(srs.ExportToWkt())
    ds = None


def level(path: Path, n: int):
    with zipfile.ZipFile(path) as z:
        return pq.read_table(io.BytesIO(z.read(f"METADATA/level{n}.parquet")))


def point(wkb: bytes) -> tuple[float, float]:
    assert len(wkb) == 21 and wkb[0] == 1 and struct.unpack("<I", wkb[1:5])[0] == 1
    return struct.unpack("<dd", wkb[5:])


def expected_centroid(epsg: int, gt: tuple, rows: int, cols: int) -> tuple[float, float]:
    t = pyproj.Transformer.from_crs(f"EPSG:{epsg}", "EPSG:4326", always_xy=True)
    return t.transform(gt[0] + cols / 2 * gt[1], gt[3] + rows / 2 * gt[5])


UTM_GT = (500000.0, 10.0, 0.0, 4500000.0, 0.0, -10.0)
GEO_GT = (10.0, 0.01, 0.0, 50.0, 0.0, -0.01)


def test_flat_tree_gets_stac_columns_from_each_geotiff(tmp_path):
    src = tmp_path / "src"
    geotiff(src / "a.tif", 32633, UTM_GT)
    geotiff(src / "b.tif", 4326, GEO_GT, bands=3, rows=10, cols=40)
    (src / "notes.txt").write_text("not a raster")
    meta = tmp_path / "meta.csv"
    meta.write_text("path,stac:time_start,stac:time_end\n"
                    "a.tif,2021-01-01 00:00:00,2021-01-03 00:00:00\n"
                    "b.tif,2021-02-01 00:00:00,2021-02-01 00:00:00\n"
                    "notes.txt,2021-03-01 00:00:00,2021-03-02 00:00:00\n")
    out = tmp_path / "out.tacozip"
    r = taco("create", "--from", src, "--metadata", meta, "--stac", out, "--quiet")
    assert r.returncode == 0, r.stderr
    t = level(out, 0)
    assert [f.name for f in t.schema if f.name.startswith("stac:")] == [
        "stac:time_start", "stac:time_end", "stac:crs", "stac:tensor_shape", "stac:geotransform",
        "stac:centroid", "stac:time_middle"]
    types = {f.name: str(f.type) for f in t.schema}
    assert types["stac:tensor_shape"] == "list<element: int64>"
    assert types["stac:geotransform"] == "list<element: double>"
    assert types["stac:centroid"] == "binary"
    assert types["stac:time_middle"] == "timestamp[us]"
    rows = {r["id"]: r for r in t.to_pylist()}
    a, b, notes = rows["a.tif"], rows["b.tif"], rows["notes.txt"]
    assert a["stac:crs"] == "EPSG:32633" and b["stac:crs"] == "EPSG:4326"
    assert a["stac:tensor_shape"] == [2, 20, 30] and b["stac:tensor_shape"] == [3, 10, 40]
    assert a["stac:geotransform"] == list(UTM_GT)
    for row, epsg, gt, shape in ((a, 32633, UTM_GT, (20, 30)), (b, 4326, GEO_GT, (10, 40))):
        lon, lat = point(row["stac:centroid"])
        elon, elat = expected_centroid(epsg, gt, *shape)
        assert lon == pytest.approx(elon, abs=1e-9) and lat == pytest.approx(elat, abs=1e-9)
    assert str(a["stac:time_middle"]) == "2021-01-02 00:00:00"
    # The text file: nulls for what only a raster has; its times stay.
    assert notes["stac:crs"] is None and notes["stac:centroid"] is None
    assert notes["stac:tensor_shape"] is None and str(notes["stac:time_start"]) == "2021-03-01 00:00:00"
    with zipfile.ZipFile(out) as z:
        extent = json.loads(z.read("COLLECTION.json"))["extent"]
    lons = [point(r["stac:centroid"])[0] for r in (a, b)]
    lats = [point(r["stac:centroid"])[1] for r in (a, b)]
    assert extent["spatial"] == pytest.approx([min(lons), min(lats), max(lons), max(lats)])
    # Every interval is covered: the first start to the last end.
    assert extent["temporal"] == ["2021-01-01T00:00:00Z", "2021-03-02T00:00:00Z"]


def test_nested_tree_puts_the_columns_on_the_file_level_only(tmp_path):
    src = tmp_path / "src"
    for i, folder in enumerate(("p", "q")):
        geotiff(src / folder / "img.tif", 32633, (500000.0 + i * 1000, 10.0, 0.0, 4500000.0, 0.0, -10.0))
        (src / folder / "label.json").write_text("{}")
    out = tmp_path / "nested.tacozip"
    r = taco("create", "--from", src, "--stac", out, "--quiet")
    assert r.returncode == 0, r.stderr
    assert not [n for n in level(out, 0).column_names if n.startswith("stac:")]
    t1 = level(out, 1)
    rows = t1.to_pylist()
    imgs = [r for r in rows if r["id"] == "img.tif"]
    assert len(imgs) == 2 and all(r["stac:crs"] == "EPSG:32633" for r in imgs)
    assert all(r["stac:centroid"] is None for r in rows if r["id"] == "label.json")
    # No time table: the time columns exist, typed and null.
    assert str(t1.schema.field("stac:time_start").type) == "timestamp[us]"
    assert all(r["stac:time_start"] is None for r in rows)
    with zipfile.ZipFile(out) as z:
        extent = json.loads(z.read("COLLECTION.json"))["extent"]
    assert extent["temporal"] is None
    assert extent["spatial"][0] == pytest.approx(expected_centroid(32633, UTM_GT, 20, 30)[0], abs=1e-9)
    # tacoreader reads it.
    import tacoreader
    ds = tacoreader.load(str(out))
    assert len(ds.data) == 2


def test_time_column_that_is_not_a_timestamp_is_refused(tmp_path):
    src = tmp_path / "src"
    geotiff(src / "a.tif", 32633, UTM_GT)
    meta = tmp_path / "meta.csv"
    meta.write_text("path,stac:time_start\na.tif,yesterday\n")
    out = tmp_path / "out.tacozip"
    r = taco("create", "--from", src, "--metadata", meta, "--stac", out)
    assert r.returncode != 0
    assert "a.tif" in r.stderr and "stac:time_start" in r.stderr and "timestamp" in r.stderr
    assert not out.exists()


def test_stac_is_refused_with_workers(tmp_path):
    src = tmp_path / "src"
    geotiff(src / "a.tif", 32633, UTM_GT)
    r = taco("create", "--from", src, "--stac", "--workers", "2", tmp_path / "o.tacozip")
    assert r.returncode == 2 and "--stac" in r.stderr


def parallel_tree(src: Path, bad: tuple = ()) -> Path:
    """12 folders x (2 rasters in different CRSs + a text file), with a time table; `bad` names
    folders whose first raster has a singular geotransform."""
    rows = ["path,stac:time_start"]
    for i in range(12):
        d = src / f"c{i:02d}"
        gt = (0.0, 1.0, 1.0, 0.0, 1.0, 1.0) if f"c{i:02d}" in bad else (
            500000.0 + 100 * i, 10.0, 0.0, 4500000.0, 0.0, -10.0)
        geotiff(d / "a.tif", 32633, gt, rows=10 + i, cols=12)
        geotiff(d / "b.tif", 4326, (10.0 + i, 0.01, 0.0, 50.0, 0.0, -0.01), bands=1)
        (d / "c.txt").write_text("text")
        for name in ("a.tif", "b.tif", "c.txt"):
            rows.append(f"c{i:02d}/{name},2021-01-{i + 1:02d} 00:00:00")
    meta = src.parent / "meta.csv"
    meta.write_text("\n".join(rows) + "\n")
    return meta


def zip_without_times(path: Path) -> bytes:
    """The file's bytes with the DOS date/time of every local and central header zeroed: the only
    bytes that depend on when it was written (the second the writer started)."""
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
    for info in infos:
        assert data[info.header_offset:info.header_offset + 4] == b"PK\x03\x04"
        data[info.header_offset + 10:info.header_offset + 14] = b"\0" * 4
    central = data.find(b"PK\x01\x02")
    while central != -1:
        data[central + 12:central + 16] = b"\0" * 4
        central = data.find(b"PK\x01\x02", central + 46)
    return bytes(data)


def test_stac_on_threads_gives_the_same_bytes_as_one_thread(tmp_path):
    src = tmp_path / "src"
    meta = parallel_tree(src)
    outs = []
    for threads in (1, 2, 3, 0):
        out = tmp_path / f"t{threads}" / "out.tacozip"  # the same name: the id derives from it
        out.parent.mkdir()
        r = taco("create", "--from", src, "--metadata", meta, "--stac", "--threads", threads, out, "--quiet")
        assert r.returncode == 0, r.stderr
        outs.append(zip_without_times(out))
    assert all(o == outs[0] for o in outs[1:])
    rows = level(tmp_path / "t1" / "out.tacozip", 1).to_pylist()
    a_rows = [r for r in rows if r["id"] == "a.tif"]
    assert [r["stac:tensor_shape"] for r in a_rows] == [[2, 10 + i, 12] for i in range(12)]
    assert [str(r["stac:time_start"]) for r in a_rows] == [f"2021-01-{i + 1:02d} 00:00:00" for i in range(12)]


def test_stac_on_threads_reports_the_first_bad_raster_in_order(tmp_path):
    src = tmp_path / "src"
    meta = parallel_tree(src, bad=("c03", "c09"))
    errors = set()
    for threads in (1, 2, 3):
        out = tmp_path / f"bad{threads}.tacozip"
        r = taco("create", "--from", src, "--metadata", meta, "--stac", "--threads", threads, out)
        assert r.returncode != 0 and not out.exists()
        assert "c03/a.tif" in r.stderr and "geotransform" in r.stderr, r.stderr
        assert "c09" not in r.stderr
        errors.add(r.stderr)
    assert len(errors) == 1  # the same message whatever the thread count
