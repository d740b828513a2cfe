"""The GIL is released around I/O and decoding.

Two kinds of evidence:
- gil_probe.py (subprocess): a call blocked inside C++ on a named pipe lets the main Python thread
  run; deterministic, and a call that kept the GIL would hang (caught by the timeout);
- real workloads: while a background thread decodes or writes, the main thread keeps executing
  Python. With forced GIL switches turned off, the main thread can run during the call only if
  the call released the GIL, so the check counts its turns rather than timing them (a busy
  machine changes the timing, not the count).
The other entry points (Dataset.data_raw/columns, validate) release the GIL the same way in
python/src/bind_reader.cpp (nb::gil_scoped_release / call_guard); DataFrame.read releases it just
before it waits and only then (test_read_gives_the_gil_up_only_when_it_waits); to_arrow() runs
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
@pytest.mark.allowed_skip(reason="named pipes are POSIX: the probe cannot block a call without one")
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


def ticks_inside(work) -> tuple[int, int]:
    """Runs work() in a background thread while the main thread loops; returns (loops the main
    thread ran while work() was in progress, loops in all).

    A count, not a clock, so a busy machine cannot change the verdict. The switch interval is
    raised to 10 s for the measurement, so the interpreter never forces the GIL from one thread
    to the other: each thread runs only when the other gives the GIL up. The main loop gives it up
    at every turn (time.sleep(0)), so the background thread starts and runs its Python at once;
    the background thread gives it up only where C++ releases it. A call that holds the GIL for
    its whole length (under 10 s) therefore lets the main thread run exactly 0 loops inside it;
    one that releases it lets the loop spin for as long as the call runs in C++."""
    state = {"inside": False, "done": False}

    def background():
        state["inside"] = True
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - re-raised below, in the test's thread
            state["error"] = exc
        finally:
            state["inside"] = False
            state["done"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        thread = threading.Thread(target=background)
        thread.start()
        inside = total = 0
        while not state["done"]:
            if state["inside"]:
                inside += 1
            total += 1
            time.sleep(0)  # gives the GIL up: the background thread runs whenever it wants to
        thread.join()
    finally:
        sys.setswitchinterval(old)
    if "error" in state:
        raise state["error"]
    return inside, total


# A call that releases the GIL for its heavy part lets the main loop turn thousands of times
# (each turn is microseconds). A few turns can come from a call that holds the GIL but drops it
# briefly (an open(), a small write from Python): those must not pass.
MIN_TURNS_INSIDE = 20


def assert_gil_released(work, what: str):
    inside, total = ticks_inside(work)
    assert inside >= MIN_TURNS_INSIDE, (
        f"{what}: the main thread ran only {inside} times while the call ran ({total} in all): "
        f"the call held the GIL")


def test_the_check_catches_a_call_that_holds_the_gil():
    import random

    rng = random.Random(7)
    data = [rng.random() for _ in range(300_000)]

    def holds_gil():  # list.sort runs in C without releasing the GIL
        sorted(data)

    with pytest.raises(AssertionError, match="held the GIL"):
        assert_gil_released(holds_gil, "sorted()")
    inside, _ = ticks_inside(holds_gil)
    assert inside == 0


def test_the_check_passes_a_call_that_releases_the_gil():
    inside, _ = ticks_inside(lambda: time.sleep(0.05))  # sleeps in C without the GIL
    assert inside >= MIN_TURNS_INSIDE
    assert_gil_released(lambda: time.sleep(0.05), "time.sleep")


def test_read_arrays_runs_while_python_runs(geotiff_zip):
    df = tacocore.load(geotiff_zip).data
    keys = list(range(len(df))) * 4
    assert_gil_released(lambda: df.read_arrays(keys, threads=1), "read_arrays(threads=1)")


def test_create_runs_while_python_runs(tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(np.random.default_rng(1).bytes(16 << 20))
    samples = [tacocore.Sample(f"s{i}", blob) for i in range(8)]  # 128 MiB to copy and CRC
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    out = tmp_path / "big.tacozip"
    assert_gil_released(lambda: tacocore.create(taco, out), "create(128 MiB)")
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


def test_read_gives_the_gil_up_only_when_it_waits(fixture_paths):
    # DataFrame.read releases the GIL just before it waits (a FOLDER's children, from __meta__ or
    # the cache), not around the in-memory path of a ZIP member, where releasing and taking the
    # GIL back cost as much as the read (docs/READER.md §10.1).
    top = tacocore.load(fixture_paths["reader-zip-nested"]).data
    leaf = top.read(2)
    inside, _ = ticks_inside(lambda: [leaf.read(i % 3) for i in range(30_000)])
    assert inside == 0, f"FILE reads of a ZIP gave the GIL up ({inside} turns of the main thread)"
    # A FOLDER read of cached children waits only microseconds without the GIL, so how many of
    # those windows the main thread wakes in depends on the scheduler: 8 turns in 3,000 reads on
    # a loaded CI machine, hundreds on an idle one. Rounds are added until the turns are enough;
    # a read that held the GIL gives 0 turns in every round, however many there are.
    inside = rounds = 0
    deadline = time.monotonic() + 20
    while inside < MIN_TURNS_INSIDE and time.monotonic() < deadline:
        inside += ticks_inside(lambda: [top.read(i % 3) for i in range(3_000)])[0]
        rounds += 1
    assert inside >= MIN_TURNS_INSIDE, (
        f"FOLDER reads: the main thread ran only {inside} times in {rounds} rounds of 3,000 reads: "
        f"the reads held the GIL")
