"""tacocore.torch on a dataset under a directory whose name is not UTF-8. tacocore reaches such a
dataset through a descriptor it holds on the directory (`/proc/self/fd/N/...`), and N is one
process's number. DataLoader workers must read each sample from their own descriptor, whether
they are forked (and reopen the dataset for `read="bytes"`) or spawned (and have no N at all,
or another file under it). Before the fix, a spawned worker's `read="array"` failed, every
worker's `read="bytes"` failed with "not in the dataset when it is opened again", and under
spawn the worker could have opened whatever file its own descriptor N was."""

from __future__ import annotations

import os

import numpy as np
import pytest

import torch  # make setup installs it (scripts/setup.sh)
from osgeo import gdal
from torch.utils.data import DataLoader

import tacocore
from tacocore.torch import TacoDataset, collate

# Not imported from conftest: under `make test` the name resolves to tests/python's conftest.
COLLECTION = dict(id="nonutf8-training", dataset_version="1.0.0", description="tests/training",
                  licenses=["CC-BY-4.0"], providers=[{"name": "tacocore tests"}],
                  tasks=["classification"])


def _keep(batch):
    return batch


def _read_in_worker(item):
    """A transform that opens read="path"'s path in the worker, as a user's rasterio code does."""
    item["data"] = gdal.Open(item["data"]).ReadAsArray()
    return item


@pytest.fixture(scope="module", params=["zip", "folder"])
def hidden(request, tmp_path_factory, rasters) -> bytes:
    """The 40 rasters as one dataset under `.../p\\xff/`, given to load() as bytes."""
    directory, _ = rasters
    parent = os.fsencode(tmp_path_factory.mktemp("nonutf8")) + b"/p\xff"
    os.mkdir(parent)
    out = parent + (b"/d.tacozip" if request.param == "zip" else b"/d")
    samples = [tacocore.Sample(f"t{i:02d}", directory / f"t{i:02d}.tif") for i in range(40)]
    tacocore.create(tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION), out)
    assert "/proc/self/fd/" in tacocore.load(out).data.to_arrow() \
        .column("internal:gdal_vsi")[0].as_py()
    return out


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_arrays_decode_in_workers(hidden, rasters, context):
    _, truth = rasters
    loader = DataLoader(TacoDataset(tacocore.load(hidden)), batch_size=8, num_workers=2,
                        collate_fn=collate, multiprocessing_context=context)
    seen = {}
    for batch in loader:
        for k, sample_id in enumerate(batch["id"]):
            seen[sample_id] = batch["data"][k].numpy().copy()
    assert sorted(seen) == sorted(truth)
    for sample_id, data in seen.items():
        np.testing.assert_array_equal(data, truth[sample_id])


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_bytes_come_from_each_workers_own_handle(hidden, rasters, context):
    directory, _ = rasters
    loader = DataLoader(TacoDataset(tacocore.load(hidden), read="bytes"), batch_size=8,
                        num_workers=2, collate_fn=_keep, multiprocessing_context=context)
    got = {}
    for batch in loader:
        got.update((item["id"], item["data"]) for item in batch)
    assert sorted(got) == [f"t{i:02d}" for i in range(40)]
    for sample_id, data in got.items():
        assert data == (directory / f"{sample_id}.tif").read_bytes(), sample_id


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_paths_open_in_the_worker(hidden, rasters, context):
    _, truth = rasters
    loader = DataLoader(TacoDataset(tacocore.load(hidden), read="path",
                                    transform=_read_in_worker),
                        batch_size=8, num_workers=2, collate_fn=_keep,
                        multiprocessing_context=context)
    seen = {item["id"]: item["data"] for batch in loader for item in batch}
    assert sorted(seen) == sorted(truth)
    for sample_id, data in seen.items():
        np.testing.assert_array_equal(data, truth[sample_id])
