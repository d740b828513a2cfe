#!/usr/bin/env python3
"""Runs one benchmark case with tacocore and prints one JSON line per tacocore tool:

  tool "tacocore"     the `taco` command line and the C++ bench tools (build/bin, or $TACOCORE_BIN_DIR)
  tool "tacocore-py"  the `tacocore` Python package, through reference_runner.py's code with
                      `import tacocore` instead of tacotoolbox/tacoreader (only once it imports)

  tacocore_runner.py --case create_zip_4kib --profile quick

Inputs, page-cache warming, run counts and output checks are the ones the reference gets
(common.measure); outputs are checked with the reference reader. A missing binary or command is
reported as {"ok": false, "error": "not available: ..."}, never as a number.

How each operation is run (seconds = what the report uses):
  create_zip / create_folder  taco create --from DIR/input OUT --metadata DIR/metadata.parquet ...
                              seconds = wall time of the process
  load / sql                  bench_reader load|sql (seconds it reports, the clock inside the tool);
                              without bench_reader: `taco sql ZIP QUERY --json`, seconds = process
                              wall time (includes process start, load and JSON printing)
  read_position, read_id, raw, decode, nav
                              bench_reader only (one process, many keys); see the contract below

Contract for build/bin/bench_reader (bench/tools/bench_reader.cpp):
  bench_reader MODE DATASET [--keys FILE] [--out FILE] [--query SQL] [--threads N]
    load           taco::load(DATASET) + data() materialized        (the load is timed)
    sql            dataset.sql(QUERY).data_raw(), every column      (the dataset is opened first)
    read-position  data().read(i) for each line i of FILE            --out: the gdal_vsi path per key
    read-id        data().read(id) for each line id of FILE          --out: the gdal_vsi path per key
    raw            read(i) + the sample's bytes + CRC-32, N threads  --out: "<crc32, 8 hex> <size>"
    decode         read(i) + GDAL open + read all bands, N threads   --out: sum of all uint16 pixels
    decode-first   the first key only, GDAL cold (first read_array)  --out: its pixel sum
    nav            read(id) down each '/'-separated id path          --out: the leaf's gdal_vsi path
  stdout: one JSON object {"seconds": <timed section>, "count": <rows or keys>, "cpu_seconds":
  <CPU time of the timed section>}; --out lines are
  in key order; any failure exits non-zero.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
import reference_runner  # noqa: E402

BIN = os.environ.get("TACOCORE_BIN_DIR", os.path.join(common.REPO, "build", "bin"))
MODES = {"load": "load", "sql": "sql", "read_position": "read-position", "read_id": "read-id",
         "raw": "raw", "decode": "decode", "decode_first": "decode-first", "nav": "nav"}


def available(name: str, *sub: str) -> tuple[str | None, str]:
    """(path, "") when build/bin/<name> [sub] answers --help, else (None, reason)."""
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        return None, f"{os.path.relpath(path, common.REPO)} is not built"
    try:
        r = subprocess.run([path, *sub, "--help"], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, f"{name} {' '.join(sub)} --help: {e}"
    text = r.stdout.decode(errors="replace")
    usage = next((line for line in text.splitlines() if line.startswith("Usage:")), "")
    if r.returncode != 0 or (sub and f"{name} {' '.join(sub)}" not in usage):
        return None, f"`{name} {' '.join(sub)}` is not a command of {os.path.relpath(path, common.REPO)}"
    return path, text


def count_rows(stdout_path: str) -> int:
    """Rows in `taco sql --json` output: a JSON array, {"rows": [...]}-like, or JSON lines."""
    with open(stdout_path, "rb") as fh:
        text = fh.read().decode(errors="replace").strip()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        return sum(1 for line in text.splitlines() if line.startswith("{"))
    if isinstance(doc, list):
        return len(doc)
    for key in ("rows", "data", "results"):
        if isinstance(doc.get(key), list):
            return len(doc[key])
    for key in ("count", "num_rows", "n"):
        if isinstance(doc.get(key), int):
            return doc[key]
    return -1


def run_cli(case: common.Case, profile: str) -> dict:
    m, warm_paths = reference_runner.prepare(case)
    taco, help_text = None, ""
    create = case.op.startswith("create")
    reader, reader_help = available("bench_reader")
    if create:
        taco, help_text = available("taco", "create")
        if not taco:
            return common.not_available(case, "tacocore", help_text)
        method = "CLI: taco create (process wall time)"
    elif reader:
        method = f"C++: bench_reader {MODES[case.op]} (timed inside the tool)"
    elif case.op in ("load", "sql"):
        taco, why = available("taco", "sql")
        if not taco:
            return common.not_available(case, "tacocore", f"bench_reader: {reader_help}; {why}")
        method = "CLI: taco sql --json (process wall time: start + load + query + JSON output)"
    else:
        return common.not_available(case, "tacocore", f"needs bench_reader: {reader_help}")

    def attempt(run_dir: str) -> dict:
        stdout = os.path.join(run_dir, "stdout.json")
        out = os.path.join(run_dir, "results.txt")
        if create:
            output = os.path.join(run_dir, "out.tacozip" if case.op == "create_zip" else "out")
            cmd = [taco, "create", "--from", os.path.join(case.data_dir, "input"), output,
                   "--metadata", os.path.join(case.data_dir, "metadata.parquet"), "--id", "bench",
                   "--description", "tacocore benchmark input", "--license", "CC-BY-4.0",
                   "--provider", "tacocore-bench", "--task", "other"]
            if case.op == "create_folder" and "--format" in help_text:
                cmd += ["--format", "folder"]
        elif reader:
            cmd = [reader, MODES[case.op], common.fixture_path(case), "--out", out]
            if case.keys:
                cmd += ["--keys", common.keys_file(case)]
            if case.op == "sql":
                cmd += ["--query", case.query]
            if case.op in ("decode", "raw"):
                cmd += ["--threads", str(case.threads)]
        else:
            query = case.query or "SELECT * FROM data"
            cmd = [taco, "sql", common.fixture_path(case), query, "--json"]
        r = common.run_process(cmd, common.TIMEOUT[profile], stdout)
        if r["rc"] != 0:
            return dict(r, ok=False)
        if create:
            ok, err = common.check_created(case, output)
            return dict(r, ok=ok, error=err, seconds=r["wall"])
        cpu = r["cpu"]
        if reader:
            res = common.last_json(stdout)
            seconds, count = res.get("seconds", r["wall"]), res.get("count", -1)
            cpu = res.get("cpu_seconds", cpu)
        else:
            seconds, count = r["wall"], count_rows(stdout)
        ok, err = common.check_results(case, out, count)
        return dict(r, ok=ok, error=err, seconds=seconds, cpu=cpu, info={"count": count})

    res = common.measure(case, "tacocore", method, profile, attempt, warm_paths)
    res["samples"], res["bytes"] = common.work_size(case, m)
    return res


def python_package() -> tuple[bool, str]:
    r = subprocess.run([common.PY, "-c", "import tacocore; tacocore.load; tacocore.create"],
                       capture_output=True, cwd=common.REPO)
    if r.returncode == 0:
        return True, ""
    return False, (r.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", required=True)
    ap.add_argument("--profile", default="quick", choices=common.PROFILES)
    a = ap.parse_args()
    case = {c.name: c for c in common.cases(a.profile)}.get(a.case)
    if case is None:
        ap.error(f"--case must be one of {[c.name for c in common.cases(a.profile)]}")
    print(json.dumps(run_cli(case, a.profile)), flush=True)
    if python_package()[0]:
        print(json.dumps(reference_runner.run_case(case, a.profile, impl="tacocore")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
