"""tacocore.torch's batch ring: DataLoader workers reuse shared batch buffers, a batch crosses to
the main process as a few bytes, and no buffer is written while the user still holds a batch or
any view of it (python/tacocore/_torch_ring.py has the protocol)."""

from __future__ import annotations

import gc
import os
import pickle

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from multiprocessing.reduction import ForkingPickler  # noqa: E402

from torch.utils.data import DataLoader  # noqa: E402

from tacocore import _torch_ring  # noqa: E402
from tacocore.torch import TacoDataset, TacoIterableDataset, collate  # noqa: E402


def check_batch(batch, truth) -> None:
    for k, sample_id in enumerate(batch["id"]):
        np.testing.assert_array_equal(batch["data"][k].numpy(), truth[sample_id],
                                      err_msg=f"pixels of {sample_id}")


def shm_mappings() -> int:
    """Mappings of torch shared-memory segments in this process."""
    with open("/proc/self/maps") as f:
        return sum(1 for line in f if "/torch_" in line or "memfd:" in line)


def dev_shm(pids) -> set:
    """Files torch made in /dev/shm for these processes ("torch_<pid>_..."): other processes on
    the machine may use /dev/shm meanwhile."""
    names = os.listdir("/dev/shm") if os.path.isdir("/dev/shm") else []
    return {n for n in names for pid in pids if n.startswith(f"torch_{pid}_")}


# --- the protocol, in one process ------------------------------------------------------------

def test_a_slot_is_free_again_only_when_the_batch_and_every_view_are_gone():
    ring = _torch_ring.WorkerRing(2, 3, (2, 4, 4), torch.uint16)
    buffer = ring.take(3)
    assert buffer is not None and _torch_ring.ring_of(buffer) == (ring, 0)
    buffer.copy_(torch.arange(3 * 2 * 16, dtype=torch.int32).view(3, 2, 4, 4).to(torch.uint16))
    expected = buffer.clone()
    sent = _torch_ring.Batch({"data": buffer, "index": torch.tensor([7, 8, 9]),
                              "id": ["a", "b", "c"]})
    first = ForkingPickler.dumps(sent)
    # First crossing: the state array and the slot's storage travel with it; later ones not.
    second = ForkingPickler.dumps(_torch_ring.Batch({"data": buffer}))
    assert len(second) < len(first) and len(second) < 300
    got = pickle.loads(first)
    assert type(got) is dict and type(got["data"]) is torch.Tensor
    assert got["index"].tolist() == [7, 8, 9] and got["index"].dtype == torch.int64
    assert got["id"] == ["a", "b", "c"]
    assert torch.equal(got["data"], expected)
    assert ring.state_np[0] == 1  # taken: the main process holds it
    view = got["data"][1]
    as_numpy = got["data"][2].numpy()
    del got
    gc.collect()
    assert ring.state_np[0] == 1, "freed while a view of the batch was alive"
    del view
    gc.collect()
    assert ring.state_np[0] == 1, "freed while a numpy view of the batch was alive"
    del as_numpy
    gc.collect()
    assert ring.state_np[0] == 0
    again = pickle.loads(second)  # by id only: the mapping is cached
    assert torch.equal(again["data"], expected)


def test_a_full_ring_returns_none_and_never_hands_out_a_taken_slot():
    ring = _torch_ring.WorkerRing(2, 1, (1, 2, 2), torch.uint8)
    a, b = ring.take(1), ring.take(1)
    assert {_torch_ring.ring_of(a)[1], _torch_ring.ring_of(b)[1]} == {0, 1}
    assert ring.take(1) is None
    _torch_ring.give_back(a)
    c = ring.take(1)
    assert _torch_ring.ring_of(c)[1] == _torch_ring.ring_of(a)[1]


def test_ring_slots_is_checked(raster_zip):
    with pytest.raises(ValueError, match="ring_slots"):
        TacoDataset(raster_zip, ring_slots=-1)
    with pytest.raises(ValueError, match="ring_slots"):
        TacoIterableDataset(raster_zip, ring_slots=1.5)
    with pytest.raises(ValueError, match="ring_slots"):
        TacoDataset(raster_zip, ring_slots=True)


# --- through real DataLoaders ----------------------------------------------------------------

@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_batches_reuse_the_ring_buffers_and_arrive_as_plain_tensors(raster_zip, rasters, context):
    _, truth = rasters
    ds = TacoDataset(raster_zip, ring_slots=3)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate,
                        multiprocessing_context=context)
    pointers, seen = set(), []
    for batch in loader:
        assert type(batch) is dict and type(batch["data"]) is torch.Tensor
        assert batch["index"].dtype == torch.int64
        assert batch["index"].tolist() == [int(i[1:]) for i in batch["id"]]
        check_batch(batch, truth)
        assert _torch_ring._MAPPED, "the batch did not come through a worker ring"
        pointers.add(batch["data"].data_ptr())
        seen.extend(batch["id"])
    assert sorted(seen) == sorted(truth)
    # 10 batches, 2 workers x 3 buffers: buffers were reused.
    assert len(pointers) <= 6


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_a_user_who_keeps_every_batch_sees_correct_distinct_pixels(raster_zip, rasters, context):
    _, truth = rasters
    # 2 buffers per worker for 10 batches: most batches find the ring full and get their own.
    ds = TacoDataset(raster_zip, ring_slots=2)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate,
                        multiprocessing_context=context, shuffle=True,
                        generator=torch.Generator().manual_seed(3))
    kept = list(loader)
    assert len(kept) == 10
    assert len({b["data"].data_ptr() for b in kept}) == 10
    assert sorted(i for b in kept for i in b["id"]) == sorted(truth)
    for batch in kept:
        check_batch(batch, truth)


def test_views_kept_past_the_next_batches_stay_intact(raster_zip, rasters):
    _, truth = rasters
    ds = TacoDataset(raster_zip, ring_slots=2)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate)
    views = []
    for batch in loader:
        # A tensor view and a numpy view of two rows; the batch itself is dropped.
        views.append((batch["id"][0], batch["data"][0]))
        views.append((batch["id"][1], batch["data"][1].numpy()))
        gc.collect()
    for sample_id, view in views:
        np.testing.assert_array_equal(np.asarray(view), truth[sample_id], err_msg=sample_id)


def test_iterable_dataset_batches_come_through_the_ring(raster_zip, rasters):
    _, truth = rasters
    ds = TacoIterableDataset(raster_zip, batch_size=4, ring_slots=3)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate)
    pointers, seen = set(), []
    for batch in loader:
        check_batch(batch, truth)
        pointers.add(batch["data"].data_ptr())
        seen.extend(batch["id"])
    assert sorted(seen) == sorted(truth) and len(pointers) <= 6


def test_persistent_workers_keep_their_ring_across_epochs(raster_zip, rasters):
    _, truth = rasters
    ds = TacoDataset(raster_zip, ring_slots=3)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate,
                        persistent_workers=True, shuffle=True,
                        generator=torch.Generator().manual_seed(5))
    pointers = set()
    for _ in range(3):
        seen = []
        for batch in loader:
            check_batch(batch, truth)
            pointers.add(batch["data"].data_ptr())
            seen.extend(batch["id"])
        assert sorted(seen) == sorted(truth)
    assert len(pointers) <= 6  # the same buffers, epoch after epoch


def test_without_workers_nothing_changes(raster_zip, rasters):
    _, truth = rasters
    _torch_ring.mapped_rings()
    before = set(_torch_ring._MAPPED)
    loader = DataLoader(TacoDataset(raster_zip), batch_size=4, num_workers=0, collate_fn=collate)
    for batch in loader:
        assert type(batch) is dict and not batch["data"].is_shared()
        check_batch(batch, truth)
    assert set(_torch_ring._MAPPED) == before


def test_ring_slots_zero_sends_a_fresh_tensor_per_batch(raster_zip, rasters):
    _, truth = rasters
    # Batches of 20 (160 KiB): above what crosses by value inside the message.
    loader = DataLoader(TacoDataset(raster_zip, ring_slots=0), batch_size=20, num_workers=2,
                        collate_fn=collate)
    mapped = len(_torch_ring._MAPPED)
    for batch in loader:
        check_batch(batch, truth)
        assert batch["data"].is_shared()  # torch's own per-batch segment
    assert len(_torch_ring._MAPPED) == mapped


def test_a_transform_that_makes_new_tensors_gives_the_buffer_back(raster_zip, rasters):
    _, truth = rasters
    ds = TacoDataset(raster_zip, transform=_to_float, ring_slots=1)
    loader = DataLoader(ds, batch_size=4, num_workers=1, collate_fn=collate)
    for batch in loader:
        assert batch["data"].dtype == torch.float32
        for k, sample_id in enumerate(batch["id"]):
            np.testing.assert_array_equal(batch["data"][k].numpy(),
                                          truth[sample_id].astype(np.float32))


def _to_float(item):
    item["data"] = item["data"].float()
    return item


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_nothing_stays_mapped_once_the_loader_is_gone(raster_zip, rasters, context):
    _, truth = rasters
    gc.collect()
    _torch_ring.mapped_rings()
    maps_before = shm_mappings()
    rings_before = set(_torch_ring._MAPPED)
    loader = DataLoader(TacoDataset(raster_zip, ring_slots=3), batch_size=4, num_workers=2,
                        collate_fn=collate, multiprocessing_context=context)
    it = iter(loader)
    pids = [os.getpid()] + [w.pid for w in it._workers]
    first = next(it)
    check_batch(first, truth)
    assert set(_torch_ring._MAPPED) - rings_before
    assert shm_mappings() > maps_before  # what the check below counts is there to count
    for batch in it:
        pass
    del it, batch, loader
    gc.collect()
    # The first batch, still held, keeps its own buffer mapped and intact.
    assert _torch_ring.mapped_rings() == len(rings_before)
    check_batch(first, truth)
    del first
    gc.collect()
    assert shm_mappings() <= maps_before
    assert dev_shm(pids) == set()


@pytest.mark.parametrize("batch_size", [1, 3])
def test_batches_of_alternating_shapes_get_a_ring_each_or_their_own_buffer(nested_zip, batch_size):
    """Level 1 alternates 3-band images and 1-band labels: with batch_size=1 each worker keeps a
    ring per shape; with 3, every batch mixes shapes and its rows are handed on as a list."""
    path, truth = nested_zip
    ds = TacoDataset(path, level=1, ring_slots=2)
    loader = DataLoader(ds, batch_size=batch_size, num_workers=2, collate_fn=collate)
    kept, row = [], 0
    for epoch in range(2):
        row = 0
        for batch in loader:
            data = batch["data"] if isinstance(batch["data"], list) else list(batch["data"])
            for sample_id, pixels in zip(batch["id"], data):
                kept.append(((f"s{row // 2}", sample_id), pixels))
                row += 1
    assert row == 16 and len(kept) == 32
    for key, pixels in kept:
        np.testing.assert_array_equal(pixels.numpy(), truth[key], err_msg=str(key))


def test_small_tensors_cross_by_value_and_others_as_torch_sends_them():
    sent = _torch_ring.Batch({"flags": torch.tensor([True, False]),
                              "half": torch.ones(3, dtype=torch.bfloat16),
                              "empty": torch.empty((0, 2), dtype=torch.float32),
                              "big": torch.arange(20000, dtype=torch.int64), "id": ["a", "b"]})
    got = pickle.loads(ForkingPickler.dumps(sent))
    assert type(got) is dict and got["id"] == ["a", "b"]
    assert got["flags"].tolist() == [True, False] and not got["flags"].is_shared()
    assert got["half"].dtype == torch.bfloat16 and got["half"].tolist() == [1.0, 1.0, 1.0]
    assert tuple(got["empty"].shape) == (0, 2) and got["empty"].dtype == torch.float32
    assert torch.equal(got["big"], torch.arange(20000)) and got["big"].is_shared()


def test_the_file_system_sharing_strategy_works_and_leaves_no_file(raster_zip, rasters):
    """torch's other strategy names its segments in /dev/shm and removes a file once no process
    holds it: a worker must let go of its ring when it exits, or its files stay until the main
    process ends."""
    _, truth = rasters
    import torch.multiprocessing as tmp

    previous = tmp.get_sharing_strategy()
    tmp.set_sharing_strategy("file_system")
    try:
        loader = DataLoader(TacoDataset(raster_zip, ring_slots=2), batch_size=4, num_workers=2,
                            collate_fn=collate, multiprocessing_context="fork")
        it = iter(loader)
        pids = [os.getpid()] + [w.pid for w in it._workers]
        kept = list(it)
        for batch in kept:
            check_batch(batch, truth)
        del it, loader, kept, batch
        gc.collect()
    finally:
        tmp.set_sharing_strategy(previous)
    names = [n for n in os.listdir("/dev/shm") if n.startswith("torch_")]
    assert not [n for n in names if any(n.startswith(f"torch_{pid}_") for pid in pids)], names


def test_a_worker_keeps_a_ring_per_layout_up_to_the_limit_and_counts_fallbacks():
    # Run here as a worker would: this process's own rings, fresh for the test.
    _torch_ring._WORKER.update(pid=None)
    first = _torch_ring.worker_batch(1, 2, (1, 4, 4), torch.uint8)
    assert first is not None and tuple(first.shape) == (2, 1, 4, 4)
    assert _torch_ring.worker_batch(1, 2, (1, 4, 4), torch.uint8) is None  # its one slot is taken
    assert _torch_ring.worker_batch(1, 3, (2, 4, 4), torch.uint8) is not None  # another layout
    assert _torch_ring.worker_batch(1, 9, (2, 4, 4), torch.uint8) is None  # larger than its ring
    for bands in (3, 4):
        assert _torch_ring.worker_batch(1, 1, (bands, 4, 4), torch.uint8) is not None
    assert len(_torch_ring._WORKER["rings"]) == _torch_ring.MAX_RINGS
    assert _torch_ring.worker_batch(1, 1, (5, 4, 4), torch.uint8) is None  # a fifth layout
    assert _torch_ring.worker_fallbacks() == 3
    _torch_ring._WORKER.update(pid=None)
