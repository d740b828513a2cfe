"""Regenerates the bundled demo inputs (committed; run only to change them).

Three scenes, each a FOLDER with a 3-band uint16 image and a 1-band uint8 mask, written as tiled
ZSTD GeoTIFFs with GDAL, plus metadata.csv keyed by each sample's path.
"""
import os
import numpy as np
from osgeo import gdal, osr

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(42)
scenes = [("valencia", -0.38, 39.47, "2023-06-01T10:30:00", 12.5, "train"),
          ("lima", -77.04, -12.05, "2023-07-15T15:00:00", 40.0, "train"),
          ("tokyo", 139.69, 35.69, "2023-08-20T01:45:00", 5.25, "test")]
srs = osr.SpatialReference()
srs.ImportFromEPSG(4326)
rows = ["path,cloud_cover,acquired,split,sensor,band_count"]
for name, lon, lat, when, cloud, split in scenes:
    os.makedirs(os.path.join(here, "input", name), exist_ok=True)
    for fname, bands, dtype, gdt in (("image.tif", 3, np.uint16, gdal.GDT_UInt16),
                                     ("mask.tif", 1, np.uint8, gdal.GDT_Byte)):
        path = os.path.join(here, "input", name, fname)
        ds = gdal.GetDriverByName("GTiff").Create(
            path, 64, 64, bands, gdt, options=["TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=64", "COMPRESS=ZSTD"])
        ds.SetGeoTransform([lon - 0.032, 0.001, 0, lat + 0.032, 0, -0.001])
        ds.SetProjection(srs.ExportToWkt())
        for b in range(bands):
            hi = 4000 if dtype == np.uint16 else 2
            ds.GetRasterBand(b + 1).WriteArray(rng.integers(0, hi, (64, 64), dtype=dtype))
        ds = None
        rows.append(f"{name}/{fname},,,,{'MSI' if bands == 3 else 'mask'},{bands}")
    rows.append(f"{name},{cloud},{when},{split},,")
with open(os.path.join(here, "metadata.csv"), "w") as f:
    f.write("\n".join(rows) + "\n")
