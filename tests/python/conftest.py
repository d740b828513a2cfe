"""Shared fixtures of the tacocore Python suite (tests/python).

The suite tests the installed package (`scripts/install_python.sh`, as `make test` does). Every
dataset it writes goes under pytest's tmp directories; the reference fixtures are read-only.

Fixtures
    fixtures_dir      tests/fixtures/reference (copied from shared/fixtures/reference)
    fixture_paths     {name: path} of every reference fixture dataset
    demo_input        examples/demo/input: <scene>/image.tif (3 bands) and mask.tif (1 band)
    demo_datasets     {"zip": path, "folder": path}: the demo scenes written by tacocore, nested
                      (scene FOLDER -> image, mask FILEs), with typed level-0 metadata
    geotiffs          a directory of small 4-band uint16 ZSTD-tiled GeoTIFFs (GDAL-written)
    geotiff_zip       those GeoTIFFs as FILE samples of one tacocore ZIP
    make_taco         make_taco(samples, **collection) -> tacocore.Taco with valid defaults
    reference         the reference packages (tacoreader, tacotoolbox); skips when missing
"""

from __future__ import annotations

import datetime
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

import tacocore

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
DEMO_INPUT = REPO_ROOT / "examples" / "demo" / "input"

FIXTURE_DATASETS = {
    "reader-folder-flat": "tacoreader/folder/flat",
    "reader-zip-flat": "tacoreader/zip/flat/flat.tacozip",
    "reader-folder-nested": "tacoreader/folder/nested",
    "reader-zip-nested": "tacoreader/zip/nested/nested.tacozip",
    "toolbox-folder-simple": "tacotoolbox/folder/simple",
    "toolbox-zip-simple": "tacotoolbox/zip/simple/simple.tacozip",
    "toolbox-zip-nested_a": "tacotoolbox/zip/nested_a/nested_a.tacozip",
    "toolbox-zip-nested_b": "tacotoolbox/zip/nested_b/nested_b.tacozip",
}

COLLECTION_DEFAULTS = dict(
    id="test-dataset",
    dataset_version="1.0.0",
    description="a dataset written by the tacocore Python tests",
    licenses=["CC-BY-4.0"],
    providers=[{"name": "tacocore tests", "roles": ["producer"]}],
    tasks=["classification"],
)


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    assert FIXTURES.is_dir(), f"reference fixtures not found at {FIXTURES}"
    return FIXTURES


@pytest.fixture(scope="session")
def fixture_paths(fixtures_dir) -> dict:
    return {name: str(fixtures_dir / rel) for name, rel in FIXTURE_DATASETS.items()}


@pytest.fixture(scope="session")
def demo_input() -> Path:
    if not DEMO_INPUT.is_dir():
        pytest.skip(f"demo input not found at {DEMO_INPUT}")
    return DEMO_INPUT


def demo_taco(demo_input: Path, description: str = "three demo scenes") -> tacocore.Taco:
    roots = []
    for i, (name, cloud) in enumerate({"valencia": 12.5, "lima": 3.25, "tokyo": 41.0}.items()):
        children = tacocore.Tortilla([
            tacocore.Sample("image", demo_input / name / "image.tif", sensor="MSI"),
            tacocore.Sample("mask", str(demo_input / name / "mask.tif"), sensor="mask"),
        ])
        roots.append(tacocore.Sample(
            name, children, cloud_cover=cloud, acquired=datetime.datetime(2023, 6, 1 + i, 10, 30),
            split="train" if i < 2 else "test", valid=i != 1, count=i * 1000, tags=["a", name],
            weights=np.array([0.5, 1.5 + i], dtype=np.float32), blob=bytes([i, 255]), note=None,
        ))
    return tacocore.Taco(tacocore.Tortilla(roots), **{**COLLECTION_DEFAULTS, "id": "demo",
                                                      "description": description,
                                                      "tasks": ["semantic-segmentation"]})


@pytest.fixture(scope="session")
def demo_datasets(tmp_path_factory, demo_input) -> dict:
    out = tmp_path_factory.mktemp("demo")
    taco = demo_taco(demo_input)
    return {
        "zip": str(tacocore.create(taco, out / "demo.tacozip")[0]),
        "folder": str(tacocore.create(taco, out / "demo-folder")[0]),
    }


def write_geotiff(path: Path, index: int, size: int = 256, bands: int = 4) -> np.ndarray:
    """A bands x size x size uint16 GeoTIFF, ZSTD, 128x128 tiles; returns the pixels written."""
    from osgeo import gdal, osr

    gdal.UseExceptions()
    yy, xx = np.mgrid[0:size, 0:size]
    rng = np.random.default_rng(index)
    data = ((xx * 7 + yy * 3 + index * 11) % 4096 + rng.integers(0, 256, (bands, size, size))).astype(np.uint16)
    ds = gdal.GetDriverByName("GTiff").Create(
        str(path), size, size, bands, gdal.GDT_UInt16,
        ["TILED=YES", "BLOCKXSIZE=128", "BLOCKYSIZE=128", "COMPRESS=ZSTD", "INTERLEAVE=BAND"])
    ds.SetGeoTransform([500000.0 + index * 2560.0, 10.0, 0.0, 4500000.0, 0.0, -10.0])
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32630)
    ds.SetProjection(srs.ExportToWkt())
    ds.WriteRaster(0, 0, size, size, data.tobytes(), buf_type=gdal.GDT_UInt16, band_list=list(range(1, bands + 1)))
    ds = None
    return data


@pytest.fixture(scope="session")
def geotiffs(tmp_path_factory) -> tuple[Path, list]:
    """(directory, [pixels of g00.tif, g01.tif, ...]) - 48 GeoTIFFs of 4 x 256 x 256 uint16."""
    out = tmp_path_factory.mktemp("geotiffs")
    pixels = [write_geotiff(out / f"g{i:02d}.tif", i) for i in range(48)]
    return out, pixels


@pytest.fixture(scope="session")
def geotiff_zip(tmp_path_factory, geotiffs) -> str:
    directory, pixels = geotiffs
    samples = [tacocore.Sample(f"g{i:02d}", directory / f"g{i:02d}.tif", index=i) for i in range(len(pixels))]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **{**COLLECTION_DEFAULTS, "id": "geotiffs"})
    return str(tacocore.create(taco, tmp_path_factory.mktemp("gz") / "geotiffs.tacozip")[0])


@pytest.fixture
def make_taco():
    def make(samples, **collection) -> tacocore.Taco:
        return tacocore.Taco(tacocore.Tortilla(samples), **{**COLLECTION_DEFAULTS, **collection})

    return make


def offline_duckdb() -> None:
    """tacoreader runs `INSTALL spatial` on every load(); offline, DuckDB waits ~0.55 s for the
    extension server each time. An empty local repository fails in milliseconds with the same
    result (the tests do not use the spatial extension). Same trick as bench/common.py."""
    import duckdb

    connect = duckdb.connect
    if getattr(connect, "__name__", "") == "offline_connect":
        return

    def offline_connect(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute("SET custom_extension_repository = '/nonexistent/tacocore-tests'")
        return db

    duckdb.connect = offline_connect


class Reference:
    """The reference packages, imported lazily (tacoreader pulls in duckdb, tacotoolbox pyproj)."""

    def __init__(self) -> None:
        offline_duckdb()
        import tacoreader
        import tacotoolbox
        import tacotoolbox.datamodel

        self.tacoreader = tacoreader
        self.tacotoolbox = tacotoolbox

    def load(self, path):
        return self.tacoreader.load(str(path))


@pytest.fixture(scope="session")
def reference() -> Reference:
    try:
        return Reference()
    except ImportError as exc:  # the reference packages come from `make setup`
        pytest.skip(f"reference packages not installed: {exc}")


def arrow_types(table) -> list:
    """[(name, str(type))] - the type strings include list child names, unlike pa.Schema.__eq__."""
    return [(f.name, str(f.type)) for f in table.schema]


def zip_entry_ranges(zip_path) -> dict[str, tuple[int, int]]:
    """Every entry of a ZIP by name: its data offset (after its local header) and size, read
    from the file itself (what a sample's internal:offset/size must say)."""
    out = {}
    with zipfile.ZipFile(zip_path) as z, open(zip_path, "rb") as f:
        for info in z.infolist():
            f.seek(info.header_offset)
            name_len, extra_len = struct.unpack("<HH", f.read(30)[26:30])
            out[info.filename] = (info.header_offset + 30 + name_len + extra_len, info.file_size)
    return out
