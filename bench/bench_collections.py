#!/usr/bin/env python3
"""Collections, tacocore against the reference (issue 12), each measurement in a fresh process.

    .venv/bin/python bench/bench_collections.py [--quick] [--runs N] [--out DIR] [--report]

1. create: N_FILES x 4 KiB files split into 10 parts (split_size = total / 10) with their
   .tacocat/ index: tacocore.create vs tacotoolbox.create (both from Python, same files).
2. load + data() of a .tacocat over 10 parts x ROWS rows: tacocore vs tacoreader (the parts and
   index are written once by tacocore, cached under --out).
3. read(id) into the last part of the collection vs the same read in one single-file dataset
   of the same rows (tacocore, median of 200 reads of bytes after load).

Prints one JSON object; with --report, rewrites the marked "Collections" section of
docs/PERFORMANCE.md (bench/run.py keeps that section when it regenerates the file).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
PY = sys.executable
BEGIN, END = "<!-- collections:begin -->", "<!-- collections:end -->"


def child(code: str, *args: str) -> dict:
    """Runs `code` in a fresh interpreter; it prints one JSON object last."""
    out = subprocess.run([PY, "-c", code, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


CREATE_CODE = r'''
import json, sys, time, pathlib
tool, src, out, split = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3], sys.argv[4]
files = sorted(src.iterdir())
if tool == "tacocore":
    import tacocore as m
    from tacocore import Sample, Tortilla, Taco
else:
    import tacotoolbox as m
    from tacotoolbox.datamodel import Sample, Tortilla, Taco
t0 = time.perf_counter()
samples = [Sample(id=f.stem, path=f) for f in files]
taco = Taco(tortilla=Tortilla(samples=samples), id="bench", dataset_version="1.0.0",
            description="bench", licenses=["CC-BY-4.0"], providers=[{"name": "bench"}],
            tasks=["other"])
if tool == "tacocore":
    parts = m.create(taco, out, split_size=split)
else:
    from tacotoolbox import create
    parts = create(taco, out, split_size=split)
print(json.dumps({"seconds": time.perf_counter() - t0, "parts": len(parts)}))
'''

LOAD_CODE = r'''
import json, sys, time
tool, path = sys.argv[1], sys.argv[2]
if tool == "tacocore":
    import pyarrow  # imported by `import tacoreader` too; tacocore imports it on first to_arrow()
    import tacocore as m
    t0 = time.perf_counter()
    ds = m.load(path)
    rows = ds.data.to_arrow().num_rows
else:
    import tacoreader as m
    t0 = time.perf_counter()
    ds = m.load(path)
    rows = ds.data._data.num_rows
print(json.dumps({"seconds": time.perf_counter() - t0, "rows": rows}))
'''

READ_CODE = r'''
import json, sys, time, random, statistics
import tacocore
path, ids = sys.argv[1], sys.argv[2].split(",")
frame = tacocore.load(path).data
frame.read_bytes(ids[0])
times = []
for _ in range(200):
    for i in ids:
        t0 = time.perf_counter()
        frame.read_bytes(i)
        times.append(time.perf_counter() - t0)
print(json.dumps({"seconds": statistics.median(times)}))
'''

BUILD_CODE = r'''
import json, sys, pathlib, time
import tacocore
out, parts, rows = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t0 = time.perf_counter()
paths = []
for k in range(parts):
    samples = [tacocore.Sample(id=f"p{k:02d}_{i:07d}", path=b"x") for i in range(rows)]
    taco = tacocore.Taco(tortilla=tacocore.Tortilla(samples=samples), id="bench",
                         dataset_version="1.0.0", description="bench", licenses=["CC-BY-4.0"],
                         providers=[{"name": "bench"}], tasks=["other"])
    paths += tacocore.create(taco, out / f"cat_part{k + 1:04d}.tacozip")
tacocore.create_tacocat(paths, out)
samples = [tacocore.Sample(id=f"p{k:02d}_{i:07d}", path=b"x") for k in range(parts) for i in range(rows)]
taco = tacocore.Taco(tortilla=tacocore.Tortilla(samples=samples), id="bench", dataset_version="1.0.0",
                     description="bench", licenses=["CC-BY-4.0"], providers=[{"name": "bench"}],
                     tasks=["other"])
tacocore.create(taco, out / "single" / "single.tacozip")
print(json.dumps({"seconds": time.perf_counter() - t0}))
'''


def median_runs(fn, runs: int) -> list[float]:
    return [fn() for _ in range(runs)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="1,000 files to create, 10 x 10,000 rows to load")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(REPO, "build", "bench-collections"))
    ap.add_argument("--report", action="store_true", help="rewrite the Collections section of docs/PERFORMANCE.md")
    a = ap.parse_args()
    n_files = 1000 if a.quick else 10000
    rows = 10000 if a.quick else 100000
    os.makedirs(a.out, exist_ok=True)
    load_before = os.getloadavg()[0]
    result: dict = {"files": n_files, "rows_per_part": rows, "parts": 10, "runs": a.runs}

    # 1. create
    src = os.path.join(a.out, f"src-{n_files}")
    if not os.path.isdir(src):
        os.makedirs(src)
        for i in range(n_files):
            with open(os.path.join(src, f"f{i:05d}.bin"), "wb") as f:
                f.write(os.urandom(4096))
    split = f"{n_files * 4096 // 10}B"
    times: dict = {"tacocore": [], "tacotoolbox": []}
    for _ in range(a.runs):
        for tool in times:
            out_dir = os.path.join(a.out, f"create-{tool}")
            shutil.rmtree(out_dir, ignore_errors=True)
            r = child(CREATE_CODE, tool, src, os.path.join(out_dir, "ds.tacozip"), split)
            assert r["parts"] == 10, r
            times[tool].append(r["seconds"])
    result["create"] = {k: statistics.median(v) for k, v in times.items()}
    result["create"]["ratio"] = result["create"]["tacotoolbox"] / result["create"]["tacocore"]

    # 2. load + data()
    cat = os.path.join(a.out, f"cat-{rows}")
    if not os.path.isdir(os.path.join(cat, ".tacocat")):
        shutil.rmtree(cat, ignore_errors=True)
        os.makedirs(cat)
        child(BUILD_CODE, cat, "10", str(rows))
    times = {"tacocore": [], "tacoreader": []}
    for _ in range(a.runs):
        for tool in times:
            r = child(LOAD_CODE, tool, os.path.join(cat, ".tacocat"))
            assert r["rows"] == 10 * rows, r
            times[tool].append(r["seconds"])
    result["load_data"] = {k: statistics.median(v) for k, v in times.items()}
    result["load_data"]["ratio"] = result["load_data"]["tacoreader"] / result["load_data"]["tacocore"]

    # 3. read(id) into the parts vs one file
    ids = ",".join(f"p{k:02d}_{rows // 2:07d}" for k in (0, 5, 9))
    coll = child(READ_CODE, cat, ids)["seconds"]
    single = child(READ_CODE, os.path.join(cat, "single", "single.tacozip"), ids)["seconds"]
    result["read"] = {"collection": coll, "single": single, "ratio": coll / single}
    result["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    print(json.dumps(result, indent=1))
    if a.report:
        write_report(result, a)


def write_report(r: dict, a) -> None:
    path = os.path.join(REPO, "docs", "PERFORMANCE.md")
    c, l, rd = r["create"], r["load_data"], r["read"]
    body = [BEGIN, "## Collections (issue 12; bench/bench_collections.py)", "",
            f"Written by `.venv/bin/python bench/bench_collections.py{' --quick' if a.quick else ''} "
            f"--runs {a.runs} --report` on {time.strftime('%Y-%m-%d')}; medians of fresh processes, "
            f"load average {r['load_average'][0]}–{r['load_average'][1]} on {os.cpu_count()} cores"
            + (" (the machine was busy: treat the ratios as indicative)."
               if max(r["load_average"]) > 1.0 else " (an idle machine)."), "",
            "| scenario | tacocore s | reference s | reference / tacocore | target |",
            "|---|---:|---:|---:|---|",
            f"| create {r['files']:,} × 4 KiB files in 10 parts + .tacocat (Python API) | "
            f"{c['tacocore']:.3f} | {c['tacotoolbox']:.3f} (tacotoolbox) | {c['ratio']:.1f}× | ≥ 10× |",
            f"| load + data() of .tacocat, 10 parts × {r['rows_per_part']:,} rows (Python API) | "
            f"{l['tacocore']:.3f} | {l['tacoreader']:.3f} (tacoreader) | {l['ratio']:.1f}× | ≥ 5× |",
            "", "| read_bytes(id) after load (tacocore) | collection | one file | collection / one file | target |",
            "|---|---:|---:|---:|---|",
            f"| 3 ids in parts 1, 6, 10; median of 600 reads | {rd['collection'] * 1e6:.1f} µs | "
            f"{rd['single'] * 1e6:.1f} µs | {rd['ratio']:.2f} | ≤ 2 |", "", END]
    text = open(path).read() if os.path.exists(path) else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(body) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(body) + "\n"
    open(path, "w").write(text)


if __name__ == "__main__":
    main()
