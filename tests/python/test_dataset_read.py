"""TacoDataset.read(key) (tacoreader's name): the same answers as ``ds.data.read(key)``, with the
view run once for a loop of reads instead of once per read (issue 15)."""

from __future__ import annotations

import pytest

import tacocore


def test_same_answers_as_data_read_and_the_rows_are_kept(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    frame = ds.data
    assert ds.read(0).read(0) == frame.read(0).read(0)
    assert ds.read("lima").read_bytes("mask") == frame.read("lima").read_bytes("mask")
    kept = ds._read_frame
    assert kept is not None
    ds.read(2)
    assert ds._read_frame is kept  # not run again
    with pytest.raises(tacocore.TacoNavigationError, match="Position 3 out of range"):
        ds.read(3)


def test_a_view_reads_its_own_rows(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    view = ds.sql("SELECT * FROM data WHERE id = 'tokyo'")
    assert view.read(0).read_bytes("mask") == ds.read("tokyo").read_bytes("mask")
    with pytest.raises(tacocore.TacoNavigationError, match="out of range"):
        view.read(1)


def test_clear_cache_and_close_drop_the_rows(demo_datasets):
    ds = tacocore.load(demo_datasets["folder"])
    ds.read(0)
    tacocore.clear_cache()
    assert ds._read_frame is None
    assert ds.read("valencia").read_bytes("image") == ds.data.read("valencia").read_bytes("image")
    ds.close()
    assert ds._read_frame is None
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        ds.read(0)
