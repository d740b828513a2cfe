"""The benchmark scripts of bench/python and bench/bench_reader_paired.py run end to end at toy sizes and print their JSON
(the numbers themselves are measured by `bench/python/*.py` at full size, see its README)."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench" / "python"


def run(script: str, *args) -> dict:
    proc = subprocess.run([sys.executable, str(BENCH / script), *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr[-3000:]  # 1 = ran, bound not met (toy sizes)
    return json.loads(proc.stdout)


def test_to_arrow_benchmark_runs(tmp_path):
    doc = run("bench_to_arrow.py", "--rows", 3000, "--repeat", 1, "--work", tmp_path, "--json", tmp_path / "r.json")
    assert doc["rows"] == 3000
    assert doc["duckdb_same_types"] is True
    assert set(doc["seconds"]) == {"tacocore.to_arrow", "tacocore.data", "duckdb.export"}
    assert doc["ratio_to_arrow_vs_duckdb"] > 0
    assert doc["machine"]["logical_cores"] >= 1
    assert json.loads((tmp_path / "r.json").read_text()) == doc


def test_read_arrays_benchmark_runs(tmp_path):
    doc = run("bench_read_arrays.py", "--samples", 6, "--repeat", 1, "--work", tmp_path)
    assert doc["samples"] == 6
    assert set(doc["seconds"]) == {"threads=1", "threads=2"}
    assert doc["speedup_median"] > 0
    assert len(doc["control_speedup"]["runs"]) == 1


def test_paired_reader_benchmark_runs():
    repo = BENCH.parents[1]
    build = pathlib.Path(os.environ.get("TACO_BUILD_DIR", repo / "build"))
    fixture = repo / "tests" / "fixtures" / "reference" / "tacoreader" / "zip" / "flat" / "flat.tacozip"
    proc = subprocess.run([sys.executable, str(repo / "bench" / "bench_reader_paired.py"), str(fixture), "--runs", "2",
                           "--bench-reader", str(build / "bin" / "bench_reader")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    assert len(doc["tacocore_seconds"]) == 2 and len(doc["tacoreader_seconds"]) == 2
    assert doc["tacocore_median"] > 0 and doc["tacoreader_median"] > 0
    # The script rounds the medians to 4 decimals and the ratio to 2: on this tiny fixture the
    # medians are milliseconds, so the rounding alone can move the recomputed ratio by a few %.
    ratio = doc["tacoreader_median"] / doc["tacocore_median"]
    assert doc["ratio_of_medians"] == pytest.approx(ratio, rel=0.05, abs=0.01)


def test_spacetime_benchmark_runs(tmp_path):
    repo = BENCH.parents[1]
    proc = subprocess.run([sys.executable, str(repo / "bench" / "bench_spacetime.py"), "--quick",
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]  # 0: both tools kept the same rows
    doc = json.loads(proc.stdout)
    assert len(doc["cases"]) == 3
    assert all(c["same_rows"] and c["tacocore"]["rows"] > 0 for c in doc["cases"].values())


def test_generate_no_files_writes_only_the_metadata(tmp_path):
    """bench/generate.py --no-files (the 1M-row read fixtures of issue 15): the same metadata table
    as with files, no input tree, and a refusal for inputs whose samples have bytes."""
    gen = BENCH.parent / "generate.py"
    common = ["--samples", "40", "--size-dist", "fixed:0", "--columns", "5", "--seed", "3"]
    for out, extra in ((tmp_path / "with", []), (tmp_path / "without", ["--no-files"])):
        proc = subprocess.run([sys.executable, str(gen), "--out", str(out), *common, *extra],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert len(os.listdir(tmp_path / "with" / "input")) == 40
    assert os.listdir(tmp_path / "without" / "input") == []
    assert ((tmp_path / "with" / "metadata.parquet").read_bytes()
            == (tmp_path / "without" / "metadata.parquet").read_bytes())
    manifest = json.loads((tmp_path / "without" / "manifest.json").read_text())
    assert manifest["params"]["files"] is False and manifest["root_samples"] == 40
    refused = subprocess.run([sys.executable, str(gen), "--out", str(tmp_path / "bytes"), "--samples", "4",
                              "--size-dist", "fixed:4KiB", "--no-files"], capture_output=True, text=True, timeout=120)
    assert refused.returncode != 0 and "--no-files is for flat zero-byte samples" in refused.stderr
def test_decode_floor_benchmark_runs(tmp_path):
    """bench/bench_decode_floor.py at the tiny profile: every decoder returns the right pixel sums
    (the script asserts them) and each row carries wall and CPU seconds."""
    repo = BENCH.parents[1]
    build = pathlib.Path(os.environ.get("TACO_BUILD_DIR", repo / "build"))
    if not (build / "bin" / "bench_reader").exists():
        pytest.skip("bench_reader not built")
    proc = subprocess.run([sys.executable, str(repo / "bench" / "bench_decode_floor.py"), "--profile", "tiny",
                           "--runs", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, TACOCORE_BIN_DIR=str(build / "bin")))
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout)
    assert set(doc["rows"]) == {f"{impl}_t{t}" for impl in ("floor", "reference", "tacocore", "tacocore-py")
                                for t in (1, 2)}
    assert all(r["wall"] > 0 and r["cpu"] > 0 for r in doc["rows"].values())


def _run_bench(script: str, *args: str) -> dict:
    """Runs bench/<script> with `args` and returns the JSON object it prints."""
    proc = subprocess.run([sys.executable, str(BENCH.parents[1] / "bench" / script), *args],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_geostats_benchmark_runs(tmp_path):
    doc = _run_bench("bench_geostats.py", "--files", "6", "--size", "64", "--runs", "1", "--out", str(tmp_path))
    assert set(doc["median"]) >= {"tacocore_1", "tacocore_2", "tacotoolbox"}
    assert all(m["cpu"] >= 0 and m["wall"] > 0 for m in doc["median"].values())
    assert not list(pathlib.Path(tmp_path).rglob("*.aux.xml"))  # the reference's side files removed


def test_v1_api_benchmark_runs(tmp_path):
    """bench_v1_api.py on a tiny input: both tools measured, and their checks agree (the script
    exits non-zero when they do not)."""
    doc = _run_bench("bench_v1_api.py", "--samples", "300", "--runs", "1", "--out", str(tmp_path))
    for case in ("load", "read", "compile"):
        ref, ours = doc[case]["reference"], doc[case]["tacocore"]
        assert ref["check"] == ours["check"] and ours["wall"] > 0 and ref["wall"] > 0
    assert doc["load"]["tacocore"]["check"][0] == 300
    assert doc["read"]["tacocore"]["check"][0] == 300  # every row once (1,000 on the real input)
    assert doc["compile"]["tacocore"]["check"][0] == 30


def test_tacozip_benchmark_runs(tmp_path):
    """bench_tacozip.py on a tiny input: both tools measured, and their checks (archive size,
    header read back) agree (the script exits non-zero when they do not)."""
    doc = _run_bench("bench_tacozip.py", "--files", "50", "--big", "1", "--runs", "1", "--out", str(tmp_path))
    for case in ("create_small", "create_big", "update", "read"):
        ref, ours = doc[case]["reference"], doc[case]["tacocore"]
        assert ref["check"] == ours["check"] and ours["wall"] > 0 and ref["wall"] > 0
    assert doc["create_small"]["tacocore"]["check"][1] == []   # the placeholder header
    assert len(doc["update"]["tacocore"]["check"]) == 1       # the pair written, read back
