"""Fixtures of the training and scale-out suite (tacocore.torch, tacocore.dask, taco create on
Dask). Tests the installed package, like tests/python; every dataset is written under pytest's
tmp directories.

Fixtures
    taco_bin        the built `taco` CLI (build/, or $TACO_BUILD_DIR)
    rasters         (directory, {id: pixels}): 40 GeoTIFFs t00..t39, 4 x 32 x 32 uint16
    raster_zip      those as FILE samples of one ZIP, with `index` (int) and `split` columns
    raster_folder   the same as a FOLDER dataset
    nested_zip      8 FOLDER samples s0..s7, each with `image` (3 x 16 x 16 uint8) and `label`
                    (1 x 16 x 16 uint8) FILE children; returns (path, {(sample, child): pixels})
    bad_zip         10 samples of which `broken` holds bytes GDAL cannot open, and `small` is
                    4 x 16 x 16 (another shape than the rest)
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

try:
    # GDAL's numpy extension, loaded before torch: once, in `make test`'s single pytest process,
    # loading it after torch (with a LocalCluster's threads running) crashed in the extension's
    # init. tests/python (which runs after this suite) uses it; this suite itself does not.
    from osgeo import gdal_array  # noqa: F401
except ImportError:  # pragma: no cover - the setup installs it
    pass

import tacocore

REPO_ROOT = Path(__file__).resolve().parents[2]
COLLECTION = dict(id="training-tests", dataset_version="1.0.0",
                  description="written by tests/training", licenses=["CC-BY-4.0"],
                  providers=[{"name": "tacocore tests", "roles": ["producer"]}],
                  tasks=["classification"])


from training_data import pixels, write_tif  # noqa: E402


@pytest.fixture(scope="session")
def taco_bin() -> Path:
    path = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"
    if not path.exists():
        pytest.skip(f"taco CLI not built at {path}")
    return path


@pytest.fixture(scope="session")
def rasters(tmp_path_factory) -> tuple:
    out = tmp_path_factory.mktemp("rasters")
    truth = {}
    for i in range(40):
        truth[f"t{i:02d}"] = pixels(i)
        write_tif(out / f"t{i:02d}.tif", truth[f"t{i:02d}"])
    return out, truth


def _raster_taco(directory: Path, n: int = 40) -> tacocore.Taco:
    samples = [tacocore.Sample(f"t{i:02d}", directory / f"t{i:02d}.tif", index=i,
                               split="train" if i % 4 else "test") for i in range(n)]
    return tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION)


@pytest.fixture(scope="session")
def raster_zip(tmp_path_factory, rasters) -> str:
    out = tmp_path_factory.mktemp("raster-zip") / "rasters.tacozip"
    return str(tacocore.create(_raster_taco(rasters[0]), out)[0])


@pytest.fixture(scope="session")
def raster_folder(tmp_path_factory, rasters) -> str:
    out = tmp_path_factory.mktemp("raster-folder") / "rasters"
    return str(tacocore.create(_raster_taco(rasters[0]), out)[0])


@pytest.fixture(scope="session")
def nested_zip(tmp_path_factory) -> tuple:
    src = tmp_path_factory.mktemp("nested-src")
    truth = {}
    roots = []
    for i in range(8):
        image, label = pixels(100 + i, (3, 16, 16), np.uint8), pixels(200 + i, (1, 16, 16), np.uint8)
        write_tif(src / f"image{i}.tif", image)
        write_tif(src / f"label{i}.tif", label)
        truth[(f"s{i}", "image")], truth[(f"s{i}", "label")] = image, label
        children = tacocore.Tortilla([tacocore.Sample("image", src / f"image{i}.tif"),
                                      tacocore.Sample("label", src / f"label{i}.tif")])
        roots.append(tacocore.Sample(f"s{i}", children, region=f"r{i % 2}"))
    taco = tacocore.Taco(tacocore.Tortilla(roots), **{**COLLECTION, "id": "nested"})
    path = tacocore.create(taco, tmp_path_factory.mktemp("nested") / "nested.tacozip")[0]
    return str(path), truth


@pytest.fixture(scope="session")
def bad_zip(tmp_path_factory) -> str:
    src = tmp_path_factory.mktemp("bad-src")
    samples = []
    for i in range(10):
        name = {3: "broken", 6: "small"}.get(i, f"ok{i}")
        path = src / f"{name}.tif"
        if name == "broken":
            path.write_bytes(b"this is not a GeoTIFF, GDAL cannot open it" * 10)
        else:
            write_tif(path, pixels(i, (4, 16, 16) if name == "small" else (4, 32, 32)))
        samples.append(tacocore.Sample(name, path, index=i))
    taco = tacocore.Taco(tacocore.Tortilla(samples), **{**COLLECTION, "id": "bad"})
    return str(tacocore.create(taco, tmp_path_factory.mktemp("bad") / "bad.tacozip")[0])
