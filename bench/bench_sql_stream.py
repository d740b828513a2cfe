#!/usr/bin/env python3
"""`taco sql --json` / `--csv` on a large result: wall time and peak memory (issue 18 item 9).

Before streaming, 10 M rows took 2.7 GB and 10 s (the whole result and its JSON tree in memory).
The rows come from DuckDB's range() joined to nothing, so the dataset only provides the session;
what is measured is fetching, formatting and writing (to /dev/null).

  .venv/bin/python bench/bench_sql_stream.py [--rows 10000000] [--repeat 3] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO / "build")) / "bin" / "taco"


def one_run(dataset: Path, rows: int, fmt: str) -> dict:
    """A fresh process per run; its peak RSS read through a wrapper process of its own."""
    query = f"SELECT i, 'row number ' || i AS s, i * 0.5 AS h FROM range({rows}) t(i)"
    wrapper = ("import resource, subprocess, sys, time\n"
               "t = time.perf_counter()\n"
               "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
               "print(p.returncode, time.perf_counter() - t, "
               "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n")
    out = subprocess.run([sys.executable, "-c", wrapper, str(TACO), "sql", str(dataset), query, fmt],
                         capture_output=True, text=True, check=True).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"taco sql {fmt} failed with exit code {out[0]}")
    return {"seconds": float(out[1]), "peak_rss_mb": float(out[2])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    if not TACO.is_file():
        raise SystemExit(f"{TACO} is not built")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        (src / "a.bin").write_bytes(b"a")
        dataset = Path(tmp) / "one.tacozip"
        subprocess.run([str(TACO), "create", "--from", str(src), str(dataset), "--quiet"], check=True)
        results = {"rows": args.rows, "load_average": os.getloadavg(), "formats": {}}
        for fmt in ("--json", "--csv"):
            runs = [one_run(dataset, args.rows, fmt) for _ in range(args.repeat)]
            results["formats"][fmt] = {
                "best_seconds": min(r["seconds"] for r in runs),
                "max_peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                "runs": runs,
            }
    text = json.dumps(results, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
