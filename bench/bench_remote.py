#!/usr/bin/env python3
"""Remote reading, tacocore vs tacoreader, on the same loopback nginx over HTTPS (throw-away CA:
tacoreader's obstore refuses plain http). Every measurement is a fresh process; requests and bytes
come from nginx's access log. Writes its section of docs/PERFORMANCE.md (between the markers
`<!-- remote-benchmark:begin -->` / `<!-- remote-benchmark:end -->`, which bench/run.py keeps) and
the raw numbers to <out>/bench-remote.json.

    .venv/bin/python bench/bench_remote.py [--samples 1000000] [--runs 3] [--out build/bench-remote]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests" / "remote"))
from servers import Nginx, make_ca  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "reference"
REPORT = REPO / "docs" / "PERFORMANCE.md"
BEGIN, END = "<!-- remote-benchmark:begin -->", "<!-- remote-benchmark:end -->"

# One operation in a fresh process; prints {"seconds": ..., ...} as its last line.
RUNNER = r"""
import json, random, sys, time
tool, op, url = sys.argv[1:4]
if tool == "tacoreader":
    import duckdb
    _connect = duckdb.connect
    def _offline(*a, **k):
        db = _connect(*a, **k)
        db.execute("SET custom_extension_repository = '/nonexistent/tacocore-bench'")
        return db
    duckdb.connect = _offline
    import tacoreader as lib
    from osgeo import gdal
    gdal.UseExceptions()
    def frame(ds): return ds.data
    def read_bytes(df, i):
        vsi = df.read(i)
        f = gdal.VSIFOpenL(vsi, "rb"); gdal.VSIFSeekL(f, 0, 2); n = gdal.VSIFTellL(f)
        gdal.VSIFSeekL(f, 0, 0); b = gdal.VSIFReadL(1, n, f); gdal.VSIFCloseL(f)
        return b
else:
    import pyarrow  # noqa: F401  (tacoreader imports it with itself; tacocore when first needed)
    import tacocore as lib
    def frame(ds): return ds.data
    def read_bytes(df, i): return df.read_bytes(i)
t0 = time.perf_counter()
ds = lib.load(url)
out = {}
if op == "table":
    out["rows"] = frame(ds).to_arrow().num_rows
if op == "read_bytes":
    df = frame(ds)
    n = df.to_arrow().num_rows
    picks = random.Random(0).sample(range(n), min(1000, n))
    t0 = time.perf_counter()
    out["bytes"] = sum(len(read_bytes(df, i)) for i in picks)
    out["reads"] = len(picks)
out["seconds"] = time.perf_counter() - t0
print(json.dumps(out))
"""


def run_one(tool, op, url, env, srv):
    srv.clear()
    proc = subprocess.run([sys.executable, "-c", RUNNER, tool, op, url], capture_output=True,
                          text=True, env=env, timeout=1800)
    if proc.returncode != 0:
        raise SystemExit(f"{tool} {op} {url} failed:\n{proc.stderr[-3000:]}")
    import time
    time.sleep(0.1)
    reqs = srv.requests()
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["requests"] = len(reqs)
    res["heads"] = sum(r.method == "HEAD" for r in reqs)
    res["bytes_sent"] = sum(r.bytes_sent for r in reqs)
    return res


def measure(tool, op, url, env, srv, runs, warm=False, cache=None):
    """Median over `runs` fresh processes. tacocore: cold = cache emptied before each run."""
    out = []
    for _ in range(runs):
        if tool == "tacocore" and cache is not None:
            if not warm:
                shutil.rmtree(cache, ignore_errors=True)
            else:
                run_one(tool, "open", url, env, srv)  # fill it
        out.append(run_one(tool, op, url, env, srv))
    med = {k: statistics.median(r[k] for r in out) for k in out[0]}
    med["min_seconds"] = min(r["seconds"] for r in out)
    med["max_seconds"] = max(r["seconds"] for r in out)
    return med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=1_000_000, help="rows of the big level table")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=str(REPO / "build" / "bench-remote"))
    ap.add_argument("--no-report", action="store_true", help="do not touch docs/PERFORMANCE.md")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite the section from <out>/bench-remote.json without measuring")
    a = ap.parse_args()
    out = Path(a.out).resolve()
    if a.report_only:
        saved = json.loads((out / "bench-remote.json").read_text())
        write_section(saved["results"], a, saved["load"])
        return 0
    root = out / "served"
    root.mkdir(parents=True, exist_ok=True)
    writer = REPO / "build" / "bin" / "bench_writer"
    if not writer.is_file():
        raise SystemExit(f"{writer} is not built; run `make build`")
    shutil.copyfile(FIXTURES / "tacoreader/zip/nested/nested.tacozip", root / "nested.tacozip")
    shutil.copytree(FIXTURES / "tacoreader/folder/nested", root / "nested", dirs_exist_ok=True)
    big = root / f"rows{a.samples}.tacozip"
    if not big.exists():
        subprocess.run([str(writer), str(big), str(a.samples), "0"], check=True,
                       stdout=subprocess.DEVNULL)
    reads = root / "reads10000.tacozip"
    if not reads.exists():
        subprocess.run([str(writer), str(reads), "10000", "4096"], check=True,
                       stdout=subprocess.DEVNULL)
    for p in root.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    ca, leaf, key = make_ca(out / "ca")
    cache = out / "cache"
    env = dict(os.environ, SSL_CERT_FILE=str(ca), CURL_CA_BUNDLE=str(ca),
               TACOCORE_CACHE_DIR=str(cache))
    results = {}
    with Nginx(root, tls=(leaf, key)) as srv:
        cases = [
            ("open ZIP (nested fixture, 30 KB)", "open", "nested.tacozip"),
            ("open FOLDER (nested fixture, 2 level files)", "open", "nested"),
            (f"load + data() of a {a.samples:,}-row level table (ZIP, {big.stat().st_size / 1e6:.1f} MB)",
             "table", big.name),
            ("read_bytes of 1,000 random 4 KiB samples (10,000-sample ZIP)", "read_bytes", reads.name),
        ]
        for title, op, rel in cases:
            url = srv.url(rel)
            row = {"tacoreader": measure("tacoreader", op, url, env, srv, a.runs),
                   "tacocore cold cache": measure("tacocore", op, url, env, srv, a.runs, False, cache),
                   "tacocore warm cache": measure("tacocore", op, url, env, srv, a.runs, True, cache)}
            if op == "read_bytes":  # the open's own requests are not the reads'
                for tool, r in row.items():
                    base = measure(tool.split()[0], "open", url, env, srv, 1,
                                   tool.endswith("warm cache"), cache)
                    r["requests"] -= base["requests"]
                    r["bytes_sent"] -= base["bytes_sent"]
            results[title] = row
            print(title, json.dumps(row), flush=True)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    (out / "bench-remote.json").write_text(json.dumps({"results": results, "load": load}, indent=1))
    if not a.no_report:
        write_section(results, a, load)
    return 0


NOTES = """Reading the table:

- Opening a ZIP: tacocore's 3 requests are a HEAD (size, ETag, range support: what the cache and
  the If-Match of later reads rest on), the TACO_HEADER, and one merged range for the level tables
  and COLLECTION.json; tacoreader skips the HEAD. tacocore's header read is GDAL's 16 KiB block
  (hence the larger byte count on this 30 KB file); on the 100 MB archive both fetch ~0.5 MB. With a
  warm cache the open is the HEAD alone.
- Opening a FOLDER: tacocore GETs COLLECTION.json and each level table once; with a warm cache
  the open is one conditional GET of COLLECTION.json (`304 Not Modified`, no body), and the level
  tables are validated (one conditional GET each, sent together) before the first query reads
  them (not part of this row). tacoreader probes missing level files and fetches COLLECTION.json
  twice.
- `read_bytes`: both go through GDAL's /vsicurl/, which reads whole 16 KiB blocks: 1,000 random
  4 KiB samples cost ~860 requests (neighbours share blocks) and ~16.7 MB for both tools.
- Times include process-level work after imports (DuckDB start, Arrow export of the 1M rows); both
  tools have pyarrow imported before the clock starts."""


def write_section(results, a, load=""):
    lines = [BEGIN, "## Remote datasets (tacocore vs tacoreader over HTTPS on loopback)", "",
             f"Generated by `.venv/bin/python bench/bench_remote.py --samples {a.samples} --runs {a.runs}` "
             f"on {dt.date.today().isoformat()}; this section is replaced by that script and kept by "
             "`bench/run.py`. One nginx on 127.0.0.1 over HTTPS (throw-away CA, since tacoreader "
             "refuses plain http) serves the same files to both; every cell is the median of "
             f"{a.runs} fresh processes; requests and bytes are counted in nginx's access log. "
             "tacoreader reads sample bytes through GDAL on the `internal:gdal_vsi` path it returns "
             "(as its users do); tacocore through `read_bytes`. The time of `read_bytes` rows covers "
             "the reads only; their requests and bytes exclude the open.", "",
             "| operation | tool | requests (HEAD) | bytes transferred | time (median s) | min–max s |",
             "|---|---|---:|---:|---:|---|"]
    if load:
        lines[3] += f" Load average during the run: {load} on {os.cpu_count()} cores" + (
            " (busy: other builds ran at the same time, so times are noisy; the request and byte "
            "counts are exact)." if max(float(x) for x in load.split(" / ")) > (os.cpu_count() or 1)
            else ".")
    for title, row in results.items():
        for tool, r in row.items():
            lines.append(f"| {title} | {tool} | {r['requests']:.0f} ({r['heads']:.0f}) | "
                         f"{r['bytes_sent']:,.0f} | {r['seconds']:.3f} | "
                         f"{r['min_seconds']:.3f}–{r['max_seconds']:.3f} |")
    lines += ["", NOTES, "", END]
    text = REPORT.read_text() if REPORT.exists() else ""
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip() + "\n\n" + "\n".join(lines) + "\n"
    REPORT.write_text(text)


if __name__ == "__main__":
    sys.exit(main())
