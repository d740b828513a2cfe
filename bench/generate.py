#!/usr/bin/env python3
"""Seeded, deterministic input generator for the tacocore benchmarks.

Writes, under --out DIR:
  DIR/input/<tree>       the samples: regular files, and one sub-directory per FOLDER sample.
                         Every folder at a level holds the same child names (a PIT-regular tree).
  DIR/metadata.parquet   one row per sample (every level, files and folders), keyed by `path`
                         (relative to DIR/input, '/'-separated), plus K typed extension columns.
  DIR/metadata.csv       the same table as CSV (only with --csv).
  DIR/manifest.json      the parameters and what was generated (counts, bytes, checksums).

Both tools read exactly these files, so their inputs are identical. The same arguments give the
same bytes on every run (numpy PCG64 streams; GDAL writes no timestamps into the GeoTIFFs).

Examples:
  generate.py --out /tmp/g --samples 10000 --size-dist fixed:4KiB
  generate.py --out /tmp/g --samples 200 --size-dist fixed:8MiB
  generate.py --out /tmp/g --samples 100 --depth 3 --fanout 4 --size-dist uniform:1KiB:64KiB --columns 5
  generate.py --out /tmp/g --samples 1000 --geotiff
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import zlib

import numpy as np

UNITS = {"": 1, "B": 1, "K": 1024, "KB": 1024, "KIB": 1024, "M": 1 << 20, "MB": 1 << 20,
         "MIB": 1 << 20, "G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30}
COLUMN_TYPES = ("int", "float", "str", "bool", "ts")   # int64, double, string, bool, timestamp[us]
TS_BASE_US = 1_577_836_800 * 1_000_000                # 2020-01-01T00:00:00Z
TS_SPAN_US = 5 * 365 * 86400 * 1_000_000
GEOTIFF_SHAPE = (4, 256, 256)          # bands, rows, cols; uint16; ZSTD; 128x128 tiles


def parse_size(text: str) -> int:
    t = text.strip().upper()
    num = t.rstrip("KMGIB")
    return int(float(num) * UNITS[t[len(num):]])


def parse_dist(text: str) -> tuple[str, int, int]:
    parts = text.split(":")
    if parts[0] == "fixed" and len(parts) == 2:
        n = parse_size(parts[1])
        return ("fixed", n, n)
    if parts[0] == "uniform" and len(parts) == 3:
        return ("uniform", parse_size(parts[1]), parse_size(parts[2]))
    raise SystemExit(f"bad --size-dist {text!r}: use fixed:SIZE or uniform:LO:HI")


def column_names(k: int) -> list[str]:
    return [f"{COLUMN_TYPES[i % len(COLUMN_TYPES)]}_{i}" for i in range(k)]


def root_name(i: int, n: int) -> str:
    return f"s{i:0{max(len(str(n - 1)), 1)}d}"


def child_name(j: int, fanout: int) -> str:
    return f"c{j:0{max(len(str(fanout - 1)), 1)}d}"


def tree_paths(n: int, depth: int, fanout: int) -> tuple[list[str], list[bool]]:
    """All sample paths in depth-first order (a FOLDER before its children) and is-folder flags."""
    kids = [child_name(j, fanout) for j in range(fanout)]
    paths: list[str] = []
    folder: list[bool] = []

    def walk(prefix: str, level: int) -> None:
        for name in kids:
            p = f"{prefix}/{name}"
            paths.append(p)
            folder.append(level < depth - 1)
            if level < depth - 1:
                walk(p, level + 1)

    for i in range(n):
        p = root_name(i, n)
        paths.append(p)
        folder.append(depth > 1)
        if depth > 1:
            walk(p, 1)
    return paths, folder


def metadata_table(paths: list[str], k: int, rng: np.random.Generator):
    import pyarrow as pa
    n = len(paths)
    cols = {"path": pa.array(paths, pa.string())}
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    for name in column_names(k):
        kind = name.split("_")[0]
        if kind == "int":
            cols[name] = pa.array(rng.integers(0, 10_000, n, dtype=np.int64))
        elif kind == "float":
            cols[name] = pa.array(rng.random(n))
        elif kind == "str":
            # "<letter>-<6 digits>": a LIKE 'k%' filter keeps ~1/26 of the rows.
            first = letters[rng.integers(0, 26, n)]
            num = rng.integers(0, 1_000_000, n)
            cols[name] = pa.array([f"{a}-{b:06d}" for a, b in zip(first.tolist(), num.tolist())],
                                  pa.string())
        elif kind == "bool":
            cols[name] = pa.array(rng.random(n) < 0.5)
        else:
            us = TS_BASE_US + rng.integers(0, TS_SPAN_US, n, dtype=np.int64)
            cols[name] = pa.array(us, pa.timestamp("us"))
    return pa.table(cols)


def write_geotiff(path: str, rng: np.random.Generator, index: int) -> int:
    """A 256x256x4 uint16 ZSTD-tiled GeoTIFF; returns the sum of all pixel values."""
    from osgeo import gdal, osr
    gdal.UseExceptions()
    b, h, w = GEOTIFF_SHAPE
    yy, xx = np.mgrid[0:h, 0:w]
    base = (xx * 7 + yy * 3 + index * 11) % 4096                     # compressible structure
    data = (base[None, :, :] + rng.integers(0, 256, (b, h, w))).astype(np.uint16)
    drv = gdal.GetDriverByName("GTiff")
    ds = drv.Create(path, w, h, b, gdal.GDT_UInt16,
                    ["TILED=YES", "BLOCKXSIZE=128", "BLOCKYSIZE=128", "COMPRESS=ZSTD",
                     "INTERLEAVE=BAND"])
    col, row = index % 1000, index // 1000
    ds.SetGeoTransform([500000.0 + col * 2560.0, 10.0, 0.0, 4500000.0 - row * 2560.0, 0.0, -10.0])
    srs = osr.SpatialReference()
    srs.ImportFromEPSG(32630)
    ds.SetProjection(srs.ExportToWkt())
    # WriteRaster with a raw buffer: the venv's GDAL bindings are built without gdal_array.
    ds.WriteRaster(0, 0, w, h, data.tobytes(), buf_type=gdal.GDT_UInt16, band_list=list(range(1, b + 1)))
    ds = None
    return int(data.sum(dtype=np.uint64))


def generate(out: str, samples: int, dist: str, depth: int, fanout: int, columns: int,
             geotiff: bool, seed: int, csv: bool, files: bool = True) -> dict:
    if samples < 1 or not 1 <= depth <= 4 or (depth > 1 and fanout < 1):
        raise SystemExit("need --samples >= 1, 1 <= --depth <= 4, --fanout >= 1")
    kind, lo, hi = parse_dist(dist)
    if not files and (depth != 1 or geotiff or hi != 0):
        raise SystemExit("--no-files is for flat zero-byte samples (--depth 1 --size-dist fixed:0)")
    root = os.path.join(out, "input")
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(root)
    paths, is_folder = tree_paths(samples, depth, fanout)
    rng_meta = np.random.default_rng([seed, 1])
    rng_size = np.random.default_rng([seed, 2])
    rng_data = np.random.default_rng([seed, 3])
    leaves = [p for p, f in zip(paths, is_folder) if not f]
    if kind == "fixed":
        sizes = np.full(len(leaves), lo, dtype=np.int64)
    else:
        sizes = rng_size.integers(lo, hi + 1, len(leaves), dtype=np.int64)
    for p, f in zip(paths, is_folder):
        if f:
            os.mkdir(os.path.join(root, p))
    total = 0
    crc: dict[str, int] = {}
    sums: dict[str, int] = {}
    zero = b""
    for i, (p, size) in enumerate(zip(leaves if files else [], sizes.tolist())):
        full = os.path.join(root, p)
        if geotiff:
            sums[p] = write_geotiff(full, rng_data, i)
            size = os.path.getsize(full)
        else:
            data = rng_data.bytes(size) if size else zero
            with open(full, "wb") as fh:
                fh.write(data)
            if len(leaves) <= 20_000:
                crc[p] = zlib.crc32(data)
        total += size
    table = metadata_table(paths, columns, rng_meta)
    import pyarrow.parquet as pq
    pq.write_table(table, os.path.join(out, "metadata.parquet"), compression="zstd")
    if csv:
        import pyarrow.csv as pacsv
        pacsv.write_csv(table, os.path.join(out, "metadata.csv"))
    params = {"samples": samples, "size_dist": dist, "depth": depth, "fanout": fanout,
              "columns": columns, "geotiff": geotiff, "seed": seed}
    if not files:
        params["files"] = False
    manifest = {
        "params": params,
        "root_samples": samples,
        "total_samples": len(paths),
        "leaf_samples": len(leaves),
        "leaf_bytes": total,
        "columns": column_names(columns),
        "input": "input",
        "metadata": "metadata.parquet",
        "crc32": crc,                   # leaf path -> CRC-32 of its bytes (<= 20,000 leaves)
        "pixel_sums": sums,             # GeoTIFF leaf path -> sum of all pixel values
    }
    with open(os.path.join(out, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1, sort_keys=True)
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="output directory (replaced if it exists)")
    ap.add_argument("--samples", type=int, required=True, help="number of level-0 samples")
    ap.add_argument("--size-dist", default="fixed:4KiB", help="fixed:SIZE | uniform:LO:HI (leaf sizes)")
    ap.add_argument("--depth", type=int, default=1, help="levels, 1..4 (1 = flat FILE samples)")
    ap.add_argument("--fanout", type=int, default=2, help="children per FOLDER sample")
    ap.add_argument("--columns", type=int, default=0, help="extension metadata columns")
    ap.add_argument("--geotiff", action="store_true", help="leaves are 256x256x4 uint16 ZSTD GeoTIFFs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--csv", action="store_true", help="also write metadata.csv")
    ap.add_argument("--no-files", action="store_true",
                    help="only the metadata table: no input tree (flat zero-byte samples; the "
                         "1M-row read fixtures, where a million empty files would only cost time)")
    a = ap.parse_args(argv)
    m = generate(a.out, a.samples, a.size_dist, a.depth, a.fanout, a.columns, a.geotiff, a.seed,
                 a.csv, files=not a.no_files)
    print(json.dumps({k: m[k] for k in ("root_samples", "total_samples", "leaf_samples", "leaf_bytes")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
