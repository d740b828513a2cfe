"""Fresh-process, side-by-side measurement for the API benchmarks that compare tacocore's
drop-in modules with the reference package they replace (bench_v1_api.py, bench_tacozip.py).

A child is Python code run with ``python -c``; it starts with CHILD_PRELUDE (``cpu()``: user +
system seconds of the process, all threads) and prints one JSON object {"wall", "cpu", "check"}
for its timed part. ``measure`` runs it once to warm the page cache, then ``runs`` times, checks
that every run's "check" agrees, and returns the medians.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PERFORMANCE = os.path.join(REPO, "docs", "PERFORMANCE.md")

CHILD_PRELUDE = r'''
import json, resource, sys, time
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
'''


def argument_parser(doc: str, out_name: str) -> argparse.ArgumentParser:
    """The options every such benchmark takes: --runs, --out (default bench/out/<out_name>),
    --report; the script adds its own sizes."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out", out_name))
    ap.add_argument("--report", action="store_true")
    return ap


def measure(child: str, argv: list[str], runs: int, label: str, timeout: int = 900) -> dict:
    results = []
    for _ in range(runs + 1):  # the first run warms the page cache and is not kept
        proc = subprocess.run([sys.executable, "-c", CHILD_PRELUDE + child, *argv],
                              capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            raise SystemExit(f"{label} failed:\n{proc.stderr}")
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    results = results[1:]
    checks = {json.dumps(r["check"]) for r in results}
    if len(checks) != 1:
        raise SystemExit(f"{label}: runs disagree: {checks}")
    walls, cpus = [r["wall"] for r in results], [r["cpu"] for r in results]
    return {"wall": statistics.median(walls), "wall_min": min(walls), "wall_max": max(walls),
            "cpu": statistics.median(cpus), "check": results[0]["check"]}


def run_cases(child: str, cases: tuple[str, ...], argv, runs: int) -> dict:
    """Measures each case with the reference, then with tacocore (``argv(tool, case)`` gives the
    child's arguments); both must return the same check. Returns {case: {tool: medians}} and
    "load_average" (the lowest and highest of the machine's 1-minute load before and after)."""
    load_before = os.getloadavg()[0]
    result: dict = {}
    for case in cases:
        result[case] = {tool: measure(child, argv(tool, case), runs, f"{tool} {case}")
                        for tool in ("reference", "tacocore")}
        if result[case]["reference"]["check"] != result[case]["tacocore"]["check"]:
            raise SystemExit(f"{case}: the tools disagree: {result[case]}")
    load_after = os.getloadavg()[0]
    result["load_average"] = [round(min(load_before, load_after), 2), round(max(load_before, load_after), 2)]
    return result


def ratio_row(label: str, ref: dict, ours: dict, unit: float = 1.0, digits: int = 3) -> str:
    """One table row: reference and tacocore medians (min–max; CPU), then both ratios. ``unit``
    scales the times shown (1e3 for milliseconds)."""
    def cell(r):
        return (f"{r['wall'] * unit:.{digits}f} ({r['wall_min'] * unit:.{digits}f}–"
                f"{r['wall_max'] * unit:.{digits}f}; {r['cpu'] * unit:.{digits}f})")
    return (f"| {label} | {cell(ref)} | {cell(ours)} | **{ours['wall'] / ref['wall']:.3f}×** | "
            f"{ours['cpu'] / ref['cpu']:.3f}× |")


def replace_section(begin: str, end: str, section: str) -> None:
    """Puts ``section`` (which starts with ``begin`` and ends with ``end``) into PERFORMANCE.md
    in place of the marked one, or at the end."""
    text = open(PERFORMANCE).read()
    if begin in text and end in text:
        text = text[:text.index(begin)] + section + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    open(PERFORMANCE, "w").write(text)
