"""Reference-style end-to-end script: create a dataset with tacotoolbox, read it with tacoreader.

Written against the reference packages' public API (tacotoolbox 0.26 / tacoreader 2.4) and run
unchanged twice by tests/python/test_compat.py: once with the reference packages and once with
`tacotoolbox`, `tacotoolbox.datamodel` and `tacoreader` mapped to `tacocore` (compat/shim.py).
It prints one JSON document of everything it observed; the test compares the two documents.

    python create_and_read.py OUT_DIR INPUT_DIR FORMAT...      (FORMAT: zip | folder)

INPUT_DIR holds <scene>/image.tif and <scene>/mask.tif (examples/demo/input).
"""
import datetime
import hashlib
import json
import pathlib
import sys

import numpy as np
from osgeo import gdal

import tacoreader
import tacotoolbox
from tacotoolbox.datamodel import Sample, Taco, Tortilla

gdal.UseExceptions()

out_dir = pathlib.Path(sys.argv[1])
inputs = pathlib.Path(sys.argv[2])
formats = sys.argv[3:]


def create_and_read(fmt):
    # --- create ---
    scenes = {"valencia": 12.5, "lima": 3.25, "tokyo": 41.0}
    roots = []
    for i, (name, cloud) in enumerate(scenes.items()):
        image = Sample(id="image", path=inputs / name / "image.tif", sensor="MSI", band_count=3)
        mask = Sample(id="mask", path=inputs / name / "mask.tif", sensor="mask", band_count=1)
        notes = Sample(id="notes", path=f"{name}: notes kept as bytes".encode(), sensor="text", band_count=0)
        scene = Sample(id=name, path=Tortilla(samples=[image, mask, notes]))
        scene.extend_with({
            "cloud_cover": cloud,
            "acquired": datetime.datetime(2023, 6, 1 + i, 10, 30),
            "split": "train" if i < 2 else "test",
            "valid": i != 1,
            "count": i * 1000,
            "tags": ["a", name],
            "weights": np.array([0.5, 1.5 + i], dtype=np.float64),
        })
        roots.append(scene)

    taco = Taco(
        tortilla=Tortilla(samples=roots),
        id="compat-demo",
        dataset_version="1.2.0",
        description="Three scenes, each an image and a mask, for the compatibility test",
        licenses=["CC-BY-4.0"],
        providers=[{"name": "tacocore tests", "roles": ["producer"], "url": "https://example.org"}],
        tasks=["semantic-segmentation"],
        title="Compat demo",
        keywords=["demo", "compat"],
    )
    suffix = ".tacozip" if fmt == "zip" else ""
    written = tacotoolbox.create(taco, out_dir / f"compat{suffix}")
    result = {"written": [pathlib.Path(p).name for p in written]}

    # --- load ---
    ds = tacoreader.load(str(written[0]))
    result["meta"] = {
        "id": ds.id, "version": ds.version, "description": ds.description, "tasks": ds.tasks,
        "licenses": ds.licenses, "title": ds.title, "keywords": ds.keywords,
        "providers": [{k: p[k] for k in ("name", "roles", "url")} for p in ds.providers],
        "pit_root": dict(ds.pit_schema.root),
        "field_names": {lvl: [f[0] for f in cols] for lvl, cols in ds.field_schema.items()},
        "field_types": {lvl: [f[1] for f in cols] for lvl, cols in ds.field_schema.items()},
        "collection_keys": sorted(k for k in ds.collection if k not in ("taco_version",)),
    }

    df = ds.data
    table = df.to_arrow()
    result["data"] = {
        "len": len(df),
        "columns": list(df.columns),
        "types": [str(f.type) for f in table.schema],
        "rows": json.loads(json.dumps(table.drop_columns(["internal:gdal_vsi"]).to_pylist(), default=str)),
        "head": df.head(2).num_rows,
        "tail": df.tail(1).column("id").to_pylist(),
    }

    # --- filter with SQL ---
    query = "SELECT * FROM data WHERE cloud_cover < 20 ORDER BY cloud_cover"
    filtered = ds.sql(query)
    # tacoreader 2.4.21 returns the table at once; tacoreader 2.4.12, the spec and tacocore a lazy view.
    filtered = filtered.data.to_arrow() if hasattr(filtered, "data") else filtered
    result["sql"] = filtered.column("id").to_pylist()

    # --- navigate down the hierarchy and open samples with GDAL ---
    nav = {}
    for key in ("lima", 2):
        scene = df.read(key)
        children = scene.to_arrow()
        entry = {"len": len(scene), "ids": children.column("id").to_pylist(),
                 "sensor": children.column("sensor").to_pylist()}
        for child in ("image", 1):
            vsi = scene.read(child)
            raster = gdal.Open(vsi)
            pixels = raster.ReadAsArray()
            f = gdal.VSIFOpenL(vsi, "rb")
            size = gdal.VSIStatL(vsi).size
            data = gdal.VSIFReadL(1, size, f)
            gdal.VSIFCloseL(f)
            entry[str(child)] = {
                "shape": list(pixels.shape), "dtype": str(pixels.dtype), "sum": int(np.sum(pixels, dtype=np.int64)),
                "bands": raster.RasterCount, "crs_set": bool(raster.GetProjection()),
                "geotransform": list(raster.GetGeoTransform()),
                "sha256": hashlib.sha256(data).hexdigest(), "size": size,
            }
            raster = None
        nav[str(key)] = entry
    result["nav"] = nav

    # --- errors ---
    errors = {}
    for key in (99, "nowhere"):
        try:
            df.read(key)
        except Exception as exc:  # the class name is compared, not the message
            errors[str(key)] = type(exc).__name__
    result["errors"] = errors

    ds.close()
    return result


print(json.dumps({fmt: create_and_read(fmt) for fmt in formats}, indent=1, sort_keys=True))
