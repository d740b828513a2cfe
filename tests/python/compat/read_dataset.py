"""Reference-style reading script: load a dataset with tacoreader and walk all of it.

Run unchanged by tests/python/test_compat.py with the reference tacoreader and with tacocore
standing in for it (compat/shim.py); the two JSON documents it prints must be equal.

    python read_dataset.py PATH... [--concat A B [--concat C D ...]]

Prints the collection metadata, every level-0 row, then walks the tree with `read()` down to
every FILE: its position, id, metadata row, the SHA-256 of its bytes through GDAL's VSI, and for
rasters the shape, dtype and pixel sum GDAL decodes. Each `--concat A B` does the same for
`tacoreader.load([A, B])` (after the single datasets: tacoreader's concat changes the collection
it caches for A).
"""
import hashlib
import json
import sys

import numpy as np
from osgeo import gdal

import tacoreader

gdal.UseExceptions()


def jsonable(rows):
    return json.loads(json.dumps(rows, default=lambda v: v.hex() if isinstance(v, bytes) else str(v)))


def file_facts(vsi):
    size = gdal.VSIStatL(vsi).size
    f = gdal.VSIFOpenL(vsi, "rb")
    data = gdal.VSIFReadL(1, size, f) if size else b""
    gdal.VSIFCloseL(f)
    facts = {"size": size, "sha256": hashlib.sha256(data).hexdigest()}
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        raster = gdal.Open(vsi)
        pixels = raster.ReadAsArray()
        facts.update(shape=list(pixels.shape), dtype=str(pixels.dtype),
                     sum=float(np.sum(pixels, dtype=np.float64)))
    return facts


def walk(df, depth):
    table = df.to_arrow()
    rows = table.drop_columns([c for c in table.column_names if c.startswith("internal:")]).to_pylist()
    out = []
    for i, row in enumerate(rows):
        key = i if i % 2 == 0 else row["id"]  # alternate position and id lookups
        child = df.read(key)
        if row["type"] == "FOLDER":
            out.append({"row": jsonable(row), "children": walk(child, depth + 1)})
        else:
            out.append({"row": jsonable(row), "file": file_facts(child)})
    return out


def describe(path):
    ds = tacoreader.load(path)
    result = describe_dataset(ds)
    ds.close()
    return result


def describe_dataset(ds):
    result = {
        "id": ds.id, "version": ds.version, "description": ds.description, "tasks": ds.tasks,
        "licenses": ds.licenses, "title": ds.title, "keywords": ds.keywords, "curators": ds.curators,
        "providers": ds.providers, "extent": ds.extent,
        "pit_schema": ds.pit_schema.to_dict(), "field_schema": ds.field_schema,
        "collection": ds.collection,
    }
    # A deep copy: tacoreader's concat later edits nested dicts these share with its load cache.
    result = jsonable(result)
    data = ds.data
    table = data.to_arrow()
    result["columns"] = data.columns
    result["types"] = [str(f.type) for f in table.schema]
    result["len"] = len(data)
    result["tree"] = walk(data, 0)
    return result


def describe_concat(a, b):
    ds = tacoreader.load([a, b])
    result = describe_dataset(ds)
    # tacoreader emits a concatenation's columns sorted; the set is what both must agree on.
    types = dict(zip(result.pop("columns"), result.pop("types")))
    result["columns"] = sorted(types.items())
    return result


args = sys.argv[1:]
paths = args[:args.index("--concat")] if "--concat" in args else args
doc = {path: describe(path) for path in paths}
for i, arg in enumerate(args):
    if arg == "--concat":
        a, b = args[i + 1], args[i + 2]
        doc[f"concat {a} + {b}"] = describe_concat(a, b)
print(json.dumps(doc, indent=1, sort_keys=True))
