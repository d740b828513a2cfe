#!/usr/bin/env python3
"""Runs the tacocore-vs-reference benchmarks and writes docs/PERFORMANCE.md.

  run.py --profile quick          what `make bench` runs (<= 10 minutes on a 2-core machine)
  run.py --profile full           what `make bench FULL=1` runs (the sizes of issue 5)
  run.py --profile tiny --out build/bench-tiny --no-report
                                  what `make test` runs: tiny sizes, 1 run, checks the harness only

For every case: generate the inputs (cached, deterministic), write the read fixtures once with the
reference writer, then run the reference and tacocore (one warm-up + 5 measured runs each, a fresh
process per run, inputs read once before every run) and check every run's output. Raw results go
to <out>/results-<profile>.json; the report's tables are produced from them, never typed.
"""
from __future__ import annotations

import argparse
import ctypes
import datetime as dt
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import reference_runner  # noqa: E402
import tacocore_runner  # noqa: E402

REPORT = os.path.join(common.REPO, "docs", "PERFORMANCE.md")
COMMAND = {"quick": "make bench", "full": "make bench FULL=1",
           "tiny": ".venv/bin/python bench/run.py --profile tiny"}


def sh(cmd: list[str], **kw) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60, cwd=common.REPO,
                              **kw).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return ""


# --- facts about the machine and the software ------------------------------------------------------

def machine() -> dict:
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    mem = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    df = sh(["df", "-hT", common.OUT]).splitlines()[-1].split()
    dev = os.path.basename(df[0])
    rota = sh(["cat", f"/sys/block/{dev.rstrip('0123456789')}/queue/rotational"])
    os_name = next((line.split("=", 1)[1].strip().strip('"') for line in open("/etc/os-release")
                    if line.startswith("PRETTY_NAME")), platform.platform())
    return {
        "CPU": cpu,
        "Cores": f"{os.cpu_count()} logical ({len(os.sched_getaffinity(0))} usable)",
        "Memory": f"{mem / 1024 / 1024:.1f} GiB",
        "OS / kernel": f"{os_name} / Linux {platform.release()}",
        "Disk (benchmark files)": f"{df[0]} {df[1]}, {df[2]} total, {df[4]} free"
                                  + (f", rotational={rota}" if rota else ""),
    }


def duckdb_c_version() -> str:
    libs = [line.split("=>")[1].split()[0] for line in
            sh(["ldd", os.path.join(tacocore_runner.BIN, "taco")]).splitlines() if "duckdb" in line]
    lib = libs[0] if libs else os.path.join(common.REPO, "third_party/duckdb/lib/libduckdb.so")
    try:
        f = ctypes.CDLL(lib).duckdb_library_version
        f.restype = ctypes.c_char_p
        return f"{f().decode()} ({os.path.relpath(lib, common.REPO)})"
    except (OSError, AttributeError):
        return "not found"


def versions(py_pkg: tuple[bool, str]) -> dict:
    head = sh(["git", "rev-parse", "HEAD"]) or "no commit yet"
    dirty = sh(["git", "status", "--porcelain", "--untracked-files=no"])
    cache = os.path.join(common.REPO, "build", "CMakeCache.txt")
    build_type = next((line.split("=", 1)[1].strip() for line in open(cache)
                       if line.startswith("CMAKE_BUILD_TYPE:")), "?") if os.path.exists(cache) else "?"
    taco = os.path.join(tacocore_runner.BIN, "taco")
    v = {
        "tacocore commit": head + (" (with uncommitted changes)" if dirty else ""),
        "tacocore build": f"{sh([taco, '--version']) or 'taco not built'}, CMAKE_BUILD_TYPE={build_type}, "
                          f"{sh(['c++', '--version']).splitlines()[0] if sh(['c++', '--version']) else 'c++ ?'}",
        "tacocore Python package": "importable" if py_pkg[0] else f"not available ({py_pkg[1]})",
        "DuckDB (tacocore, C API)": duckdb_c_version(),
        "GDAL (system, gdal-config)": sh(["gdal-config", "--version"]) or "?",
        "Python": platform.python_version(),
    }
    for pkg in ("tacotoolbox", "tacoreader", "tacozip", "duckdb", "pyarrow", "numpy", "GDAL"):
        try:
            v[f"{pkg} (reference side, Python)"] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            v[f"{pkg} (reference side, Python)"] = "not installed"
    return v


def micro_benchmarks(profile: str) -> tuple[list[dict], str]:
    exe = os.path.join(tacocore_runner.BIN, "taco_micro_bench")
    if not os.access(exe, os.X_OK):
        return [], f"{os.path.relpath(exe, common.REPO)} is not built"
    min_time = {"tiny": "0.01", "quick": "0.2", "full": "1"}[profile]
    out = sh([exe, "--benchmark_format=json", f"--benchmark_min_time={min_time}"])
    try:
        return json.loads(out)["benchmarks"], ""
    except (json.JSONDecodeError, KeyError):
        return [], "taco_micro_bench did not print JSON"


PY_BENCH_ARGS = {  # issue 4's two Python-package benchmarks, sized per profile
    "tiny": {"bench_to_arrow": ["--rows", "20000", "--repeat", "1"],
             "bench_read_arrays": ["--samples", "20", "--repeat", "1"]},
    "quick": {"bench_to_arrow": [], "bench_read_arrays": []},
    "full": {"bench_to_arrow": [], "bench_read_arrays": []},
}


WRITER_API_SAMPLES = {"tiny": 20_000, "quick": 1_000_000, "full": 1_000_000}


def writer_api_benchmark(profile: str, out_dir: str) -> dict:
    """Issue 2's third floor: N zero-byte samples with 5 columns given in memory through the C++
    API (bench_writer), the whole ZIP written; 3 runs, each a fresh process."""
    exe = os.path.join(tacocore_runner.BIN, "bench_writer")
    if not os.access(exe, os.X_OK):
        return {"error": "build/bin/bench_writer is not built"}
    n = WRITER_API_SAMPLES[profile]
    out = os.path.join(out_dir, "writer_api.tacozip")
    runs = []
    for _ in range(3):
        p = subprocess.run([exe, out, str(n)], capture_output=True, text=True)
        if p.returncode != 0:
            return {"error": p.stderr.strip()[-300:]}
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    if os.path.exists(out):
        os.remove(out)
    return {"samples": n, "runs": runs}


def python_benchmarks(profile: str, out_dir: str) -> dict:
    """Runs bench/python/*.py (one process each); their JSON is read whatever the exit code,
    since 1 only means 'ran, bound not met'."""
    results = {}
    for name, args in PY_BENCH_ARGS[profile].items():
        path = os.path.join(out_dir, f"python-{name}.json")
        script = os.path.join(common.REPO, "bench", "python", name + ".py")
        subprocess.run([sys.executable, script, "--json", path, *args], capture_output=True, text=True)
        try:
            results[name] = json.load(open(path))
        except (OSError, json.JSONDecodeError):
            results[name] = {"error": "did not write its JSON"}
    return results


# --- statistics ---------------------------------------------------------------------------------------

def summarize(r: dict) -> dict:
    runs = r.get("runs") or []
    if not r.get("ok") or not runs:
        return {}
    med = statistics.median(runs)
    cpu = [x for x in r.get("cpu") or [] if x is not None]
    return {"median": med, "min": min(runs), "max": max(runs),
            "cpu": statistics.median(cpu) if cpu else None,
            "sps": r["samples"] / med if r.get("samples") and med > 0 else None,
            "mbps": r["bytes"] / med / 1e6 if r.get("bytes") and med > 0 else None,
            "rss": r.get("peak_rss_bytes")}


def ratios(r: dict, ref: dict | None, key: str = "runs") -> list[float]:
    """tacocore/reference, run i against run i (of the times, or of the CPU times: key="cpu")."""
    if not ref or not ref.get("ok") or not r.get("ok"):
        return []
    return [a / b for a, b in zip(r.get(key) or [], ref.get(key) or [])
            if a is not None and b is not None and b > 0]


# --- the report ------------------------------------------------------------------------------------

def fmt_s(x: float) -> str:
    return f"{x:.3g}" if x < 100 else f"{x:.0f}"


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def table(cases: list[common.Case], results: dict) -> list[str]:
    rows = ["| case | tool | how it runs | median s | min s | max s | CPU s | samples/s | MB/s "
            "| peak RSS MiB | tacocore / reference | CPU tacocore / reference |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for c in cases:
        ref = results.get((c.name, "reference"))
        for tool in ("reference", "tacocore", "tacocore-py"):
            r = results.get((c.name, tool))
            if r is None:
                continue
            s = summarize(r)
            label = f"`{c.name}`<br>{c.title}" if tool == "reference" else ""
            if not s:
                status = r.get("error") or "failed"
                if not status.startswith("not available"):
                    status = "**FAILED**: " + status
                rows.append(f"| {label} | {tool} | {r.get('method') or '–'} | – | – | – | – | – | – "
                            f"| – | {status.replace('|', '/')} | |")
                continue
            q = ratios(r, ref) if tool != "reference" else []
            ratio = (f"**{statistics.median(q):.3g}×** ({min(q):.3g}–{max(q):.3g})" if q else
                     ("" if tool == "reference" else "– (no reference numbers)"))
            qc = ratios(r, ref, "cpu") if tool != "reference" else []
            cpu_ratio = (f"{statistics.median(qc):.3g}× ({min(qc):.3g}–{max(qc):.3g})" if qc else
                         ("" if tool == "reference" else "–"))
            rss = f"{s['rss'] / 2**20:,.0f}" if s["rss"] else "–"
            cpu = fmt_s(s["cpu"]) if s["cpu"] is not None else "–"
            rows.append(f"| {label} | {tool} | {r['method']} | {fmt_s(s['median'])} | {fmt_s(s['min'])} "
                        f"| {fmt_s(s['max'])} | {cpu} | {fmt_rate(s['sps'])} | {fmt_rate(s['mbps'])} "
                        f"| {rss} | {ratio} | {cpu_ratio} |")
    return rows


METHOD = """\
- **Same inputs.** `bench/generate.py` writes every input tree and metadata table from a seed
  (numpy PCG64; GDAL writes no timestamps), so both tools read identical bytes. The read scenarios
  (3–7) read one ZIP per input set, written once by the reference writer and checked with the
  reference reader: both tools read the very same file.
- **Same cache state.** Before every run (warm-up included) the harness reads all inputs of the
  run once (the input tree and metadata table, or the ZIP), so each run starts with them in the
  page cache; after every run the output is deleted and `sync` flushes dirty pages outside the clock.
- **Same file-system placement.** Each run writes into a fresh directory whose parent is marked
  `chattr +T`, so ext4 places it in a block group with free inodes. Without that, a tool's output
  could land among the groups the generated inputs filled, where creating a file cost ~30× more
  kernel CPU for either tool (`spread_subdirectories` in bench/common.py).
- **Runs.** One warm-up run, then {runs} measured runs, each in a fresh process. The table shows the
  median, min and max of the measured runs; throughput is samples (or bytes) / median.
  Peak RSS is the largest `ru_maxrss` of the measured processes (from `wait4`), i.e. the whole
  process: for the reference that includes the Python interpreter and its imports.
- **What is timed.** Reference: only the operation, inside the process, after the imports
  (`perf_counter`); creating includes reading the metadata table, walking the input tree and
  building `Sample`/`Tortilla`/`Taco` (each tortilla's metadata rows attached in one
  `Tortilla.extend_with(extension)` call returning them as an Arrow table, which both tools have).
  For the read scenarios the dataset is loaded before the clock starts (except scenario 3, which
  times `load()` + `.data`). tacocore CLI rows time the whole process (start-up included, which can
  only favour the reference); `bench_reader` rows time the same section as the reference, inside the tool.
- **Checked outputs.** Every run's output is checked, and a run that does not check out fails the
  case (reported as FAILED, never as a time): created datasets must load in the reference reader
  (tacoreader) with every sample, the metadata values of the table and the input bytes of sampled
  samples; reads must return the right row counts (computed from the metadata table with pyarrow),
  paths that hold the input bytes, CRC-32s of every sample read, and pixel sums of every decoded
  GeoTIFF equal to the generator's.
- **Ratio** = tacocore time / reference time of run *i* against run *i* (median, min–max over the
  pairs); below 1 means tacocore is faster.
- **CPU s** = CPU time (user + system, all threads) of the timed section, measured inside the
  process like the time (`time.process_time`, `getrusage`); for the `taco create` CLI rows it is
  the whole process's (GNU time). On a machine shared with other work it is inflated far less
  than wall time, so the **CPU ratio** is the one to judge a busy run by.
- **tacocore Python rows** run the reference's loop with `import tacocore` where the two APIs
  share names, and the package's own calls where a tacocore user writes them: `read_bytes(key)`
  (raw, 1 thread), one `read_bytes_many(keys, threads=N)` (raw on N threads), `read_array(key)`
  (decode, 1 thread), `iter_arrays(keys, threads=N)` (decode on N threads); the method column names
  the call. The work checked is the C++ row's: the same keys, a CRC-32 of every sample and a pixel
  sum of every raster. The raw rows' CRCs are computed after the clock stops, for every tool (the
  row times reading bytes; inside the clock the check ran on N threads in C++ but serially under
  the GIL in Python: 10,000 × `zlib.crc32` ≈ 10 ms); the decode rows' sums stay inside, as the
  reference's loop sums each raster before decoding the next.
- **Reference offline.** tacoreader runs `INSTALL spatial` on every `load()`; on this offline machine
  DuckDB would then wait ~0.55 s for extensions.duckdb.org each time. The harness points the
  reference's DuckDB connections at an empty local extension repository, which fails the same way
  in ~40 ms (the spatial extension is not used by any case).
"""


# Sections of PERFORMANCE.md that other scripts write; a regeneration keeps them.
KEPT_SECTIONS = [("<!-- remote-benchmark:begin -->", "<!-- remote-benchmark:end -->"),
                 ("<!-- collections:begin -->", "<!-- collections:end -->"),
                 ("<!-- create-shared-db:begin -->", "<!-- create-shared-db:end -->"),
                 ("<!-- training:begin -->", "<!-- training:end -->"),
                 ("<!-- convert:begin -->", "<!-- convert:end -->"),
                 ("<!-- sqlstream:begin -->", "<!-- sqlstream:end -->"),
                 ("<!-- spacetime:begin -->", "<!-- spacetime:end -->"),
                 ("<!-- issue15:begin -->", "<!-- issue15:end -->"),
                 ("<!-- decode-floor:begin -->", "<!-- decode-floor:end -->"),
                 ("<!-- geostats:begin -->", "<!-- geostats:end -->"),
                 ("<!-- v1api:begin -->", "<!-- v1api:end -->"),
                 ("<!-- pyread:begin -->", "<!-- pyread:end -->")]


def kept_sections(path: str) -> list[str]:
    """The sections other scripts own (bench/bench_remote.py, bench/bench_collections.py,
    bench/bench_training.py), kept
    as they are, each between its begin/end markers."""
    text = open(path).read() if os.path.exists(path) else ""
    kept = []
    for begin, end in KEPT_SECTIONS:
        if begin in text and end in text:
            kept += ["", text[text.index(begin):text.index(end) + len(end)]]
    return kept


def write_report(path: str, profile: str, results: dict, cases: list[common.Case], facts: dict,
                 elapsed: float) -> None:
    lines = [f"# tacocore performance", "",
             f"Generated by `bench/run.py --profile {profile}` on {dt.date.today().isoformat()} "
             f"in {elapsed / 60:.1f} minutes; every table below is produced from "
             f"`{os.path.relpath(facts['raw'], common.REPO)}`. Do not edit by hand.", "",
             "## Reproduce", "", "```sh", COMMAND[profile] + (
                 f"    # = .venv/bin/python bench/run.py --profile {profile}" if profile != "tiny" else ""),
             "```", "",
             "`make bench` runs the quick profile (smaller sizes, about ten minutes on a 2-core "
             "machine); `make bench FULL=1` runs the sizes of issue 5. See `bench/README.md`.", "",
             "## Machine", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in facts["machine"].items()]
    busy = max(float(x) for x in facts["load"]) / (os.cpu_count() or 1)
    if busy > 1.0:                                     # the benchmark itself keeps ~1 core busy
        lines += ["", f"**Warning: the machine was busy during this run** (load average up to "
                      f"{max(float(x) for x in facts['load']):.1f} on {os.cpu_count()} cores, from "
                      "other processes as well as the benchmark): times are inflated and noisy. "
                      "Re-run on an idle machine for numbers to quote."]
    lines += ["", "## Versions", "", "| | |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in facts["versions"].items()]
    lines += ["", "## Method", "", METHOD.format(runs=common.RUNS[profile][1])]
    for num, name in common.SCENARIOS.items():
        cs = [c for c in cases if c.scenario == num]
        if cs:
            lines += [f"## {num}. {name}", ""] + table(cs, results) + [""]
    lines += ["## Writer through the C++ API (tacocore only)", ""]
    wa = facts.get("writer_api", {})
    if "runs" in wa:
        create = statistics.median(r["seconds_create"] for r in wa["runs"])
        build = statistics.median(r["seconds_build"] for r in wa["runs"])
        rss = max(r["peak_rss_bytes"] for r in wa["runs"])
        lines += [f"`bench_writer`: {wa['samples']:,} zero-byte samples given as in-memory bytes, 5 metadata "
                  "columns (double, int64, string, bool, timestamp), the whole ZIP written; 3 runs, each a "
                  "fresh process.", "",
                  "| samples | build the Taco (median s) | `taco::create` (median s) | min–max s | peak RSS MiB |",
                  "|---:|---:|---:|---|---:|",
                  f"| {wa['samples']:,} | {build:.2f} | {create:.2f} | "
                  f"{min(r['seconds_create'] for r in wa['runs']):.2f}–{max(r['seconds_create'] for r in wa['runs']):.2f} "
                  f"| {rss / 2**20:,.0f} |", ""]
    else:
        lines += [f"Not run: {wa.get('error', 'no result')}.", ""]
    lines += ["## Python package (tacocore only; the reference has no equivalent)", ""]
    pyb = facts.get("python", {})
    ta, ra = pyb.get("bench_to_arrow", {}), pyb.get("bench_read_arrays", {})
    lines += ["| benchmark | measured | bound | met |", "|---|---|---|---|"]
    if "seconds" in ta:
        sec = ta["seconds"]
        lines.append(f"| `to_arrow()` of {ta['rows']:,} rows vs DuckDB's own Arrow export | "
                     f"{sec['tacocore.to_arrow']['median']:.3f} s vs {sec['duckdb.export']['median']:.3f} s, "
                     f"ratio {ta['ratio_to_arrow_vs_duckdb']:.2f} | ≤ 1.5 | {'yes' if ta['pass'] else 'NO'} |")
    else:
        lines.append(f"| `to_arrow()` | failed: {ta.get('error', 'not run')} | ≤ 1.5 | NO |")
    if "speedup_median" in ra:
        sec = ra["seconds"]
        one, two = (sec[k]["median"] for k in sorted(sec)[:2])
        lines.append(f"| `read_arrays` of {ra.get('samples', '?')} GeoTIFFs, 2 threads vs 1 | "
                     f"{one:.3f} s / {two:.3f} s, speed-up {ra['speedup_median']:.2f}× | ≥ 1.7× "
                     f"| {'yes' if ra['pass'] else 'NO'} |")
    else:
        lines.append(f"| `read_arrays` | failed: {ra.get('error', 'not run')} | ≥ 1.7× | NO |")
    lines += ["", "Scripts: `bench/python/bench_to_arrow.py`, `bench/python/bench_read_arrays.py` "
              "(see `bench/python/README.md`; the read_arrays speed-up needs an otherwise idle second core).", ""]
    lines += ["## Micro-benchmarks (Google Benchmark, tacocore only)", ""]
    micro, why = facts["micro"]
    if micro:
        lines += ["| benchmark | time per iteration | iterations | throughput |", "|---|---:|---:|---:|"]
        for b in micro:
            rate = (f"{b['bytes_per_second'] / 1e6:,.1f} MB/s" if "bytes_per_second" in b else
                    f"{b['items_per_second']:,.0f} items/s" if "items_per_second" in b else "–")
            lines.append(f"| `{b['name']}` | {b['real_time']:.4g} {b['time_unit']} | {b['iterations']:,} "
                         f"| {rate} |")
    else:
        lines.append(f"Not run: {why}.")
    fixtures = sorted({common.fixture_path(c) for c in cases if c.fixture})
    lines += ["", "## Fixtures", "", "The files the read scenarios (3–7) read, the same file for both tools:", ""]
    for f in fixtures:
        meta = json.load(open(f + ".json")) if os.path.exists(f + ".json") else {}
        size = os.path.getsize(f) if os.path.exists(f) else 0
        line = f"- `{os.path.relpath(f, common.OUT)}`: {size / 1e6:,.1f} MB"
        if meta:
            line += f", written by {meta['writer']} in {meta['seconds']:.1f} s"
            if meta.get("peak_rss_bytes"):
                line += f" (peak RSS {meta['peak_rss_bytes'] / 2**20:,.0f} MiB)"
            if meta.get("note"):
                line += f"; {meta['note']}"
        lines.append(line)
    lines += kept_sections(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.write("\n".join(lines).rstrip() + "\n")


# --- main --------------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", default="quick", choices=common.PROFILES)
    ap.add_argument("--out", default=os.path.join(common.HERE, "out"), help="work directory")
    ap.add_argument("--report", help=f"report path (default {os.path.relpath(REPORT, common.REPO)}; "
                                     "tiny: <out>/PERFORMANCE-tiny.md)")
    ap.add_argument("--no-report", action="store_true", help="only run and check, write no report")
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--tools", default="reference,tacocore", help="reference,tacocore")
    ap.add_argument("--jobs", type=int, default=0,
                    help="parallel preparation (default: cores); tiny also overlaps its cases")
    a = ap.parse_args()
    common.set_out(a.out)
    t_start = time.perf_counter()
    cases = common.cases(a.profile)
    if a.cases:
        want = a.cases.split(",")
        unknown = set(want) - {c.name for c in cases}
        if unknown:
            ap.error(f"unknown cases {sorted(unknown)}")
        cases = [c for c in cases if c.name in want]
    tools = a.tools.split(",")
    py_pkg = tacocore_runner.python_package()

    load_before = open("/proc/loadavg").read().split()[:3]
    # Inputs and fixtures first, untimed; independent input sets are prepared in parallel.
    first = {}
    for c in cases:
        first.setdefault(c.data_dir, c)
    with ThreadPoolExecutor(a.jobs or os.cpu_count()) as pool:
        list(pool.map(reference_runner.prepare, first.values()))
    for c in cases:
        reference_runner.prepare(c)                      # keys files
    results: dict = {}
    raw_path = os.path.join(common.OUT, f"results-{a.profile}.json")

    def run_one(c: common.Case) -> None:
        todo = []
        if "reference" in tools:
            todo.append(lambda c=c: reference_runner.run_case(c, a.profile))
        if "tacocore" in tools:
            todo.append(lambda c=c: tacocore_runner.run_cli(c, a.profile))
            if py_pkg[0]:
                todo.append(lambda c=c: reference_runner.run_case(c, a.profile, impl="tacocore"))
        for job in todo:
            t0 = time.perf_counter()
            r = job()
            results[(c.name, r["tool"])] = r
            s = summarize(r)
            what = f"median {s['median']:.3f} s" if s else r["error"][:100]
            common.log(f"{c.name:20s} {r['tool']:12s} {what}   ({time.perf_counter() - t0:.0f} s)")

    # Measured cases run one at a time; only the tiny harness check may overlap them (--jobs).
    with ThreadPoolExecutor((a.jobs or os.cpu_count()) if a.profile == "tiny" else 1) as pool:
        list(pool.map(run_one, cases))
    elapsed = time.perf_counter() - t_start
    load_after = open("/proc/loadavg").read().split()[:3]
    facts = {"profile": a.profile, "raw": raw_path, "machine": machine(), "versions": versions(py_pkg),
             "elapsed_seconds": elapsed}
    facts["machine"]["Load average (1/5/15 min)"] = (f"before {' '.join(load_before)}, "
                                                     f"after {' '.join(load_after)}")
    facts["load"] = [load_before[0], load_after[0]]
    facts["micro"] = micro_benchmarks(a.profile) if not a.no_report else ([], "--no-report")
    facts["python"] = python_benchmarks(a.profile, common.OUT) if not a.no_report else {}
    facts["writer_api"] = writer_api_benchmark(a.profile, common.OUT) if not a.no_report else {}
    with open(raw_path, "w") as fh:
        json.dump({"facts": facts, "results": list(results.values())}, fh, indent=1)
    failed = [k for k, r in results.items() if not r["ok"] and "not available" not in r["error"]]
    if not a.no_report:
        report = a.report or (os.path.join(common.OUT, "PERFORMANCE-tiny.md") if a.profile == "tiny"
                              else REPORT)
        write_report(report, a.profile, results, cases, facts, elapsed)
        common.log(f"report: {os.path.relpath(report, common.REPO)}")
    common.log(f"{len(results)} results, {len(failed)} failed, {elapsed:.0f} s")
    for k in failed:
        common.log(f"FAILED {k[0]} {k[1]}: {results[k]['error']}")
    # A missing tacocore command is "not available", not a failure; a wrong output is a failure.
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
