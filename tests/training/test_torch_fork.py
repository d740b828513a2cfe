"""DataLoader workers forked from a process holding tacocore datasets (READER.md §11).

The crash this guards against: a forked worker's garbage collector (run on its queue feeder
thread) destroyed a dataset inherited from the parent, whose DuckDB database then joined worker
threads that stayed in the parent: "Fatal Python error: Aborted" in the worker. The workers'
stderr is the test's own fd 2 (fork inherits it), so capfd sees what they print.
"""

from __future__ import annotations

import gc
import threading

import pytest

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader, Dataset  # noqa: E402

import tacocore  # noqa: E402
from tacocore.torch import TacoDataset, collate  # noqa: E402

CRASH_SIGNS = ("Fatal Python error", "terminate called", "Aborted")


class DropsTheInherited(Dataset):
    """Each worker drops the parent's dataset and collects once it has sent a batch, so that its
    queue feeder thread runs (a thread started in the child is what made the old teardown
    abort)."""

    def __init__(self, parent_dataset, n: int) -> None:
        self.parent_dataset = parent_dataset
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i >= self.n // 2:  # the second batch of each of the two workers
            assert threading.active_count() > 1, "the worker's feeder thread runs"
            self.parent_dataset = None
            gc.collect()
        return i


class QueriesTheInherited(DropsTheInherited):
    def __getitem__(self, i: int) -> int:
        return len(self.parent_dataset.sql("SELECT id FROM data").data)


def assert_no_crash(capfd) -> None:
    err = capfd.readouterr().err
    for sign in CRASH_SIGNS:
        assert sign not in err, f"{sign!r} on a worker's stderr:\n{err}"


def queried(path: str) -> tacocore.TacoDataset:
    ds = tacocore.load(path)
    assert len(ds.sql("SELECT id FROM data").data) == 40  # DuckDB's threads are running
    return ds


def test_workers_collect_an_inherited_dataset(raster_zip, capfd):
    # Only the torch dataset refers to it, so dropping it there frees it in the worker.
    loader = DataLoader(DropsTheInherited(queried(raster_zip), 8), batch_size=2, num_workers=2,
                        multiprocessing_context="fork")
    assert sorted(int(i) for batch in loader for i in batch) == list(range(8))
    assert_no_crash(capfd)


def test_a_worker_using_an_inherited_dataset_is_told_to_load_again(raster_zip, capfd):
    loader = DataLoader(QueriesTheInherited(queried(raster_zip), 4), batch_size=2, num_workers=2,
                        multiprocessing_context="fork")
    with pytest.raises(tacocore.TacoQueryError, match=r"fork\(\).*load\(\) again"):
        list(loader)
    assert_no_crash(capfd)


@pytest.mark.parametrize("ring_slots", [0, 6])
def test_bytes_workers_replace_the_inherited_handle(raster_zip, capfd, ring_slots):
    # read="bytes" reopens the dataset in each worker: the inherited handle is dropped there.
    ds = TacoDataset(raster_zip, read="bytes", transform=_collect_then_size, ring_slots=ring_slots)
    expected = [len(ds.rows.read_bytes(i)) for i in range(len(ds))]
    loader = DataLoader(ds, batch_size=10, num_workers=2, collate_fn=collate,
                        multiprocessing_context="fork")
    sizes = [int(s) for batch in loader for s in batch["data"]]
    assert sizes == expected
    assert_no_crash(capfd)


def _collect_then_size(item):
    gc.collect()
    item["data"] = len(item["data"])
    return item
