"""Writes the legacy v1 test inputs with the legacy writers themselves (run in .venv-legacy).

    make_v1.py INPUT_DIR OUTPUT_DIR

INPUT_DIR holds the sample files (tile_*.tif made with GDAL by the test, blob_*.bin). The writers
are pytortilla 0.5.1 (Tortilla 0.5, "#y") and tacotoolbox 0.5.2 (TACO "WX": a tortilla with the
COLLECTION appended). Nothing here writes a byte of the containers: every file is the writers'.
Prints a JSON manifest on stdout: per output, the file(s) and what each sample was made from.
"""

import json
import pathlib
import sys

import pytortilla
import tacotoolbox
from pytortilla.datamodel import Sample, Samples
from tacotoolbox.datamodel import Collection
from tacotoolbox.specification import Contact, Extent

src = pathlib.Path(sys.argv[1])
out = pathlib.Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
manifest = {}


def stac(i):
    # UTM 31N tiles 100 m apart; times as seconds since the epoch, as the writers keep them.
    return {
        "crs": "EPSG:32631",
        "raster_shape": (8, 8),
        "geotransform": (500000.0 + 100.0 * i, 10.0, 0.0, 4500000.0, 0.0, -10.0),
        "time_start": 1700000000 + 86400 * i,
        "time_end": 1700000000 + 86400 * i + 3600,
    }


def tiles(prefix, count, first=0, split=True):
    samples = []
    for i in range(first, first + count):
        samples.append(
            Sample(
                id=f"{prefix}{i}",
                path=src / f"tile_{i}.tif",
                file_format="GTiff",
                data_split=("train", "validation", "test")[i % 3] if split else None,
                stac_data=stac(i),
                cloud_cover=float(i) * 1.5,  # an extra field: kept by the writer as a column
                label=f"class_{i % 2}",
            )
        )
    return samples


def named(ids, first):
    """Samples with the given ids over tiles first, first+1, ... (the same ids under every
    parent: the trees TACO 2.0 can hold)."""
    return [
        Sample(id=sid, path=src / f"tile_{(first + k) % 6}.tif", file_format="GTiff",
               stac_data=stac((first + k) % 6), cloud_cover=float(first + k))
        for k, sid in enumerate(ids)
    ]


def record(name, files, rows):
    manifest[name] = {"files": [str(f) for f in files], "rows": rows}


collection = Collection(
    id="legacyfixture",
    dataset_version="1.2.0",
    description="Legacy v1 fixture written by tacotoolbox 0.5.2 for tacocore's tests.",
    licenses=["cc-by-4.0"],
    extent=Extent(
        spatial=[[2.9, 40.6, 3.1, 40.7]],
        temporal=[["2023-11-14T22:13:20Z", "2023-11-20T22:13:20Z"]],
    ),
    providers=[Contact(name="Tortilla Lab", organization="Legacy Org", roles=["producer"])],
    task="classification",
    title="Legacy fixture",
    keywords=["legacy", "v1"],
    curators=[Contact(name="Curator One", organization="Legacy Org")],
)

# 1. flat.tortilla: five GeoTIFF samples and a BYTES one (mixed formats are allowed).
flat = tiles("tile_", 5) + [
    Sample(id="notes", path=src / "blob_0.bin", file_format="BYTES", label="text")
]
path = pytortilla.create(Samples(samples=flat), out / "flat.tortilla", nworkers=1, quiet=True)
record("flat.tortilla", [path], [{"id": s.id, "path": str(s.path)} for s in flat])

# 2. nested.taco: three FOLDER samples (nested tortillas), each with two GeoTIFF children.
nested_rows = []
parents = []
for p in range(3):
    children = named(["lr", "hr"], 2 * p)
    inner = pytortilla.create(
        Samples(samples=children), out / "parts" / f"region_{p}.tortilla", nworkers=1, quiet=True
    )
    parents.append(
        Sample(id=f"region_{p}", path=inner, file_format="TORTILLA", data_split="train",
               region=f"r{p}")
    )
    nested_rows.append(
        {"id": f"region_{p}", "children": [{"id": c.id, "path": str(c.path)} for c in children]}
    )
path = tacotoolbox.create(collection, Samples(samples=parents), out / "nested.taco", nworkers=1,
                          quiet=True)
record("nested.taco", [path], nested_rows)

# 3. deep.tortilla: a tortilla of tortillas of tortillas (two FOLDER levels above the files).
deep_rows = []
sites = []
for s in range(2):
    sensors = []
    site_children = []
    for k in range(2):
        files = named(["red", "nir"], 2 * s + k)
        t = pytortilla.create(Samples(samples=files), out / "parts" / f"site{s}_sensor{k}.tortilla",
                              nworkers=1, quiet=True)
        sensors.append(Sample(id=f"sensor_{k}", path=t, file_format="TORTILLA"))
        site_children.append(
            {"id": f"sensor_{k}", "children": [{"id": f.id, "path": str(f.path)} for f in files]}
        )
    t = pytortilla.create(Samples(samples=sensors), out / "parts" / f"site{s}.tortilla",
                          nworkers=1, quiet=True)
    sites.append(Sample(id=f"site_{s}", path=t, file_format="TORTILLA"))
    deep_rows.append({"id": f"site_{s}", "children": site_children})
path = pytortilla.create(Samples(samples=sites), out / "deep.tortilla", nworkers=1, quiet=True)
record("deep.tortilla", [path], deep_rows)

# 4. irregular.taco: nested tortillas whose children differ (v1 allows it, TACO 2.0 does not).
irregular = []
for p in range(2):
    children = tiles(f"band_", 2, first=2 * p, split=False)
    inner = pytortilla.create(
        Samples(samples=children), out / "parts" / f"irr_{p}.tortilla", nworkers=1, quiet=True
    )
    irregular.append(Sample(id=f"group_{p}", path=inner, file_format="TORTILLA"))
path = tacotoolbox.create(collection, Samples(samples=irregular), out / "irregular.taco",
                          nworkers=1, quiet=True)
record("irregular.taco", [path], [])

# 5. multi.taco: chunk_size small enough that the writer splits it into parts.
multi = tiles("tile_", 6)
paths = tacotoolbox.create(collection, Samples(samples=multi), out / "multi.taco", nworkers=1,
                           chunk_size="1KB", quiet=True)
record("multi.taco", paths if isinstance(paths, list) else [paths],
       [{"id": s.id, "path": str(s.path)} for s in multi])

# 6. split.taco: nested.taco's tree split into parts (one ~10 KB nested tortilla per part).
split_parents = []
for p in range(3):
    inner = pytortilla.create(Samples(samples=named(["lr", "hr"], 2 * p)),
                              out / "parts" / f"split_{p}.tortilla", nworkers=1, quiet=True)
    split_parents.append(Sample(id=f"region_{p}", path=inner, file_format="TORTILLA"))
paths = tacotoolbox.create(collection, Samples(samples=split_parents), out / "split.taco",
                           nworkers=1, chunk_size="11KB", quiet=True)
record("split.taco", paths if isinstance(paths, list) else [paths],
       [{"id": f"region_{p}", "children": [{"id": k, "path": str(src / f"tile_{(2 * p + i) % 6}.tif")}
                                           for i, k in enumerate(["lr", "hr"])]}
        for p in range(3)])

# 7. big.tortilla: three 1 MiB BYTES samples, for remote reads that must fetch ranges only.
big = [Sample(id=f"big_{i}", path=src / f"big_{i}.bin", file_format="BYTES") for i in range(3)]
path = pytortilla.create(Samples(samples=big), out / "big.tortilla", nworkers=1, quiet=True)
record("big.tortilla", [path], [{"id": s.id, "path": str(s.path)} for s in big])

print(json.dumps(manifest))
