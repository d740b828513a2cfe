#!/usr/bin/env python3
"""The reference side of the reader benchmark (bench/tools/bench_reader.cpp `suite`): the same
operations with tacoreader (PyPI) on the same ZIP, each timed inside a fresh Python process.

    .venv/bin/python bench/bench_reader_reference.py ZIP [--runs 3]

Prints one JSON object:
    load_seconds            tacoreader.load(ZIP)                       (median of --runs processes)
    load_plus_data_seconds  tacoreader.load(ZIP).data                  (median; _min: the best run)
    *_cpu_seconds           the same in CPU time (user + system, all threads)
    load_peak_rss_bytes     peak RSS of a process that only loads      (includes the interpreter)
    read_position_us        TacoDataFrame.read(i), random i            (per call)
    read_id_us              TacoDataFrame.read(id), random id          (per call; few calls: slow)
    read_bytes_us           GDAL VSIFOpenL/VSIFReadL of read(i)'s path (per sample; tacoreader
                            returns paths only, this is how its users get bytes)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, random, resource, sys, time
sys.path.insert(0, sys.argv[3])
import common
common.offline_duckdb()  # as the harness: no 0.55 s wait for INSTALL spatial in every load()
import tacoreader
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
mode, path = sys.argv[1], sys.argv[2]
c = cpu()
t = time.perf_counter()
ds = tacoreader.load(path)
out = {"load": time.perf_counter() - t, "load_cpu": cpu() - c}
if mode != "open":
    c = cpu()
    t = time.perf_counter()
    tdf = ds.data
    out["data"] = time.perf_counter() - t
    out["data_cpu"] = cpu() - c
if mode == "ops":
    n = len(tdf)
    rng = random.Random(7)
    ids = tdf.to_arrow().column("id").to_pylist()
    pos = [rng.randrange(n) for _ in range(2000)]
    t = time.perf_counter()
    paths = [tdf.read(p) for p in pos]
    out["read_position_us"] = (time.perf_counter() - t) * 1e6 / len(pos)
    few = [ids[rng.randrange(n)] for _ in range(5)]
    t = time.perf_counter()
    for k in few:
        tdf.read(k)
    out["read_id_us"] = (time.perf_counter() - t) * 1e6 / len(few)
    from osgeo import gdal
    t = time.perf_counter()
    total = 0
    for p in paths:
        f = gdal.VSIFOpenL(p, "rb")
        gdal.VSIFSeekL(f, 0, 2)
        size = gdal.VSIFTellL(f)
        gdal.VSIFSeekL(f, 0, 0)
        total += len(gdal.VSIFReadL(1, size, f))
        gdal.VSIFCloseL(f)
    out["read_bytes_us"] = (time.perf_counter() - t) * 1e6 / len(paths)
out["peak_rss_bytes"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps(out))
"""


def child(mode: str, path: str) -> dict:
    bench_dir = os.path.dirname(os.path.abspath(__file__))
    proc = subprocess.run([sys.executable, "-c", CHILD, mode, path, bench_dir], capture_output=True, text=True,
                          check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("zip")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    opens = [child("open", a.zip) for _ in range(a.runs)]
    loads = [child("data", a.zip) for _ in range(a.runs)]
    ops = child("ops", a.zip)
    print(json.dumps({
        "load_seconds": statistics.median(r["load"] for r in opens),
        "load_cpu_seconds": statistics.median(r["load_cpu"] for r in opens),
        "load_plus_data_seconds": statistics.median(r["load"] + r["data"] for r in loads),
        "load_plus_data_seconds_min": min(r["load"] + r["data"] for r in loads),
        "load_plus_data_cpu_seconds": statistics.median(r["load_cpu"] + r["data_cpu"] for r in loads),
        "load_peak_rss_bytes": max(r["peak_rss_bytes"] for r in opens),
        "load_plus_data_peak_rss_bytes": max(r["peak_rss_bytes"] for r in loads),
        "read_position_us": ops["read_position_us"],
        "read_id_us": ops["read_id_us"],
        "read_bytes_us": ops["read_bytes_us"],
    }, indent=1))


if __name__ == "__main__":
    main()
