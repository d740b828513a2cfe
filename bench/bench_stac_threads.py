#!/usr/bin/env python3
"""`taco create --from DIR --stac` on 1 and 2 threads (issue 14: --stac opens the rasters on the
same thread pool as --stats), each run in a fresh process.

    .venv/bin/python bench/bench_stac_threads.py [--files N] [--runs R] [--out DIR]

Input: N (default 1,000) georeferenced GeoTIFFs of 3 x 64 x 64 bytes (EPSG:32633), written once
with GDAL under --out. Measured R times each, alternating: the same create without --stac (the
baseline), and with --stac --threads 1 and --threads 2. For each: the median wall time and the
median CPU time (user + system of the child, from getrusage), with the load average before and
after, since the machine may be shared. The --stac cost is (time - baseline); on a busy machine
the CPU times carry the comparison: 2 x CPU(--stac cost, 1 thread) / wall(--stac cost, 2 threads)
is only meaningful when two cores are free. The issue sets no floor for this; it prints one JSON
object and writes nothing else.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TACO = os.path.join(REPO, "build", "bin", "taco")

MAKE = r'''
import sys
from osgeo import gdal, osr
gdal.UseExceptions()
n, out = int(sys.argv[1]), sys.argv[2]
srs = osr.SpatialReference(); srs.ImportFromEPSG(32633); wkt = srs.ExportToWkt()
drv = gdal.GetDriverByName("GTiff")
for i in range(n):
    ds = drv.Create(f"{out}/t{i:05d}.tif", 64, 64, 3, gdal.GDT_Byte)
    ds.SetGeoTransform((500000.0 + 640.0 * i, 10.0, 0.0, 4500000.0, 0.0, -10.0))
    ds.SetProjection(wkt)
    ds = None
'''


def run_once(args: list, out_dir: str) -> dict:
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([TACO, "create", *args, os.path.join(out_dir, "out.tacozip"), "-q"], check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=1000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--out", default=None, help="work directory (default: a temporary one)")
    a = p.parse_args()
    if not os.path.isfile(TACO):
        print(f"{TACO} is not built", file=sys.stderr)
        return 2
    work = a.out or tempfile.mkdtemp(prefix="bench_stac_")
    src = os.path.join(work, "src")
    if not os.path.isdir(src) or len(os.listdir(src)) != a.files:
        shutil.rmtree(src, ignore_errors=True)
        os.makedirs(src)
        subprocess.run([sys.executable, "-c", MAKE, str(a.files), src], check=True)
    cases = {"baseline": ["--from", src], "stac_1_thread": ["--from", src, "--stac", "--threads", "1"],
             "stac_2_threads": ["--from", src, "--stac", "--threads", "2"]}
    load_before = os.getloadavg()
    results = {name: [] for name in cases}
    for _ in range(a.runs):
        for name, args in cases.items():
            results[name].append(run_once(args, os.path.join(work, "out")))
    load_after = os.getloadavg()
    med = {name: {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu")}
           for name, runs in results.items()}
    cost = {n: {k: med[n][k] - med["baseline"][k] for k in ("wall", "cpu")} for n in ("stac_1_thread", "stac_2_threads")}
    report = {
        "files": a.files, "runs": a.runs, "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in load_after],
        "median": med, "stac_cost": cost,
        "wall_speedup_1_to_2_threads": cost["stac_1_thread"]["wall"] / cost["stac_2_threads"]["wall"]
        if cost["stac_2_threads"]["wall"] > 0 else None,
    }
    print(json.dumps(report, indent=1))
    if not a.out:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
