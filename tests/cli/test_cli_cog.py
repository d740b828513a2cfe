"""`taco cog` and `taco validate --tog` (issue 16 item 4): TACO-optimized GeoTIFFs written by
GDAL's COG driver, checked with GDAL's own `gdalinfo` (pixels by checksum, layout by metadata)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
GEOTIFFS = REPO_ROOT / "tests" / "fixtures" / "reference" / "tacotoolbox" / "geotiffs"
GDALINFO = shutil.which("gdalinfo")

if not GDALINFO:
    pytest.skip("gdalinfo is not installed (apt-get install gdal-bin)", allow_module_level=True)


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def gdalinfo(path: Path) -> dict:
    out = subprocess.run([GDALINFO, "-json", "-checksum", "-mdd", "all", str(path)],
                         capture_output=True, text=True, check=True,
                         env={**os.environ, "GDAL_PAM_ENABLED": "NO"})
    return json.loads(out.stdout)


@pytest.mark.parametrize("name", sorted(p.name for p in GEOTIFFS.glob("*.tif")))
def test_cog_writes_a_tog_with_the_same_pixels(tmp_path, name):
    src, out = GEOTIFFS / name, tmp_path / name
    proc = taco("cog", src, out)
    assert proc.returncode == 0, proc.stderr
    a, b = gdalinfo(src), gdalinfo(out)
    assert [band["checksum"] for band in b["bands"]] == [band["checksum"] for band in a["bands"]]
    assert b["size"] == a["size"] and b.get("coordinateSystem") == a.get("coordinateSystem")
    assert b.get("geoTransform") == a.get("geoTransform")
    structure = b["metadata"]["IMAGE_STRUCTURE"]
    assert structure["COMPRESSION"] == "ZSTD" and structure["LAYOUT"] == "COG"
    assert structure["PREDICTOR"] in ("2", "3")
    assert all(band["block"] == [512, 512] for band in b["bands"])
    assert all(not band.get("overviews") for band in b["bands"])
    assert out.read_bytes()[:4] == b"II+\x00"  # BigTIFF
    info = json.loads(b["metadata"][""]["IMAGE_INFO"])  # gdalinfo -hist -approx_stats -json
    assert len(info["bands"]) == len(a["bands"])
    assert all("histogram" in band and "mean" in band for band in info["bands"])
    # Nothing was written beside the input (statistics computed without .aux.xml).
    assert not (GEOTIFFS / (name + ".aux.xml")).exists()
    check = taco("cog", "--check", out, "--json")
    assert check.returncode == 0, check.stderr
    assert json.loads(check.stdout) == [{"path": str(out), "tog": True, "problems": []}]


def test_cog_check_names_what_is_missing(tmp_path):
    plain = tmp_path / "plain.tif"
    subprocess.run(["gdal_translate", "-q", "-co", "COMPRESS=DEFLATE", str(GEOTIFFS /
                    "rgb_256x256.tif"), str(plain)], check=True)
    proc = taco("cog", "--check", plain)
    assert proc.returncode == 1
    for fragment in ("compression is DEFLATE, expected ZSTD", "not written with the COG layout",
                     "not a BigTIFF", "no IMAGE_INFO"):
        assert fragment in proc.stdout


def test_cog_bad_input_and_existing_output(tmp_path):
    bad = tmp_path / "bad.tif"
    bad.write_bytes(b"not a tiff")
    proc = taco("cog", bad, tmp_path / "o.tif")
    assert proc.returncode == 2 and "bad.tif" in proc.stderr
    assert not (tmp_path / "o.tif").exists()
    out = tmp_path / "exists.tif"
    out.write_bytes(b"keep")
    proc = taco("cog", GEOTIFFS / "rgb_256x256.tif", out)
    assert proc.returncode == 2 and out.read_bytes() == b"keep"
    proc = taco("cog", GEOTIFFS / "rgb_256x256.tif", tmp_path / "x.tif", "--block-size", "100")
    assert proc.returncode == 1 and "multiple of 16" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.tif", "exists.tif"]


def test_validate_tog_reports_every_geotiff_sample(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    assert taco("cog", GEOTIFFS / "rgb_256x256.tif", src / "rgb.tif").returncode == 0
    shutil.copy(GEOTIFFS / "single_band_128x128.tif", src / "single.tif")
    (src / "notes.bin").write_bytes(b"not a raster")
    ds = tmp_path / "ds.tacozip"
    proc = taco("create", "--from", src, ds, "-q")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(taco("validate", ds, "--tog", "--json").stdout)
    found = {(f["code"], f["location"].split("(")[-1].rstrip(")")) for f in report["findings"]}
    assert ("tog.optimized", "rgb.tif") in found
    assert ("tog.not-optimized", "single.tif") in found
    assert not any(loc.startswith("notes") for _, loc in found)
    assert report["valid"] is True
    # Without --tog nothing is said about the rasters.
    plain = json.loads(taco("validate", ds, "--json").stdout)
    assert not any(f["code"].startswith("tog.") for f in plain["findings"])
