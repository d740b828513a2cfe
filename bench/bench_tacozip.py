#!/usr/bin/env python3
"""tacozip's API: tacocore.tacozip against tacozip, side by side, each measurement in a fresh
process.

    .venv/bin/python bench/bench_tacozip.py [--files N] [--big B] [--runs R] [--out DIR] [--report]

Inputs (written once, cached under --out): N (default 10,000) files of 4 KiB and B (default 8)
files of 32 MiB of random bytes. Measured, R times per tool, each in a new process, only the
operation on the clock (imports before it):
1. create_small: create() of the N small files, archive names DATA/<name>, a placeholder header;
2. create_big:   create() of the B big files;
3. update:       update_header() of the N-entry archive with its last entry's range, 100 times;
4. read:         read_header() of that archive's path, 1,000 times.
Every run is checked (archive size; the header read back) and both tools must agree. Wall and CPU
time (user + system of the process, all threads). Prints one JSON object; --report rewrites the
marked "tacozip API" section of docs/PERFORMANCE.md.
"""
from __future__ import annotations

import json
import os
import sys
import time

import side_by_side

BEGIN, END = "<!-- tacozip:begin -->", "<!-- tacozip:end -->"
SMALL, BIG = 4096, 32 << 20
UPDATES, READS = 100, 1000

# One child per measurement (side_by_side.measure): {"wall", "cpu", "check"} of the timed part.
CHILD = r'''
import os, zipfile
tool, case, inputs, out = sys.argv[1:5]
if tool == "reference":
    import tacozip
else:
    import tacocore.tacozip as tacozip
which = "big" if case == "create_big" else "small"
files = sorted(os.path.join(inputs, which, f) for f in os.listdir(os.path.join(inputs, which)))
names = ["DATA/" + os.path.basename(f) for f in files]
if case.startswith("create"):
    c0, t0 = cpu(), time.perf_counter()
    tacozip.create(out, files, names, [(0, 0)])
    wall, used = time.perf_counter() - t0, cpu() - c0
    check = [os.path.getsize(out), tacozip.read_header(out)]
    os.unlink(out)
else:
    tacozip.create(out, files, names, [(0, 0)])
    last = zipfile.ZipFile(out).infolist()[-1]
    slot = [(last.header_offset + 30 + len(last.filename.encode()), last.file_size)]
    if case == "update":
        c0, t0 = cpu(), time.perf_counter()
        for _ in range(UPDATES):
            tacozip.update_header(out, slot)
        wall, used = time.perf_counter() - t0, cpu() - c0
        check = tacozip.read_header(out)
    else:
        tacozip.update_header(out, slot)
        c0, t0 = cpu(), time.perf_counter()
        for _ in range(READS):
            header = tacozip.read_header(out)
        wall, used = time.perf_counter() - t0, cpu() - c0
        check = header
    os.unlink(out)
print(json.dumps({"wall": wall, "cpu": used, "check": check}))
'''.replace("UPDATES", str(UPDATES)).replace("READS", str(READS))


def make_inputs(root: str, files: int, big: int) -> None:
    for which, count, size in (("small", files, SMALL), ("big", big, BIG)):
        folder = os.path.join(root, which)
        os.makedirs(folder, exist_ok=True)
        for i in range(count):
            path = os.path.join(folder, f"f{i:06d}")
            if not os.path.exists(path) or os.path.getsize(path) != size:
                with open(path, "wb") as fh:
                    fh.write(os.urandom(size))


def report(result: dict, args) -> None:
    lo, hi = result["load_average"]
    cores = os.cpu_count() or 1
    lines = [
        BEGIN, "## tacozip API (tacocore.tacozip vs tacozip; bench/bench_tacozip.py)", "",
        f"Written by `.venv/bin/python bench/bench_tacozip.py --files {args.files} --big {args.big} "
        f"--runs {args.runs} --report` on {time.strftime('%Y-%m-%d')}: medians of {args.runs} "
        f"fresh processes (min–max; CPU), load average {lo:.2f}–{hi:.2f} on {cores} cores. Both "
        "tools write archives of the same size (the same bytes: tests/interop/test_tacozip_interop.py) "
        "and read back the same header in every run.", "",
        "| operation | tacozip (CPU) | tacocore.tacozip (CPU) | tacocore / reference | CPU tacocore / reference |",
        "|---|---:|---:|---:|---:|",
    ]
    labels = {
        "create_small": (f"create() of {args.files:,} × 4 KiB files, s", 1.0),
        "create_big": (f"create() of {args.big} × 32 MiB files, s", 1.0),
        "update": (f"update_header() of the {args.files:,}-entry archive, ms per call", 1e3 / UPDATES),
        "read": ("read_header() of its path, ms per call", 1e3 / READS),
    }
    for case, (label, unit) in labels.items():
        lines.append(side_by_side.ratio_row(label, result[case]["reference"], result[case]["tacocore"],
                                            unit=unit))
    lines += ["", "Where the time goes: tacozip hands the file list to libzip, which opens, "
              "reads and CRCs each source and writes the archive through stdio; tacocore's ZIP "
              "writer stages small entries in a 4 MiB buffer (no system call per small entry) and "
              "copies big ones through it with positional writes. `update_header` checks that every new "
              "(offset, length) is the data of one entry by reading the local header that ends "
              "where the pair starts (a 4 KiB read per pair; the whole central directory only "
              "when that does not settle it), where tacozip rewrites the 116 bytes and two CRCs "
              "without looking. `read_header` is an open, a 157-byte read and a parse on both "
              "sides: the ratio moves around 1.0 from run to run on this machine.", END]
    side_by_side.replace_section(BEGIN, END, "\n".join(lines))


def main() -> int:
    ap = side_by_side.argument_parser(__doc__, "tacozip")
    ap.add_argument("--files", type=int, default=10_000)
    ap.add_argument("--big", type=int, default=8)
    args = ap.parse_args()
    inputs = os.path.join(args.out, f"n{args.files}-b{args.big}")
    make_inputs(inputs, args.files, args.big)
    result = {"files": args.files, "big": args.big, "runs": args.runs, **side_by_side.run_cases(
        CHILD, ("create_small", "create_big", "update", "read"),
        lambda tool, case: [tool, case, inputs, os.path.join(args.out, f"{tool}.zip")], args.runs)}
    print(json.dumps(result, indent=1))
    if args.report:
        report(result, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
