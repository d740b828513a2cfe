#!/usr/bin/env python3
"""Runs one benchmark case with the reference Python tools (tacotoolbox, tacoreader, GDAL) and
prints one JSON line: {case, scenario, tool, method, runs:[s...], peak_rss_bytes, samples, bytes,
ok, error, ...}.

  reference_runner.py --case read_id --profile quick
  reference_runner.py --case read_id --profile quick --impl tacocore    # the tacocore Python package

Every run (one warm-up, then the measured runs) is a fresh Python process (`--child SPEC`): it
imports the packages, prepares what the case needs outside the clock, times only the operation,
and prints {"seconds", "count"}. The parent measures the child's peak RSS (wait4) and then checks
the output; a run whose output does not check out makes the whole case fail.

Timed section per operation:
  create_zip / create_folder  read metadata.parquet, walk the input tree, build Sample/Tortilla/Taco,
                              tacotoolbox.create(..., split_size=None)
  load                        tacoreader.load(zip) + .data (level 0 materialized)
  sql                         ds.sql(query) materialized (the dataset is already loaded)
  read_position / read_id     ds.data.read(key) for every key -> gdal_vsi path
  raw                         read(key) + GDAL VSIFOpenL/VSIFReadL of the sample + CRC-32 (1 or N threads);
                              tacocore: df.read_bytes(key) + CRC-32 (its own API, what the C++ row times);
                              on N threads one df.read_bytes_many(keys, threads=N), then the CRC-32s
  decode_first                the first decode after load(): gdal.Open + ReadRaster of one key (the
                              reference), read_array (tacocore); GDAL not used before in the process
  decode                      read(key) + gdal.Open + ReadRaster of all bands (1 or N threads);
                              tacocore: df.read_array(key) on 1 thread, df.iter_arrays(keys, threads=N)
  nav                         df.read(id) three levels down for every leaf path
"""
from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CHILD_ENV = {"TQDM_DISABLE": "1", "PYTHONHASHSEED": "0"}


# --- the child: one run, in its own process --------------------------------------------------------

class Api:
    """The five names a run needs; the same names exist in the tacocore Python package."""

    def __init__(self, impl: str):
        # pyarrow is imported before the clock for both tools: tacotoolbox and tacoreader import
        # it with themselves, while tacocore imports it only when a result is first turned into
        # Arrow, which would otherwise put ~0.1 s of imports inside tacocore's timed section only.
        # pyarrow.dataset too: the first pq.read_table (build_taco's metadata table) imports it,
        # ~0.24 s of CPU for tacocore against ~0.01 s for tacotoolbox, which has imported most of
        # it already (issue 15, docs/READER.md §9.1).
        import pyarrow  # noqa: F401
        import pyarrow.dataset  # noqa: F401
        import pyarrow.parquet  # noqa: F401
        if impl == "reference":
            common.offline_duckdb()
            import tacoreader
            import tacotoolbox
            from tacotoolbox.datamodel import Sample, Taco, Tortilla
            self.load, self.create = tacoreader.load, tacotoolbox.create
        else:
            import tacocore
            Sample, Tortilla, Taco = tacocore.Sample, tacocore.Tortilla, tacocore.Taco
            self.load, self.create = tacocore.load, tacocore.create
        self.Sample, self.Tortilla, self.Taco = Sample, Tortilla, Taco


def build_taco(api: Api, data_dir: str):
    """Sample/Tortilla/Taco from the generated tree; each tortilla's metadata rows attached in one
    call, `tortilla.extend_with(extension)`, where the extension (a callable of the tortilla, as
    tacotoolbox's Tortilla.extend_with takes) returns those rows as one Arrow table, in sample
    order. Both tools have that call, so the per-sample crossing is batched on both sides (issue
    15); it keeps the Arrow types, as extend_with of 1-row tables per sample did, and is ~2.7x
    faster for tacotoolbox and ~1.6x for tacocore on 10,000 samples (docs/READER.md §9.1)."""
    import pyarrow.parquet as pq
    table = pq.read_table(os.path.join(data_dir, "metadata.parquet"))
    row = {p: i for i, p in enumerate(table.column("path").to_pylist())}
    ext = table.drop_columns(["path"])
    has_ext = ext.num_columns > 0

    def tortilla(directory: str, rel: str):
        samples, rows = [], []
        for e in sorted(os.scandir(directory), key=lambda e: e.name):
            r = f"{rel}/{e.name}" if rel else e.name
            path = tortilla(e.path, r) if e.is_dir() else pathlib.Path(e.path)
            samples.append(api.Sample(id=e.name, path=path))
            rows.append(row[r])
        t = api.Tortilla(samples=samples)
        if has_ext:
            t.extend_with(lambda _tortilla: ext.take(rows))
        return t

    return api.Taco(tortilla=tortilla(os.path.join(data_dir, "input"), ""), id="bench",
                    dataset_version="1.0.0", description="tacocore benchmark input",
                    licenses=["CC-BY-4.0"], providers=[{"name": "tacocore-bench"}], tasks=["other"])


def child(spec: dict) -> dict:
    api = Api(spec["impl"])
    op = spec["op"]
    if op in ("create_zip", "create_folder"):
        c0, t0 = time.process_time(), time.perf_counter()
        taco = build_taco(api, spec["data_dir"])
        api.create(taco, spec["output"], output_format=op.split("_")[1], split_size=None)
        return {"seconds": time.perf_counter() - t0, "count": 0,
                "cpu_seconds": time.process_time() - c0}
    if op == "load":
        c0, t0 = time.process_time(), time.perf_counter()
        n = len(api.load(spec["dataset"]).data)
        return {"seconds": time.perf_counter() - t0, "count": n,
                "cpu_seconds": time.process_time() - c0}
    ds = api.load(spec["dataset"])
    if op == "sql":
        c0, t0 = time.process_time(), time.perf_counter()
        r = ds.sql(spec["query"])
        n = r.num_rows if hasattr(r, "num_rows") else len(r.data if hasattr(r, "data") else r)
        return {"seconds": time.perf_counter() - t0, "count": n,
                "cpu_seconds": time.process_time() - c0}
    df = ds.data
    keys = common.read_lines(spec["keys"])
    if op in ("read_position", "raw", "decode", "decode_first"):
        keys = [int(k) for k in keys]
    if op in ("decode", "decode_first"):
        # numpy (the pixel-sum check) is imported before the clock: tacoreader imports it at its
        # own import, tacocore does not, and its ~0.25 s import inside the clock was most of
        # tacocore-py's decode rows (docs/READER.md §10).
        import numpy as np
    if op == "decode_first":
        # The first pixels after load(), nothing of GDAL warmed by this process beforehand: the
        # reference decodes with GDAL's Python bindings (importing them is on the clock, unless
        # tacoreader already did at its own import), tacocore with its read_array.
        t0 = time.perf_counter()
        if hasattr(df, "read_array"):
            out = [str(int(df.read_array(keys[0]).sum(dtype=np.uint64)))]
        else:
            from osgeo import gdal
            gdal.UseExceptions()
            g = gdal.Open(df.read(keys[0]))
            out = [str(int(np.frombuffer(g.ReadRaster(), np.uint16).sum(dtype=np.uint64)))]
        seconds = time.perf_counter() - t0
        with open(spec["out"], "w") as fh:
            fh.write("\n".join(out) + "\n")
        return {"seconds": seconds, "count": len(out)}
    from osgeo import gdal
    gdal.UseExceptions()
    native_bytes = hasattr(df, "read_bytes")
    out: list = []
    c0, t0 = time.process_time(), time.perf_counter()
    if op in ("read_position", "read_id"):
        out = [df.read(k) for k in keys]
    elif op == "raw":
        # The bytes are read inside the clock and checked (CRC + size) after it, for every tool:
        # the row times reading, not zlib; a CRC inside the clock ran on 2 threads in the C++
        # tool but under the GIL in Python, so it measured the check, not the reader.
        def raw(k):
            if native_bytes:  # tacocore: the package's own read_bytes, as the C++ row's
                return df.read_bytes(k)
            p = df.read(k)
            size = gdal.VSIStatL(p).size
            f = gdal.VSIFOpenL(p, "rb")
            data = gdal.VSIFReadL(1, size, f)
            gdal.VSIFCloseL(f)
            return data

        if spec["threads"] == 1:
            datas = [raw(k) for k in keys]
        elif native_bytes:
            # tacocore: what a user of its API writes for "these samples' bytes on N threads":
            # one read_bytes_many call (native threads, no GIL).
            datas = df.read_bytes_many(keys, threads=spec["threads"])
        else:  # one dataset shared by the threads, as a data loader would
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(spec["threads"]) as pool:
                datas = list(pool.map(raw, keys))
    elif op == "decode":
        def decode(k):
            g = gdal.Open(df.read(k))
            return str(int(np.frombuffer(g.ReadRaster(), np.uint16).sum(dtype=np.uint64)))

        def pixel_sum(a):
            return str(int(a.sum(dtype=np.uint64)))

        if hasattr(df, "iter_arrays"):
            # tacocore: its own decoding, as a user of the package writes it (the C++ row times
            # raster::decode the same way): read_array per key on one thread; on N threads
            # iter_arrays, which decodes ahead on N threads and hands each array over to be
            # summed and dropped (read_arrays would hold all 100: docs/READER.md §10.1).
            if spec["threads"] == 1:
                out = [pixel_sum(df.read_array(k)) for k in keys]
            else:
                out = [pixel_sum(a) for a in df.iter_arrays(keys, threads=spec["threads"])]
        elif spec["threads"] == 1:
            out = [decode(k) for k in keys]
        else:
            from concurrent.futures import ThreadPoolExecutor
            with ThreadPoolExecutor(spec["threads"]) as pool:
                out = list(pool.map(decode, keys))
    elif op == "nav":
        for k in keys:
            node = df
            for part in k.split("/"):
                node = node.read(part)
            out.append(node)
    else:
        raise SystemExit(f"unknown op {op}")
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    if op == "raw":
        out = [f"{zlib.crc32(data):08x} {len(data)}" for data in datas]
    if any(not isinstance(x, str) for x in out):
        raise SystemExit("a key did not resolve to a FILE sample")
    with open(spec["out"], "w") as fh:
        fh.write("\n".join(out) + "\n")
    return {"seconds": seconds, "count": len(out), "cpu_seconds": cpu}


# --- the parent: warm-up + measured runs -------------------------------------------------------------

def prepare(case: common.Case) -> tuple[dict, list[str]]:
    """Generates inputs / the fixture / the keys; returns (manifest, paths to warm before a run)."""
    m = common.ensure_data(case)
    if case.fixture:
        common.ensure_fixture(case)
        if case.keys:
            common.keys_file(case)
        return m, [common.fixture_path(case)]
    return m, [os.path.join(case.data_dir, "input"), os.path.join(case.data_dir, "metadata.parquet")]


def run_case(case: common.Case, profile: str, impl: str = "reference") -> dict:
    tool = "reference" if impl == "reference" else "tacocore-py"
    m, warm_paths = prepare(case)
    env = dict(os.environ, **CHILD_ENV)

    def attempt(run_dir: str) -> dict:
        spec = {"op": case.op, "impl": impl, "data_dir": case.data_dir, "threads": case.threads,
                "query": case.query, "out": os.path.join(run_dir, "results.txt")}
        if case.op.startswith("create"):
            spec["output"] = os.path.join(run_dir, "out.tacozip" if case.op == "create_zip" else "out")
        else:
            spec["dataset"] = common.fixture_path(case)
            spec["keys"] = common.keys_file(case) if case.keys else ""
        stdout = os.path.join(run_dir, "stdout.json")
        r = common.run_process([common.PY, os.path.abspath(__file__), "--child", json.dumps(spec)],
                               common.TIMEOUT[profile], stdout, env)
        if r["rc"] != 0:
            return dict(r, ok=False)
        res = common.last_json(stdout)
        if case.op.startswith("create"):
            ok, err = common.check_created(case, spec["output"])
        else:
            ok, err = common.check_results(case, spec["out"], res.get("count", -1))
        return dict(r, ok=ok, error=err, seconds=res.get("seconds", r["wall"]),
                    cpu=res.get("cpu_seconds", r["cpu"]), info={"count": res.get("count")})

    method = ("tacotoolbox.create" if case.op.startswith("create") else "tacoreader + GDAL")
    if impl != "reference":
        method = "tacocore Python package"
        # The rows where the package's own batch or decode call is what a user writes.
        if case.op == "raw" and case.threads > 1:
            method += " (read_bytes_many)"
        elif case.op == "decode":
            method += " (read_array)" if case.threads == 1 else " (iter_arrays)"
    res = common.measure(case, tool, method, profile, attempt, warm_paths)
    res["samples"], res["bytes"] = common.work_size(case, m)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", help="case name (see common.cases)")
    ap.add_argument("--profile", default="quick", choices=common.PROFILES)
    ap.add_argument("--impl", default="reference", choices=("reference", "tacocore"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        print(json.dumps(child(json.loads(a.child))), flush=True)
        return 0
    case = {c.name: c for c in common.cases(a.profile)}.get(a.case)
    if case is None:
        ap.error(f"--case must be one of {[c.name for c in common.cases(a.profile)]}")
    print(json.dumps(run_case(case, a.profile, a.impl)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
