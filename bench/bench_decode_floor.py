#!/usr/bin/env python3
"""The floor of the GeoTIFF decode rows (issue 15): GDAL alone decoding the same files from plain
files, next to the reference and tacocore decoding them out of the ZIP, 1 and 2 threads.

    .venv/bin/python bench/bench_decode_floor.py [--profile quick] [--runs 5] [--report]

Every measurement is a fresh process (the decode_t1/decode_t2 fixture of bench/run.py, made
first if missing), timed around the decode loop only, reporting wall and CPU seconds (user +
system of every thread): on a shared machine the CPU seconds are what contention does not
inflate. Each loop decodes each raster into a buffer it then drops (numpy sum as the check),
one at a time per thread, as the harness's decode rows do:
  floor         osgeo.gdal.Open(plain .tif) + ReadRaster   (no container, no reader)
  reference     tacoreader df.read(i) + gdal.Open + ReadRaster
  tacocore C++  build/bin/bench_reader decode  (read(i) + raster::decode_reusing)
  tacocore Py   df.read_array(i) (1 thread) / df.iter_arrays(keys, threads=2)
With --report, rewrites the marked "Decode floor" section of docs/PERFORMANCE.md (bench/run.py
keeps it when it regenerates the file).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common  # noqa: E402

BEGIN, END = "<!-- decode-floor:begin -->", "<!-- decode-floor:end -->"
BIN = os.environ.get("TACOCORE_BIN_DIR", os.path.join(common.REPO, "build", "bin"))

LOOP = r'''
import json, os, resource, sys, time
sys.path.insert(0, sys.argv[1])
import common
impl, data_dir, threads = sys.argv[2], sys.argv[3], int(sys.argv[4])
import numpy as np
from osgeo import gdal
gdal.UseExceptions()
keys = [int(k) for k in open(sys.argv[5]).read().split()]
n = json.load(open(os.path.join(data_dir, "manifest.json")))["root_samples"]
if impl == "reference":
    common.offline_duckdb()
    import tacoreader
    df = tacoreader.load(os.path.join(data_dir, "reference.tacozip")).data
elif impl == "tacocore-py":
    import tacocore
    df = tacocore.load(os.path.join(data_dir, "reference.tacozip")).data
    df.read_array(keys[0])  # GDAL's drivers registered, as `from osgeo import gdal` did for the others

def gdal_sum(path):
    g = gdal.Open(path)
    return int(np.frombuffer(g.ReadRaster(), np.uint16).sum(dtype=np.uint64))

if impl == "floor":
    work = lambda k: gdal_sum(os.path.join(data_dir, "input", common.root_name(k, n)))
elif impl == "reference":
    work = lambda k: gdal_sum(df.read(k))
else:
    work = lambda k: int(df.read_array(k).sum(dtype=np.uint64))
cpu = lambda: sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
c0, t0 = cpu(), time.perf_counter()
if impl == "tacocore-py" and threads > 1:
    # One array at a time, as the other tools' loops and the main bench's decode_t2 row: a
    # read_arrays() list holds every array at once, each in fresh pages (READER.md §10.1).
    sums = [int(a.sum(dtype=np.uint64)) for a in df.iter_arrays(keys, threads=threads)]
elif threads > 1:
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(threads) as pool:
        sums = list(pool.map(work, keys))
else:
    sums = [work(k) for k in keys]
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu_seconds": cpu() - c0, "sums": sums}))
'''


def run_once(impl: str, case: common.Case, threads: int) -> dict:
    keys = common.keys_file(case)
    if impl == "tacocore":
        out = os.path.join(common.OUT, "decode-floor.txt")
        r = subprocess.run([os.path.join(BIN, "bench_reader"), "decode", common.fixture_path(case),
                            "--keys", keys, "--out", out, "--threads", str(threads)],
                           capture_output=True, text=True, check=True)
        res = json.loads(r.stdout.strip().splitlines()[-1])
        res["sums"] = [int(x) for x in common.read_lines(out)]
        return res
    r = subprocess.run([common.PY, "-c", LOOP, HERE, impl, case.data_dir, str(threads), keys],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{impl}: {r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="quick", choices=common.PROFILES)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--report", action="store_true")
    a = ap.parse_args()
    common.set_out(a.out)
    case = next(c for c in common.cases(a.profile) if c.name == "decode_t1")
    common.ensure_fixture(case)
    m = common.manifest(case)
    want = [m["pixel_sums"][common.root_name(int(k), m["root_samples"])]
            for k in common.read_lines(common.keys_file(case))]
    load = [os.getloadavg()[0]]
    result = {"samples": case.keys, "runs": a.runs, "rows": {}}
    for threads in (1, 2):
        for impl in ("floor", "reference", "tacocore", "tacocore-py"):
            walls, cpus = [], []
            for _ in range(a.runs):
                r = run_once(impl, case, threads)
                assert r["sums"] == want, f"{impl}: wrong pixel sums"
                walls.append(r["seconds"])
                cpus.append(r["cpu_seconds"])
            result["rows"][f"{impl}_t{threads}"] = {
                "wall": statistics.median(walls), "cpu": statistics.median(cpus),
                "wall_min_max": [min(walls), max(walls)], "cpu_min_max": [min(cpus), max(cpus)]}
    load.append(os.getloadavg()[0])
    result["load_average"] = [round(x, 2) for x in load]
    result["cores"] = os.cpu_count()
    print(json.dumps(result, indent=1))
    if a.report:
        write_report(result, a)


def write_report(r: dict, a) -> None:
    rows = r["rows"]
    busy = max(r["load_average"]) > (r["cores"] or 1)
    names = {"floor": "GDAL alone, plain .tif files (the floor)", "reference": "reference: tacoreader + GDAL",
             "tacocore": "tacocore C++ (bench_reader decode)", "tacocore-py": "tacocore Python (read_array / iter_arrays)"}
    body = [BEGIN, "## Decode floor (issue 15; bench/bench_decode_floor.py)", "",
            f"Written by `.venv/bin/python bench/bench_decode_floor.py --profile {a.profile} --runs {a.runs} "
            f"--report` on {time.strftime('%Y-%m-%d')}: {r['samples']} GeoTIFFs 4 × 256 × 256 uint16 (ZSTD), "
            f"medians of {a.runs} fresh processes (min–max), load average {r['load_average'][0]}–"
            f"{r['load_average'][1]} on {r['cores']} cores"
            + (" — **the machine was busy** (other engineers compiling on the same cores): wall "
               "times are inflated by waiting for a core; compare the CPU seconds, and re-run on an "
               "idle machine before quoting wall times." if busy else "."), "",
            "| decoder | threads | wall s | CPU s | CPU vs floor |", "|---|---:|---:|---:|---:|"]
    for threads in (1, 2):
        floor = rows[f"floor_t{threads}"]["cpu"]
        for impl in ("floor", "reference", "tacocore", "tacocore-py"):
            x = rows[f"{impl}_t{threads}"]
            body.append(f"| {names[impl]} | {threads} | {x['wall']:.3f} ({x['wall_min_max'][0]:.3f}–"
                        f"{x['wall_min_max'][1]:.3f}) | {x['cpu']:.4f} ({x['cpu_min_max'][0]:.4f}–"
                        f"{x['cpu_min_max'][1]:.4f}) | {x['cpu'] / floor:.2f}× |")
    body += ["", "Where the time goes: docs/READER.md §10. The Python 2-thread row is `iter_arrays` "
             "(one array at a time, like every other row's loop). `read_arrays` returns every array "
             "at once, each in fresh pages: on this VM a first-touched 4 KiB page costs ~1.3 µs "
             "(MAP_POPULATE saves little, transparent huge pages cost more), ~17 ms of CPU per "
             "100 of these rasters.", END]
    path = os.path.join(common.REPO, "docs", "PERFORMANCE.md")
    text = open(path).read() if os.path.exists(path) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(body) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
