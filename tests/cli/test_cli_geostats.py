"""`taco create --from DIR --stats` (issue 14): geotiff:stats for a whole tree, checked against
numpy on the same pixels, read back by `taco stats`; categorical classes; unreadable files."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from cli_support import REPO_ROOT, TACO
COLLECTION = ["--id", "t", "--description", "d", "--license", "CC-BY-4.0", "--provider", "p",
              "--task", "classification"]

gdal = pytest.importorskip("osgeo.gdal")
gdal.UseExceptions()


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def write(path: Path, data: np.ndarray, nodata=None) -> None:
    bands, h, w = data.shape
    gdt = {np.dtype(np.uint8): gdal.GDT_Byte, np.dtype(np.uint16): gdal.GDT_UInt16}[data.dtype]
    ds = gdal.GetDriverByName("GTiff").Create(str(path), w, h, bands, gdt)
    for b in range(bands):
        if nodata is not None:
            ds.GetRasterBand(b + 1).SetNoDataValue(nodata)
        ds.GetRasterBand(b + 1).WriteRaster(0, 0, w, h, np.ascontiguousarray(data[b]).tobytes())
    ds = None


@pytest.fixture
def tree(tmp_path):
    """scene_i/ (FOLDER) -> image.tif (2 x uint16, nodata 0) and label.tif (1 x uint8, 0..2)."""
    rng = np.random.default_rng(5)
    pixels = {}
    for i in range(3):
        d = tmp_path / "in" / f"scene_{i}"
        d.mkdir(parents=True)
        img = rng.integers(0, 3000, (2, 30, 40)).astype(np.uint16)
        lab = rng.integers(0, 3, (1, 30, 40)).astype(np.uint8)
        write(d / "image.tif", img, nodata=0)
        write(d / "label.tif", lab)
        pixels[i] = (img, lab)
    return tmp_path / "in", pixels


def level1(out: Path) -> list:
    p = taco("sql", out, "SELECT \"internal:parent_id\" AS parent, id, \"geotiff:stats\" FROM level1 "
             "ORDER BY parent, id", "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def expected(a: np.ndarray, nodata=None) -> list:
    out = []
    for band in a.astype(np.float64):
        valid = band != nodata if nodata is not None else np.ones(band.shape, bool)
        v = band[valid]
        out.append([v.min(), v.max(), v.mean(), v.std(), 100 * valid.mean(),
                    *np.percentile(v, [25, 50, 75, 95])])
    return np.float32(out)


def test_stats_for_a_whole_tree_and_read_back(tree, tmp_path):
    src, pixels = tree
    out = tmp_path / "d.tacozip"
    p = taco("create", "--from", src, out, *COLLECTION, "--stats", "--stats-threads", "2", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["stats_skipped"] == []
    rows = level1(out)
    assert len(rows) == 6
    for r in rows:
        img, lab = pixels[r["parent"]]
        want = expected(img, 0) if r["id"] == "image.tif" else expected(lab)
        np.testing.assert_allclose(np.array(r["geotiff:stats"]), want, rtol=2e-6)
    # taco stats pools the label rows and image rows of level 1 (band 0 is in both); band 1
    # only exists in the images: the error names a label sample.
    s = taco("stats", out, "--band", "0", "--level", "1", "--json")
    assert s.returncode == 0, s.stderr
    got = json.loads(s.stdout)[0]
    assert got["samples"] == 6
    assert got["max"] == max(float(img[0].max()) for img, _ in pixels.values())
    bad = taco("stats", out, "--band", "1", "--level", "1")
    assert bad.returncode != 0 and "band 1 is out of range" in bad.stderr and "label" in bad.stderr


def test_categorical_classes(tree, tmp_path):
    src, pixels = tree
    for f in src.glob("*/image.tif"):
        f.unlink()
    out = tmp_path / "c.tacozip"
    p = taco("create", "--from", src, out, *COLLECTION, "--stats-classes", "0,1,2")
    assert p.returncode == 0, p.stderr
    for r in level1(out):
        lab = pixels[r["parent"]][1][0]
        want = [(lab == c).mean() for c in (0, 1, 2)]
        np.testing.assert_allclose(r["geotiff:stats"][0], want, rtol=1e-6)


def test_unreadable_file_fails_naming_it_or_is_skipped(tree, tmp_path):
    src, _ = tree
    for i in range(3):  # in every scene: PIT wants the same children everywhere
        (src / f"scene_{i}" / "README.txt").write_text("not a raster")
    out = tmp_path / "u.tacozip"
    p = taco("create", "--from", src, out, *COLLECTION, "--stats")
    assert p.returncode != 0
    assert "sample 'README.txt'" in p.stderr and "GDAL cannot open" in p.stderr
    assert not out.exists()
    p = taco("create", "--from", src, out, *COLLECTION, "--stats", "--stats-skip-unreadable", "--json")
    assert p.returncode == 0, p.stderr
    assert "README.txt" in p.stderr
    assert len(json.loads(p.stdout)["stats_skipped"]) == 3
    readme = [r for r in level1(out) if r["id"] == "README.txt"]
    assert len(readme) == 3 and all(r["geotiff:stats"] is None for r in readme)


def test_stats_refused_with_dask(tree, tmp_path):
    src, _ = tree
    p = taco("create", "--from", src, tmp_path / "x.tacozip", *COLLECTION, "--stats", "--workers", "2")
    assert p.returncode != 0 and "--stats is not taken" in p.stderr
