"""DataFrame.read_bytes_many (issue 15): many samples' bytes in one call, read on native threads.

It must give exactly what a loop of read_bytes gives, in the keys' order, for every kind of key and
frame, raise the same error naming the key that fails, and let Python run while it reads. The
per-call read/read_bytes fast path (no Python-level checks for int/str keys) is held to the same
answers and errors as the checked path here too.
"""

from __future__ import annotations

import os
import random
import zlib

import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS
from test_gil import assert_gil_released


def blob(i: int, size: int) -> bytes:
    return random.Random(i).randbytes(size)


@pytest.fixture(scope="module", params=["zip", "folder"])
def flat(request, tmp_path_factory):
    """A flat dataset of 300 samples of different sizes (0 B to 70 KiB: on both sides of the
    size up to which read_bytes keeps the GIL), as ZIP and FOLDER; returns (path, {id: bytes})."""
    sizes = [0, 1, 4096, 65536, 65537, 70_000] + [random.Random(k).randrange(1, 9000) for k in range(294)]
    expected = {f"s{i:03d}": blob(i, n) for i, n in enumerate(sizes)}
    samples = [tacocore.Sample(k, v) for k, v in expected.items()]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **{**COLLECTION_DEFAULTS, "id": "flat"})
    out = tmp_path_factory.mktemp("flat") / ("flat.tacozip" if request.param == "zip" else "flat")
    return str(tacocore.create(taco, out)[0]), expected


def test_same_bytes_as_one_at_a_time_for_positions_and_ids(flat):
    path, expected = flat
    df = tacocore.load(path).data
    ids = list(expected)
    rng = random.Random(3)
    positions = [rng.randrange(len(ids)) for _ in range(2000)]  # repeats included
    by_position = df.read_bytes_many(positions, threads=2)
    assert by_position == [df.read_bytes(p) for p in positions]
    assert by_position == [expected[ids[p]] for p in positions]
    mixed = [ids[p] if i % 2 else p for i, p in enumerate(positions)]
    assert df.read_bytes_many(mixed, threads=2) == by_position
    assert all(type(b) is bytes for b in by_position)


@pytest.mark.parametrize("threads", [None, 0, 1, 2, 7])
def test_every_thread_count_gives_the_same_list(flat, threads):
    path, expected = flat
    df = tacocore.load(path).data
    keys = list(range(len(expected)))[::-1]
    assert df.read_bytes_many(keys, threads=threads) == [expected[k] for k in list(expected)[::-1]]


def test_any_iterable_and_any_integer_type(flat):
    np = pytest.importorskip("numpy")
    path, expected = flat
    df = tacocore.load(path).data
    first = list(expected.values())[:5]
    assert df.read_bytes_many(range(5)) == first
    assert df.read_bytes_many(iter(["s000", "s001"])) == first[:2]
    assert df.read_bytes_many(np.arange(5)) == first
    assert df.read_bytes_many([]) == []


def test_errors_name_the_key_and_return_nothing(flat):
    path, expected = flat
    df = tacocore.load(path).data
    n = len(expected)
    with pytest.raises(tacocore.TacoNavigationError, match=rf"Position {n} out of range \[0, {n - 1}\]"):
        df.read_bytes_many([0, 1, n, 2], threads=2)
    with pytest.raises(tacocore.TacoNavigationError, match="ID 'nope' not found"):
        df.read_bytes_many(["s000", "nope"], threads=2)
    with pytest.raises(tacocore.TacoNavigationError, match="out of range"):
        df.read_bytes_many([-1])
    with pytest.raises(tacocore.TacoNavigationError, match="not float"):
        df.read_bytes_many([0, 1.5])
    with pytest.raises(tacocore.TacoNavigationError, match="not bool"):
        df.read_bytes_many([True])
    with pytest.raises(tacocore.TacoNavigationError, match="no table has that many rows"):
        df.read_bytes_many([2**70])
    with pytest.raises(ValueError, match="not valid Unicode"):
        df.read_bytes_many(["bad\udcff"])
    for threads in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"read_bytes_many\(threads=...\)"):
            df.read_bytes_many([0], threads=threads)


def test_a_folder_is_refused_naming_it(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data
    with pytest.raises(tacocore.TacoNavigationError, match="'valencia' is a FOLDER"):
        df.read_bytes_many([0])
    children = df.read("tokyo")
    assert children.read_bytes_many(["mask", "image"]) == [children.read_bytes("mask"), children.read_bytes("image")]


def test_a_closed_dataset_refuses(flat):
    path, _ = flat
    ds = tacocore.load(path)
    df = ds.data
    ds.close()
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        df.read_bytes_many([0, 1])
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        df.read_bytes(0)
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        df.read("s000")


def test_a_derived_frame_reads_its_own_rows(flat):
    """A frame whose rows are not the native ones (a filter in the backend) maps each key to its
    own row first, as read_bytes does."""
    pytest.importorskip("pandas")
    path, expected = flat
    df = tacocore.load(path, backend="pandas").data
    subset = df[df["id"].isin(["s010", "s020", "s030"])]
    assert subset.read_bytes_many([2, 0, "s020"]) == [expected["s030"], expected["s010"], expected["s020"]]


def test_per_call_fast_path_keeps_the_checked_errors(flat):
    np = pytest.importorskip("numpy")
    path, expected = flat
    df = tacocore.load(path).data
    assert df.read_bytes(np.int64(3)) == expected["s003"] == df.read_bytes("s003")
    assert df.read(np.int32(3)) == df.read(3) == df.read("s003")
    with pytest.raises(tacocore.TacoNavigationError, match="no table has that many rows"):
        df.read(2**64)
    with pytest.raises(tacocore.TacoNavigationError, match="no table has that many rows"):
        df.read_bytes(-(2**64))
    with pytest.raises(tacocore.TacoNavigationError, match="not bool"):
        df.read_bytes(False)
    with pytest.raises(tacocore.TacoNavigationError, match="ID 'missing' not found"):
        df.read("missing")


def test_reads_bytes_while_python_runs(tmp_path):
    """Locating and reading run without the GIL: a FOLDER dataset, whose every sample is a file
    of its own to open, read 30,000 times in one call on one thread."""
    samples = [tacocore.Sample(f"f{i}", blob(i, 1024)) for i in range(300)]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **{**COLLECTION_DEFAULTS, "id": "many"})
    df = tacocore.load(tacocore.create(taco, tmp_path / "many")[0]).data
    keys = list(range(300)) * 100
    assert_gil_released(lambda: df.read_bytes_many(keys, threads=1), "read_bytes_many(threads=1)")


def test_many_threads_share_one_frame(flat):
    """Python threads each calling read_bytes_many on one frame get the same answers."""
    import threading

    path, expected = flat
    df = tacocore.load(path).data
    want = zlib.crc32(b"".join(expected.values()))
    results, errors = [], []

    def work():
        try:
            results.append(zlib.crc32(b"".join(df.read_bytes_many(range(len(expected)), threads=2))))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and results == [want] * 6


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_fifo_in_place_of_a_sample_is_refused(tmp_path):
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"xx"), tacocore.Sample("b", b"yy")]),
                         **COLLECTION_DEFAULTS)
    out = tacocore.create(taco, tmp_path / "ds")[0]
    fifo = os.path.join(out, "DATA", "b")
    os.unlink(fifo)
    os.mkfifo(fifo)
    df = tacocore.load(out).data
    with pytest.raises(tacocore.TacoIOError):
        df.read_bytes_many([0, 1])
    assert df.read_bytes_many([0]) == [b"xx"]
