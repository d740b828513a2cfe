"""Raster helpers shared by the training suite's fixtures and tests (a module of its own, not
conftest: tests/python has a conftest module too)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def write_tif(path: Path, data: np.ndarray) -> None:
    """A GeoTIFF of `data` (bands, height, width), written through GDAL's raw-buffer API: the
    suite never imports osgeo.gdal_array (see conftest.py)."""
    from osgeo import gdal

    gdal.UseExceptions()
    bands, height, width = data.shape
    kind = {np.dtype("uint16"): gdal.GDT_UInt16, np.dtype("uint8"): gdal.GDT_Byte}[data.dtype]
    ds = gdal.GetDriverByName("GTiff").Create(str(path), width, height, bands, kind,
                                              ["COMPRESS=DEFLATE"])
    ds.SetGeoTransform([0.0, 10.0, 0.0, 0.0, 0.0, -10.0])
    ds.WriteRaster(0, 0, width, height, np.ascontiguousarray(data).tobytes(), buf_type=kind,
                   band_list=list(range(1, bands + 1)))
    ds = None


def pixels(seed: int, shape=(4, 32, 32), dtype=np.uint16) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 4000 if dtype == np.uint16 else 255, shape).astype(dtype)
