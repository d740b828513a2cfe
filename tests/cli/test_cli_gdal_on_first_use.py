"""`taco` loads GDAL on first use (src/gdal_lazy/): a command that never calls GDAL does not load
libgdal and the ~110 libraries it needs (~38 ms of every process start), and a command that does
call it gets the same GDAL, loaded at its first call. Which libraries a process loads is read from
the dynamic linker's own trace (LD_DEBUG=files), not inferred from timing."""

from __future__ import annotations

import json
import os
import struct
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
gdal = pytest.importorskip("osgeo.gdal")
osr = pytest.importorskip("osgeo.osr")


# The sanitizer build links GDAL as usual (UBSan's vptr checks refer to GDAL's typeinfo, which an
# entry point cannot forward; CMakeLists.txt): there every process loads it at start.
LAZY = not os.environ.get("TACO_SANITIZED")


def traced(*args) -> tuple[subprocess.CompletedProcess, str]:
    """Runs taco with the dynamic linker's file trace; returns the run and the trace."""
    env = dict(os.environ, LD_DEBUG="files")
    run = subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300,
                         env=env)
    # The trace goes to stderr, interleaved with the program's own messages.
    return run, run.stderr


def loads_gdal(trace: str) -> bool:
    return any("file=libgdal.so" in line for line in trace.splitlines())


def geotiff(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    ds = gdal.GetDriverByName("GTiff").Create(str(path), 30, 20, 1, gdal.GDT_Byte)
    ds.SetGeoTransform((500000.0, 10.0, 0.0, 4500000.0, 0.0, -10.0))
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32633)
    ds.SetProjection(srs.ExportToWkt())
    ds.GetRasterBand(1).Fill(7)
    ds = None


@pytest.fixture
def plain_dataset(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"alpha")
    (src / "b.bin").write_bytes(b"beta")
    out = tmp_path / "plain.tacozip"
    run = subprocess.run([str(TACO), "create", "--from", str(src), str(out)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return out


def test_the_binary_does_not_need_gdal_at_start():
    run, trace = traced("--version")
    assert run.returncode == 0
    assert "taco" in run.stdout
    assert "file=libduckdb.so" in trace  # the trace works: what the binary does need is there
    assert loads_gdal(trace) != LAZY


def test_commands_that_never_call_gdal_do_not_load_it(plain_dataset: Path, tmp_path: Path):
    for args in (["info", plain_dataset],
                 ["sql", plain_dataset, "SELECT id FROM data ORDER BY id", "--csv"],
                 ["ls", plain_dataset],
                 ["cat", plain_dataset, "a.bin"],
                 ["validate", plain_dataset],
                 ["create", "--from", tmp_path / "src", tmp_path / "again.tacozip"]):
        run, trace = traced(*args)
        assert run.returncode == 0, (args, run.stderr[-2000:])
        assert loads_gdal(trace) != LAZY, args
    run, _ = traced("sql", plain_dataset, "SELECT id FROM data ORDER BY id", "--csv")
    assert run.stdout.splitlines() == ["id", "a.bin", "b.bin"]


def test_a_command_that_calls_gdal_loads_it_at_first_use_and_gets_its_answers(tmp_path: Path):
    src = tmp_path / "rasters"
    geotiff(src / "scene.tif")
    out = tmp_path / "stac.tacozip"
    run, trace = traced("create", "--from", src, out, "--stac", "--stats")
    assert run.returncode == 0, run.stderr[-2000:]
    assert loads_gdal(trace)
    # What GDAL computed through the lazily bound entry points: the CRS (OSR), the centroid
    # (a coordinate transformation) and the statistics (a raster read).
    run = subprocess.run([str(TACO), "sql", str(out),
                          'SELECT "stac:crs", "stac:tensor_shape", "geotiff:stats", "stac:centroid" '
                          'FROM data', "--json"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    row = json.loads(run.stdout)[0]
    assert row["stac:crs"] == "EPSG:32633"
    assert row["stac:tensor_shape"] == [1, 20, 30]
    assert row["geotiff:stats"][0][:4] == [7.0, 7.0, 7.0, 0.0]  # min, max, mean, std of band 1
    # The scene's centre (500150 E, 4499900 N in UTM 33N) carried to EPSG:4326 by OSR.
    utm, wgs84 = osr.SpatialReference(), osr.SpatialReference()
    utm.ImportFromEPSG(32633)
    wgs84.ImportFromEPSG(4326)
    wgs84.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    lon, lat, _ = osr.CoordinateTransformation(utm, wgs84).TransformPoint(500150.0, 4499900.0)
    wkb = bytes.fromhex(row["stac:centroid"])  # a little-endian WKB point
    assert len(wkb) == 21 and wkb[0] == 1 and struct.unpack("<I", wkb[1:5])[0] == 1
    assert struct.unpack("<dd", wkb[5:]) == pytest.approx((lon, lat), abs=1e-9)


def test_gdal_messages_are_routed_from_its_first_call(tmp_path: Path):
    """GDAL's own messages reach taco's log ("taco: warning: GDAL: ..."), never GDAL's default
    printer ("Warning 1: ..."), also when the first GDAL call of the process is a filter's."""
    src = tmp_path / "rasters"
    geotiff(src / "scene.tif")
    out = tmp_path / "stac.tacozip"
    run = subprocess.run([str(TACO), "create", "--from", str(src), str(out), "--stac"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    # A box in a geocentric CRS reprojects into a self-intersecting polygon: GEOS warns via GDAL.
    run = subprocess.run([str(TACO), "filter", str(out), "--bbox", "14,40,16,41", "--crs",
                          "EPSG:4978"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert any(line.startswith("taco: warning: GDAL: ") for line in lines), run.stderr
    assert not [line for line in lines if line.startswith(("Warning ", "ERROR "))], run.stderr
