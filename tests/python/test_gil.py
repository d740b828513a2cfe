"""The GIL is released around I/O and decoding.

Two kinds of evidence:
- gil_probe.py (subprocess): a call blocked inside C++ on a named pipe lets the main Python thread
  run; deterministic, and a call that kept the GIL would hang (caught by the timeout);
- real workloads: while a background thread decodes or writes, the main thread keeps executing
  Python; the longest pause it sees must be far shorter than the call.
The other entry points (Dataset.data_raw/columns, DataFrame.read, validate) release the GIL the
same way in python/src/bind_reader.cpp (nb::gil_scoped_release / call_guard); to_arrow() runs
DuckDB's conversion inside pyarrow's stream reader, which releases it too.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS

PROBE = pathlib.Path(__file__).with_name("gil_probe.py")
REFUSES_FIFO = {"load", "read_bytes", "read_bytes_many", "read_array", "read_arrays"}


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("op", ["load", "data", "count", "read_array", "read_arrays", "read_bytes",
                                "read_bytes_many"])
def test_blocked_call_lets_python_run(op):
    try:
        proc = subprocess.run([sys.executable, str(PROBE), op], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{op} held the GIL while blocked in C++ (the probe hung)")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if op in REFUSES_FIFO:
        # tacocore opens its own files non-blocking and refuses a FIFO at once (hardening item 4),
        # and checks the file behind a GDAL path before GDAL opens it, so these calls never block
        # on one; the other calls block inside DuckDB. Decoding releases the GIL: see the real
        # workloads below.
        assert result["finished"] and result.get("raised") == "TacoIOError", result
        return
    assert result["main_thread_ran_during_call"], result
    assert result["finished"], result


def longest_pause(work) -> tuple[float, float, int]:
    """Runs work() in a thread; returns (call seconds, longest gap between two iterations of a
    Python loop in the main thread while it ran, iterations)."""
    started = threading.Event()
    done = threading.Event()
    span = {}

    def background():
        started.set()
        t0 = time.perf_counter()
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - re-raised below (else the loop never ends)
            span["error"] = exc
        span["seconds"] = time.perf_counter() - t0
        done.set()

    thread = threading.Thread(target=background)
    thread.start()
    started.wait()
    last = time.perf_counter()
    gap, n = 0.0, 0
    while not done.is_set():
        now = time.perf_counter()
        gap = max(gap, now - last)
        last = now
        n += 1
    thread.join()
    if "error" in span:
        raise span["error"]
    return span["seconds"], gap, n


def assert_gil_released(work, what: str, min_seconds: float = 0.25):
    """The main thread's loop must keep a good part of the speed it has while the background
    thread merely sleeps (GIL free). A call that holds the GIL lets it run only when the
    interpreter forces a switch, at well under 10 % of that speed, with long stalls."""
    sleep_seconds, _, sleep_n = longest_pause(lambda: time.sleep(0.2))
    baseline = sleep_n / sleep_seconds
    seconds, gap, n = longest_pause(work)
    if seconds < min_seconds:
        pytest.skip(f"{what} took only {seconds:.3f} s: too short to tell")
    rate = n / seconds
    assert rate > 0.1 * baseline, (f"{what}: the main thread ran {rate:,.0f} iterations/s during the call, "
                                   f"{baseline:,.0f}/s while the other thread slept")
    assert gap < 0.5 * seconds, f"{what}: main thread stalled {gap:.3f} s of a {seconds:.3f} s call"


def test_the_check_catches_a_call_that_holds_the_gil():
    import random

    rng = random.Random(7)
    data = [rng.random() for _ in range(1_000_000)]

    def holds_gil():  # one list.sort: runs in C without releasing the GIL
        sorted(data)

    with pytest.raises(AssertionError, match="iterations/s|stalled"):
        assert_gil_released(holds_gil, "sorted()", min_seconds=0.05)


def test_read_arrays_runs_while_python_runs(geotiff_zip):
    df = tacocore.load(geotiff_zip).data
    keys = list(range(len(df))) * 4
    assert_gil_released(lambda: df.read_arrays(keys, threads=1), "read_arrays(threads=1)", min_seconds=0.1)


def test_create_runs_while_python_runs(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(np.random.default_rng(1).bytes(16 << 20))
    samples = [tacocore.Sample(f"s{i}", blob) for i in range(8)]  # 128 MiB to copy and CRC
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    out = tmp_path / "big.tacozip"
    assert_gil_released(lambda: tacocore.create(taco, out), "create(128 MiB)", min_seconds=0.1)
    assert tacocore.load(out).data.read_bytes("s7")[:64] == blob.read_bytes()[:64]


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_one_dataset_shared_by_many_threads(fmt, demo_datasets):
    """With the GIL released, threads run the core concurrently on one Dataset / DataFrame:
    queries, navigation, bytes, Arrow export and decoding must give the same answers."""
    ds = tacocore.load(demo_datasets[fmt])
    df = ds.data
    expected_mask = df.read("tokyo").read_bytes("mask")
    errors = []

    def work(k):
        try:
            for i in range(8):
                frame = ds.data if (i + k) % 3 == 0 else df
                child = frame.read("tokyo" if i % 2 else 2)
                assert child.read_bytes("mask") == expected_mask
                assert ds.sql(f"SELECT * FROM data WHERE cloud_cover > {i}").data.to_arrow().num_rows >= 1
                assert ds.sql("SELECT * FROM level1").count() == 6
                assert [a.shape for a in child.read_arrays([0, 1], threads=1)] == [(3, 64, 64), (1, 64, 64)]
        except Exception as exc:  # noqa: BLE001 - collected and reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
