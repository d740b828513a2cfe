#!/usr/bin/env python3
"""load + data() of one ZIP, tacocore against tacoreader, in alternating fresh processes.

    .venv/bin/python bench/bench_reader_paired.py ZIP [--runs 7]

Each pair runs `build/bin/bench_reader load ZIP` (taco::load + data(), timed inside the tool) and
then tacoreader.load(ZIP).data in a fresh Python process (offline-patched as the harness does,
see bench_reader_reference.py). Alternating the two keeps a slow phase of the machine from
landing on one tool only. Prints one JSON object: each tool's seconds per run, the medians, the
ratio of the medians (reference / tacocore) and the load average before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench_reader_reference  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("zip")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--bench-reader", default=os.path.join(os.path.dirname(HERE), "build", "bin", "bench_reader"))
    a = ap.parse_args()
    load_before = os.getloadavg()[0]
    ours, theirs = [], []
    for _ in range(a.runs):
        out = subprocess.run([a.bench_reader, "load", a.zip], capture_output=True, text=True, check=True)
        ours.append(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])
        ref = bench_reader_reference.child("data", a.zip)
        theirs.append(ref["load"] + ref["data"])
    print(json.dumps({
        "zip": a.zip,
        "tacocore_seconds": [round(x, 4) for x in ours],
        "tacoreader_seconds": [round(x, 4) for x in theirs],
        "tacocore_median": round(statistics.median(ours), 4),
        "tacoreader_median": round(statistics.median(theirs), 4),
        "ratio_of_medians": round(statistics.median(theirs) / statistics.median(ours), 2),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }, indent=1))


if __name__ == "__main__":
    main()
