"""DataFrame.iter_arrays (issue 15): rasters decoded ahead on native threads, handed over one at a
time in the keys' order, so a loop that uses and drops each keeps only a few alive."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tacocore


@pytest.mark.parametrize("threads", [None, 0, 1, 2, 5])
def test_same_arrays_in_order_as_read_arrays(geotiff_zip, geotiffs, threads):
    _, pixels = geotiffs
    df = tacocore.load(geotiff_zip).data
    keys = [5, "g00", 47, 5, 12]
    got = list(df.iter_arrays(keys, threads=threads))
    want = df.read_arrays(keys, threads=2)
    assert len(got) == len(keys)
    for a, b, k in zip(got, want, [5, 0, 47, 5, 12]):
        assert a.dtype == b.dtype == np.uint16 and a.shape == b.shape == (4, 256, 256)
        assert np.array_equal(a, b) and np.array_equal(a, pixels[k])


def test_any_iterable_and_empty(geotiff_zip):
    df = tacocore.load(geotiff_zip).data
    assert list(df.iter_arrays([])) == []
    assert len(list(df.iter_arrays(range(3), threads=2))) == 3
    assert len(list(df.iter_arrays(np.arange(3)))) == 3


def test_bounded_lookahead_and_early_stop(geotiff_zip):
    """Stopping after two arrays returns; the decodes still queued are dropped, not awaited for
    the whole list, and the threads end."""
    df = tacocore.load(geotiff_zip).data
    before = threading.active_count()
    it = df.iter_arrays(list(range(48)) * 4, threads=2)
    first = [next(it), next(it)]
    it.close()
    assert [a.shape for a in first] == [(4, 256, 256)] * 2
    assert threading.active_count() == before


def test_errors_name_the_key_when_reached(geotiff_zip, demo_datasets):
    df = tacocore.load(geotiff_zip).data
    it = df.iter_arrays([0, 1, 999], threads=2)
    # keys are resolved as the iteration reaches them (the look-ahead reaches 999 early)
    with pytest.raises(tacocore.TacoNavigationError, match=r"Position 999 out of range \[0, 47\]"):
        list(it)
    with pytest.raises(tacocore.TacoNavigationError, match="ID 'nope' not found"):
        list(df.iter_arrays(["g01", "nope"]))
    folders = tacocore.load(demo_datasets["zip"]).data
    with pytest.raises(tacocore.TacoNavigationError, match="'lima' is a FOLDER"):
        list(folders.iter_arrays(["lima"]))
    for threads in (-1, 2.0, True):
        with pytest.raises(ValueError, match=r"iter_arrays\(threads=...\)"):
            list(df.iter_arrays([0], threads=threads))


def test_a_closed_dataset_refuses(geotiff_zip):
    ds = tacocore.load(geotiff_zip)
    df = ds.data
    ds.close()
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        list(df.iter_arrays([0]))


def test_closing_during_the_iteration_stops_it(geotiff_zip):
    # As every read after close(): the next array raises; before, the started iterator went on.
    ds = tacocore.load(geotiff_zip)
    df = ds.data
    arrays = df.iter_arrays(range(len(df)), threads=2)
    next(arrays)
    ds.close()
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        next(arrays)


def test_decoding_runs_while_python_runs(geotiff_zip):
    from test_gil import assert_gil_released

    df = tacocore.load(geotiff_zip).data
    keys = list(range(48)) * 4

    def work():
        for a in df.iter_arrays(keys, threads=1):
            del a

    assert_gil_released(work, "iter_arrays(threads=1)")


def test_a_sample_gdal_cannot_decode_fails_after_the_arrays_before_it(geotiffs, make_taco, tmp_path):
    """The decoding runs ahead on native threads, but an undecodable sample raises only when the
    loop reaches it, naming it, after every array before it was yielded."""
    directory, pixels = geotiffs
    samples = [tacocore.Sample(f"g{i}", directory / f"g{i:02d}.tif") for i in range(3)]
    samples.insert(2, tacocore.Sample("notes", b"these bytes are no GeoTIFF"))
    path = tacocore.create(make_taco(samples), tmp_path / "mixed.tacozip")[0]
    df = tacocore.load(path).data
    got = []
    with pytest.raises(tacocore.TacoError, match="mixed.tacozip"):
        for a in df.iter_arrays(["g0", "g1", "notes", "g2"], threads=2):
            got.append(a)
    assert len(got) == 2
    assert np.array_equal(got[0], pixels[0]) and np.array_equal(got[1], pixels[1])
