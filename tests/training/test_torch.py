"""tacocore.torch: map-style and iterable datasets through real DataLoaders (fork and spawn
workers), DDP sharding by arguments and by a real gloo process group, bad samples."""

from __future__ import annotations

import functools
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from torch.utils.data import DataLoader  # noqa: E402

import tacocore  # noqa: E402
from tacocore.torch import TacoDataset, TacoIterableDataset, collate  # noqa: E402

HERE = Path(__file__).resolve().parent


def assert_bytes_are_their_ids(loader, directory: Path, count: int) -> None:
    """Every item of a read="bytes" loader holds the bytes of its own id's file, `count` ids."""
    got = {}
    for batch in loader:
        got.update(zip(batch["id"], batch["data"]))
    assert len(got) == count
    for sample_id, data in got.items():
        assert data == (directory / f"{sample_id}.tif").read_bytes(), sample_id


def ids_of(loader) -> list:
    out = []
    for batch in loader:
        out.extend(batch["id"])
    return out


# --- map-style -------------------------------------------------------------------------------------

def test_items_are_metadata_plus_decoded_pixels(raster_zip, rasters):
    _, truth = rasters
    ds = TacoDataset(raster_zip)
    assert len(ds) == 40
    item = ds[5]
    assert set(item) == {"id", "type", "index", "split", "data"}
    assert item["id"] == "t05" and item["index"] == 5 and item["split"] == "train"
    assert item["data"].dtype == torch.uint16 and tuple(item["data"].shape) == (4, 32, 32)
    np.testing.assert_array_equal(item["data"].numpy(), truth["t05"])
    np.testing.assert_array_equal(ds[-1]["data"].numpy(), truth["t39"])
    with pytest.raises(IndexError):
        ds[40]


def test_columns_and_filtered_view(raster_folder, rasters):
    _, truth = rasters
    view = tacocore.load(raster_folder).sql("SELECT * FROM data WHERE split = 'test'")
    ds = TacoDataset(view, columns=["index"])
    assert len(ds) == 10
    assert [ds[i]["id"] for i in range(len(ds))] == [f"t{i:02d}" for i in range(0, 40, 4)]
    assert set(ds[0]) == {"id", "index", "data"}
    np.testing.assert_array_equal(ds[1]["data"].numpy(), truth["t04"])
    with pytest.raises(tacocore.TacoSchemaError, match="no column 'cloud'"):
        TacoDataset(view, columns=["cloud"])
    # A spawned worker reopens the view (not the whole dataset) for its bytes.
    by_bytes = TacoDataset(view, read="bytes")
    loader = DataLoader(by_bytes, batch_size=3, num_workers=2, collate_fn=collate,
                        multiprocessing_context="spawn")
    got = {}
    for batch in loader:
        got.update(zip(batch["id"], batch["data"]))
    assert sorted(got) == [f"t{i:02d}" for i in range(0, 40, 4)]
    assert got["t08"] == (rasters[0] / "t08.tif").read_bytes()


def test_batch_decodes_into_one_tensor_and_collate_takes_it_uncopied(raster_zip, rasters):
    _, truth = rasters
    ds = TacoDataset(raster_zip)
    items = ds.__getitems__([3, 4, 5, 6])
    batch = collate(items)
    assert tuple(batch["data"].shape) == (4, 4, 32, 32)
    # The batch is the buffer the items are views of: no stacking copy.
    assert batch["data"].data_ptr() == items[0]["data"].data_ptr()
    assert batch["data"] is items[0]["data"]._base
    assert batch["index"].tolist() == [3, 4, 5, 6] and batch["index"].dtype == torch.int64
    assert batch["id"] == ["t03", "t04", "t05", "t06"]
    for k, i in enumerate(range(3, 7)):
        np.testing.assert_array_equal(batch["data"][k].numpy(), truth[f"t{i:02d}"])
    # Items from separate decodes are stacked (a copy, same values).
    stacked = collate([ds[1], ds[2]])
    np.testing.assert_array_equal(stacked["data"][1].numpy(), truth["t02"])


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_dataloader_with_two_workers_serves_every_sample_once(raster_zip, rasters, context):
    _, truth = rasters
    ds = TacoDataset(raster_zip)
    loader = DataLoader(ds, batch_size=8, num_workers=2, collate_fn=collate,
                        multiprocessing_context=context, shuffle=True,
                        generator=torch.Generator().manual_seed(1))
    seen = {}
    for batch in loader:
        assert batch["data"].shape[1:] == (4, 32, 32)
        for k, sample_id in enumerate(batch["id"]):
            assert sample_id not in seen
            seen[sample_id] = batch["data"][k].numpy().copy()
    assert sorted(seen) == sorted(truth)
    for sample_id, data in seen.items():
        np.testing.assert_array_equal(data, truth[sample_id])


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_bytes_are_read_through_each_workers_own_handle(raster_zip, rasters, context):
    directory, _ = rasters
    ds = TacoDataset(raster_zip, read="bytes")
    loader = DataLoader(ds, batch_size=5, num_workers=2, collate_fn=collate,
                        multiprocessing_context=context)
    assert_bytes_are_their_ids(loader, directory, 40)
    # The parent's handle is not what a worker uses: a copy in another process reopens.
    assert ds.rows.handle() is ds.rows.handle()


@pytest.mark.parametrize("workers", [0, 2])
def test_bytes_follow_their_id_in_a_view_that_is_not_deterministic(raster_zip, rasters, workers):
    # The rows were read once; a worker that runs ORDER BY random() LIMIT again gets other rows
    # in another order, so bytes are found by each row's location, never by its position.
    directory, _ = rasters
    view = tacocore.load(raster_zip).sql("SELECT * FROM data ORDER BY random() LIMIT 12")
    loader = DataLoader(TacoDataset(view, read="bytes"), batch_size=4, num_workers=workers,
                        collate_fn=collate)
    assert_bytes_are_their_ids(loader, directory, 12)


def _crop(item):
    item["data"] = item["data"][:, :8, :8]
    return item


def _hwc(item):
    item["data"] = item["data"].permute(1, 2, 0)
    return item


@pytest.mark.parametrize("workers", [0, 2])
def test_collate_keeps_what_a_transform_made_of_the_pixels(raster_zip, rasters, workers):
    # A crop or a permute is a view of the decoded batch with another shape or strides: collate
    # must stack those, not hand back the whole decoded batch.
    _, truth = rasters
    for transform, expected in ((_crop, lambda a: a[:, :8, :8]), (_hwc, lambda a: a.transpose(1, 2, 0))):
        loader = DataLoader(TacoDataset(raster_zip, transform=transform), batch_size=4,
                            num_workers=workers, collate_fn=collate)
        batch = next(iter(loader))
        assert tuple(batch["data"].shape) == (4, *expected(truth["t00"]).shape)
        for k, sample_id in enumerate(batch["id"]):
            np.testing.assert_array_equal(batch["data"][k].numpy(), expected(truth[sample_id]))


def test_forked_workers_open_their_own_handle(raster_zip):
    ds = TacoDataset(raster_zip, read="bytes")
    ds.rows.handle()  # the parent's handle exists before the workers fork
    ds.transform = functools.partial(_note_handle, ds)
    loader = DataLoader(ds, batch_size=5, num_workers=2, collate_fn=collate,
                        multiprocessing_context="fork")
    pids = set()
    for batch in loader:
        for pid, handle_pid in zip(batch["pid"].tolist(), batch["handle_pid"].tolist()):
            assert handle_pid == pid  # opened by the worker itself
            pids.add(pid)
    assert len(pids) == 2 and os.getpid() not in pids
    assert ds.rows._handle_pid == os.getpid()


def _note_handle(ds, item):
    item["pid"] = os.getpid()
    item["handle_pid"] = ds.rows._handle_pid
    return item


def test_paths_are_gdal_paths(raster_zip):
    ds = TacoDataset(raster_zip, read="path")
    path = ds[0]["data"]
    assert path.startswith("/vsisubfile/") and path.endswith("rasters.tacozip")
    np.testing.assert_array_equal(tacocore._core.read_array(path), TacoDataset(raster_zip)[0]["data"].numpy())


def test_leaf_reads_one_child_of_each_folder_sample(nested_zip):
    path, truth = nested_zip
    ds = TacoDataset(path, leaf="label")
    assert len(ds) == 8 and ds[2]["region"] == "r0"
    batch = collate(ds.__getitems__(list(range(8))))
    assert tuple(batch["data"].shape) == (8, 1, 16, 16)
    for i in range(8):
        np.testing.assert_array_equal(batch["data"][i].numpy(), truth[(f"s{i}", "label")])
    by_bytes = TacoDataset(path, leaf="image", read="bytes")
    assert by_bytes[0]["data"][:2] in (b"II", b"MM")
    with pytest.raises(tacocore.TacoNavigationError, match="sample 's0' is a FOLDER.*leaf="):
        TacoDataset(path)
    with pytest.raises(tacocore.TacoNavigationError, match="sample 's0' has no child 'nir'"):
        TacoDataset(path, leaf="nir")


def test_level_one_serves_the_children(nested_zip):
    path, truth = nested_zip
    ds = TacoDataset(path, level=1)
    assert len(ds) == 16
    assert [ds[i]["id"] for i in range(4)] == ["image", "label", "image", "label"]
    np.testing.assert_array_equal(ds[3]["data"].numpy(), truth[("s1", "label")])
    with pytest.raises(tacocore.TacoNavigationError, match="level 2 does not exist"):
        TacoDataset(path, level=2)


def test_a_batch_of_another_shape_than_the_last_is_decoded_whole(nested_zip):
    """The dataset remembers the last batch's shape (no probe per batch): a batch where no
    sample has it (level 1 alternates 3-band images and 1-band labels) is decoded again with its
    own shape, every pixel right and nothing counted as skipped."""
    path, truth = nested_zip
    ds = TacoDataset(path, level=1, on_error="skip")
    items = [ds.__getitems__([i])[0] for i in range(len(ds))]
    assert [tuple(x["data"].shape) for x in items[:4]] == [(3, 16, 16), (1, 16, 16)] * 2
    for i, x in enumerate(items):
        np.testing.assert_array_equal(x["data"].numpy(), truth[(f"s{i // 2}", x["id"])])
    pairs = ds.__getitems__([0, 1, 2])  # one batch, two shapes: the odd one decoded alone
    assert [tuple(x["data"].shape) for x in pairs] == [(3, 16, 16), (1, 16, 16), (3, 16, 16)]
    assert ds.skipped == 0


def test_transform_runs_in_the_worker(raster_zip, rasters):
    _, truth = rasters

    ds = TacoDataset(raster_zip, transform=_to_float)
    loader = DataLoader(ds, batch_size=10, num_workers=2, collate_fn=collate)
    batch = next(iter(loader))
    assert batch["data"].dtype == torch.float32
    np.testing.assert_allclose(batch["data"][0].numpy(), truth["t00"] / 10000.0, rtol=1e-6)


def _to_float(item):
    item["data"] = item["data"].float() / 10000.0
    return item


# --- bad samples ----------------------------------------------------------------------------------

def test_unreadable_sample_error_names_it_through_the_dataloader(bad_zip):
    ds = TacoDataset(bad_zip)
    with pytest.raises(tacocore.TacoIOError, match=r"sample 'broken' \(row 3\).*GDAL cannot open"):
        ds[3]
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate)
    with pytest.raises(tacocore.TacoIOError, match=r"sample 'broken' \(row 3\)"):
        ids_of(loader)


@pytest.mark.parametrize("context", ["fork", "spawn"])
def test_on_error_skip_leaves_the_sample_out_and_counts_it(bad_zip, context):
    ds = TacoDataset(bad_zip, on_error="skip")
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate,
                        multiprocessing_context=context)
    seen = []
    shapes = []
    for batch in loader:
        seen.extend(batch["id"])
        shapes.append(batch["data"] if isinstance(batch["data"], list) else tuple(batch["data"].shape))
    assert sorted(seen) == sorted(["ok0", "ok1", "ok2", "ok4", "ok5", "small", "ok7", "ok8", "ok9"])
    assert ds.skipped == 1  # counted in a worker, seen here
    # The batch holding the 4 x 16 x 16 sample cannot be one tensor: a list of tensors.
    mixed = [s for s in shapes if isinstance(s, list)]
    assert len(mixed) == 1 and sorted(tuple(t.shape) for t in mixed[0])[0] == (4, 16, 16)
    assert ds[3] is None and ds.skipped == 2


def test_a_crashing_worker_surfaces_the_sample_id(raster_zip):
    ds = TacoDataset(raster_zip, transform=_crash_on_t17)
    loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate)
    with pytest.raises(ValueError, match=r"transform failed on sample 't17' \(row 17\).*bad pixels"):
        ids_of(loader)


def _crash_on_t17(item):
    if item["id"] == "t17":
        raise ValueError("bad pixels")
    return item


def test_bad_arguments():
    with pytest.raises(ValueError, match="read must be one of"):
        TacoDataset("x", read="pixels")
    with pytest.raises(tacocore.TacoPathNotFoundError):
        TacoDataset("/nonexistent/x.tacozip")


# --- iterable, sharded -----------------------------------------------------------------------------

@pytest.mark.parametrize("world", [1, 2, 3])
def test_iterable_shards_by_rank_and_worker_without_repeats(raster_zip, world):
    per_rank = []
    for rank in range(world):
        ds = TacoIterableDataset(raster_zip, rank=rank, world_size=world, batch_size=4)
        loader = DataLoader(ds, batch_size=4, num_workers=2, collate_fn=collate)
        ids = ids_of(loader)
        assert len(ids) == len(ds)
        per_rank.append(ids)
    everything = [i for ids in per_rank for i in ids]
    assert len(everything) == 40 and len(set(everything)) == 40
    sizes = [len(ids) for ids in per_rank]
    assert max(sizes) - min(sizes) <= 1


def test_shuffle_is_deterministic_by_seed_and_epoch(raster_zip):
    def run(seed, epoch, context):
        ds = TacoIterableDataset(raster_zip, shuffle=True, seed=seed, batch_size=5)
        ds.set_epoch(epoch)
        loader = DataLoader(ds, batch_size=5, num_workers=2, collate_fn=collate,
                            multiprocessing_context=context)
        return ds.order().tolist(), ids_of(loader)

    order_a, seen_a = run(7, 0, "fork")
    order_b, seen_b = run(7, 0, "spawn")
    order_c, seen_c = run(7, 1, "fork")
    assert order_a == order_b and seen_a == seen_b  # same seed and epoch: same order
    assert order_a != order_c and seen_a != seen_c  # next epoch: another order
    assert sorted(seen_a) == sorted(seen_c) == [f"t{i:02d}" for i in range(40)]
    assert seen_a != sorted(seen_a)


def test_iterable_batches_are_the_decoded_tensors(raster_zip, rasters):
    _, truth = rasters
    ds = TacoIterableDataset(raster_zip, batch_size=8)
    loader = DataLoader(ds, batch_size=8, num_workers=2, collate_fn=collate)
    for batch in loader:
        assert tuple(batch["data"].shape) == (8, 4, 32, 32)
        for k, sample_id in enumerate(batch["id"]):
            np.testing.assert_array_equal(batch["data"][k].numpy(), truth[sample_id])


def test_iterable_arguments_are_checked(raster_zip):
    with pytest.raises(ValueError, match="rank and world_size together"):
        TacoIterableDataset(raster_zip, rank=1)
    with pytest.raises(ValueError, match="rank 2 is not in 0..1"):
        TacoIterableDataset(raster_zip, rank=2, world_size=2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("seed", [None, 3])
def test_real_ddp_process_group_shards_the_dataset(raster_zip, tmp_path, seed):
    port = str(_free_port())
    procs = []
    for rank in range(2):
        args = [sys.executable, str(HERE / "ddp_worker.py"), str(rank), "2", port, raster_zip,
                str(tmp_path / f"rank{rank}.json")] + ([str(seed)] if seed is not None else [])
        procs.append(subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    for p in procs:
        out, _ = p.communicate(timeout=240)
        assert p.returncode == 0, out
    results = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    mine = [r["mine"] for r in results]
    assert results[0]["all"] == results[1]["all"] == mine  # all_gather agrees with each rank
    assert len(mine[0]) == len(mine[1]) == 20 == results[0]["len"]
    assert sorted(mine[0] + mine[1]) == [f"t{i:02d}" for i in range(40)]
    assert results[0]["shapes"] == [[4, 32, 32]]
    if seed is None:  # rank 0 has the first half, in order (across its two workers)
        assert sorted(mine[0]) == [f"t{i:02d}" for i in range(20)]
    else:
        assert sorted(mine[0]) != [f"t{i:02d}" for i in range(20)]


def test_torch_distributed_wins_over_missing_arguments_and_must_agree(raster_zip, tmp_path):
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{_free_port()}", rank=0, world_size=1)
    try:
        ds = TacoIterableDataset(raster_zip)
        assert ds._rank_world() == (0, 1) and len(ds) == 40
        with pytest.raises(ValueError, match="disagree with torch.distributed"):
            TacoIterableDataset(raster_zip, rank=1, world_size=2)._rank_world()
    finally:
        dist.destroy_process_group()


FIFO_PROBE = r"""
import os, tempfile
import numpy as np
from tacocore import _core
fifo = os.path.join(tempfile.mkdtemp(), "probe.tif")
os.mkfifo(fifo)
out = np.zeros((1, 1, 4, 4), np.uint8)
failures = _core.decode_batch_into([fifo], out, 1)
print(failures[0][0], "probe.tif" in failures[0][1])
"""


@pytest.mark.allowed_skip(reason="needs named pipes (os.mkfifo), which this OS lacks")
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_batch_decode_refuses_a_fifo_at_once():
    """A FIFO behind a sample would block inside GDAL's open: the batch path refuses it before
    opening, names it, and the rest of the batch is unaffected (the slot is reported)."""
    try:
        proc = subprocess.run([sys.executable, "-c", FIFO_PROBE], capture_output=True, text=True,
                              timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("decode_batch_into blocked on a FIFO instead of refusing it")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0", "True"]
