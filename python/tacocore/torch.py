"""PyTorch datasets over TACO datasets: the shortest way from a dataset to batched tensors.

``TacoDataset`` (map-style) and ``TacoIterableDataset`` (sharded by DataLoader worker and by
DDP rank, deterministic shuffle by seed + epoch) serve dicts: the row's metadata columns (``id``
included) plus ``data`` (a tensor, the file's bytes, or its GDAL path). Rasters decode through
the native batched GDAL path, without the GIL, straight into one preallocated (batch, bands,
height, width) tensor, in shared memory inside a worker; :func:`collate` hands that tensor on
as the batch without stacking. Needs PyTorch: ``pip install 'tacocore[torch]'``. User guide,
"Training with PyTorch".
"""

from __future__ import annotations

import logging
import multiprocessing
from typing import Any, Callable, Iterator, List, Optional, Sequence

try:
    import torch
    from torch.utils.data import Dataset, IterableDataset, get_worker_info
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise ImportError("tacocore.torch needs PyTorch: pip install 'tacocore[torch]'") from _exc

import numpy as np

from . import _core
from . import _torch_ring as ring
from ._torch_rows import ON_ERROR, Rows, sample_error

__all__ = ["TacoDataset", "TacoIterableDataset", "collate"]

logger = logging.getLogger("tacocore.torch")

#: Batch buffers per DataLoader worker: the batches in flight (the DataLoader's prefetch_factor,
#: 2 by default), the one being decoded and the one or two the training loop holds.
RING_SLOTS = 6

_DTYPES = {
    "uint8": torch.uint8, "int8": torch.int8, "uint16": torch.uint16, "int16": torch.int16,
    "uint32": torch.uint32, "int32": torch.int32, "uint64": torch.uint64, "int64": torch.int64,
    "float32": torch.float32, "float64": torch.float64,
}


class _Reader:
    """What both datasets share: the rows, the decoding of a batch of them and error handling."""

    def _setup(self, dataset_or_path: Any, columns: Optional[Sequence[str]],
               transform: Optional[Callable], read: str, level: int, leaf: Optional[str],
               on_error: str, threads: Optional[int], ring_slots: int) -> None:
        if on_error not in ON_ERROR:
            raise ValueError(f"on_error must be one of {ON_ERROR}, not {on_error!r}")
        if threads is not None and threads < 0:
            raise ValueError(f"threads must be >= 0, not {threads}")
        if not isinstance(ring_slots, int) or isinstance(ring_slots, bool) or ring_slots < 0:
            raise ValueError(f"ring_slots must be an int >= 0, not {ring_slots!r}")
        self.ring_slots = ring_slots
        self.rows = Rows(dataset_or_path, columns, read, level, leaf)
        self.transform = transform
        self.on_error = on_error
        self.threads = threads
        # Samples skipped with on_error="skip", summed over every worker process: the counter
        # lives in shared memory, handed to workers when they start. A spawn-context value,
        # because only that kind may go to a spawned worker (and a forked one inherits it).
        self._skipped = _new_counter()
        self._batch_shape: Optional[tuple] = None  # (bands, height, width, dtype) of the last batch

    @property
    def skipped(self) -> int:
        """Samples skipped so far because of on_error="skip" (all worker processes together)."""
        return int(self._counter().value)

    def _counter(self) -> Any:
        if self._skipped is None:
            self._skipped = _new_counter()
        return self._skipped

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        if multiprocessing.context.get_spawning_popen() is None:
            # Pickled for something other than starting a worker (saved, sent): the shared
            # counter cannot travel, the copy counts on its own.
            state["_skipped"] = None
        return state

    def _decode_threads(self) -> int:
        if self.threads is not None:
            return self.threads
        # A DataLoader worker is one of several processes sharing the cores: one thread each.
        return 1 if get_worker_info() is not None else 0

    def _failed(self, i: int, message: str) -> None:
        if self.on_error == "raise":
            raise sample_error(self.rows, i, message)
        counter = self._counter()
        with counter.get_lock():
            counter.value += 1
        logger.warning("skipping sample %r (row %d) of %s: %s", self.rows.ids[i], i,
                       self.rows.source, message)

    def _items(self, indices: Sequence[int], batched: bool = True) -> List[Any]:
        """The items of `indices`, in order, failed ones raised or left out. `batched`: the
        items go to :func:`collate` together (a DataLoader batch), so a worker may decode them
        into a buffer of its ring."""
        rows = self.rows
        if rows.read == "array":
            data = self._decode(indices, batched)
        elif rows.read == "path":
            paths = rows.paths_here()
            data = [paths[i] for i in indices]
        else:
            data = []
            for i in indices:
                try:
                    data.append(rows.read_bytes(i))
                except _core.TacoError as exc:
                    self._failed(i, str(exc))
                    data.append(None)
        out = []
        for i, d in zip(indices, data):
            if d is None:
                continue
            item = rows.metadata(i)
            item["data"] = d
            if self.transform is not None:
                try:
                    item = self.transform(item)
                except Exception as exc:
                    # The DataLoader re-raises this in the main process: name the sample.
                    raise _renamed(exc, f"transform failed on sample {rows.ids[i]!r} (row {i}) "
                                        f"of {rows.source}: {exc}") from exc
            out.append(item)
        if self.transform is not None and data:
            _give_back_if_unused(data, out)
        return out

    def _decode(self, indices: Sequence[int],
                batched: bool = True) -> List[Optional["torch.Tensor"]]:
        """Decodes the rasters of `indices` into one (n, bands, height, width) tensor (shared
        memory inside a worker, so the batch crosses to the main process without a copy: a
        buffer of the worker's ring when `batched`); each item's data is a view of its row. A
        sample of another shape gets a tensor of its own."""
        rows = self.rows
        try:
            here = rows.paths_here()
        except _core.TacoError as exc:
            for i in indices:
                self._failed(i, str(exc))
            return [None] * len(indices)
        paths = [here[i] for i in indices]
        out: List[Optional[torch.Tensor]] = [None] * len(indices)
        # The batch's shape: the last batch's (an extra GDAL open per batch, ~3% of the decode
        # time, saved: datasets are nearly always of one shape), else the first sample that opens.
        shape = self._batch_shape
        for k, p in enumerate(paths if shape is None else ()):
            try:
                shape = _core.probe_raster(p)
                break
            except _core.TacoError as exc:
                self._failed(indices[k], str(exc))
                paths[k] = None
        if shape is None:
            return out
        bands, height, width, dtype = shape
        batch = self._batch_buffer(len(indices), (bands, height, width), _DTYPES[dtype], batched)
        # The probe loop stopped at the first sample that opens (or did not run: slot 0): every
        # later slot is still to do, a contiguous run of the batch buffer.
        first = next(k for k, p in enumerate(paths) if p is not None)
        todo = range(first, len(paths))
        failures = {first + k: message for k, message in _core.decode_batch_into(
            paths[first:], batch[first:].numpy(), self._decode_threads())}
        if len(failures) == len(todo) and self._batch_shape is not None:
            # Nothing had the remembered shape: the dataset changed shape here. Forget it and
            # decode this batch again with the shape of its own first sample.
            self._batch_shape = None
            if ring.ring_of(batch) is not None:
                ring.give_back(batch)
            return self._decode(indices, batched)
        self._batch_shape = shape
        if (failures or first) and ring.ring_of(batch) is not None:
            # Some rows are not in the buffer: collate will not hand it on whole, so the rows
            # that are go to a buffer of their own and the ring slot is free again at once.
            copy = _empty(tuple(batch.shape), batch.dtype, shared=True)
            copy.copy_(batch)
            ring.give_back(batch)
            batch = copy
        for k in todo:
            if k not in failures:
                out[k] = batch[k]
                continue
            try:  # another shape or type: decoded on its own, not part of the batch tensor
                out[k] = torch.from_numpy(np.asarray(_core.read_array(paths[k])))
            except _core.TacoError as exc:
                self._failed(indices[k], str(exc))
        return out

    def _batch_buffer(self, n: int, sample_shape: tuple, dtype: "torch.dtype",
                      batched: bool) -> "torch.Tensor":
        """Where a batch decodes: a plain tensor in the main process; in a worker a buffer of its
        ring (reused once the main process is done with it), else a fresh shared tensor."""
        if get_worker_info() is None:
            return _empty((n, *sample_shape), dtype, shared=False)
        if batched and self.ring_slots > 0:
            out = ring.worker_batch(self.ring_slots, n, sample_shape, dtype)
            if out is not None:
                return out
        return _empty((n, *sample_shape), dtype, shared=True)


def _give_back_if_unused(data: list, items: list) -> None:
    """After a transform: frees the ring buffer of the batch when no item kept any of its memory
    (the transform made new tensors), so that a ring does not run dry behind a transform."""
    buffers = {id(b): b for b in (getattr(d, "_base", None) for d in data) if ring.ring_of(b)}
    for buffer in buffers.values():
        if not ring.shares_slot(items, buffer):
            ring.give_back(buffer)


def _empty(shape: tuple, dtype: "torch.dtype", shared: bool) -> "torch.Tensor":
    """An uninitialised tensor; `shared`: allocated in shared memory from the start (what a
    worker sends to the main process then travels as a handle, not as a copy)."""
    proto = torch.empty(0, dtype=dtype)
    if not shared:
        return torch.empty(shape, dtype=dtype)
    numel = 1
    for n in shape:
        numel *= n
    storage = proto._typed_storage()._new_shared(numel, device="cpu")
    return proto.new(storage).resize_(*shape)


def _new_counter() -> Any:
    return multiprocessing.get_context("spawn").Value("q", 0)


def _renamed(exc: Exception, message: str) -> Exception:
    """`exc`'s type with `message` when it takes one argument, else a RuntimeError."""
    try:
        return type(exc)(message)
    except Exception:
        return RuntimeError(message)


class TacoDataset(_Reader, Dataset):
    """Map-style ``torch.utils.data.Dataset`` over the current (filtered) view of a dataset.

    ``TacoDataset(dataset_or_path, columns=None, transform=None, read="array", level=0,
    leaf=None, on_error="raise", threads=None)``. Item ``i`` is a dict: the row's ``columns``
    (default: every non-internal column; ``id`` always) plus ``data``: a tensor (bands, height,
    width) for ``read="array"``, the file's ``bytes``, or its GDAL ``path``. ``leaf`` names the
    child file to read when the rows are FOLDER samples; ``level=N`` serves the level-N rows
    below the view. ``transform(item) -> item`` runs in the worker. ``on_error="skip"`` drops a
    sample that cannot be read (logged, counted in :attr:`skipped`) instead of raising an error
    that names it. Use :func:`collate` as the DataLoader's ``collate_fn``: a batch is decoded
    into one tensor and handed on without a copy. ``threads``: decoding threads per process
    (default: one inside a DataLoader worker, all cores otherwise). ``ring_slots``: batch
    buffers each DataLoader worker reuses (made once, handed to the main process by a few
    bytes per batch, reused once the batch and every view of it are gone; user guide,
    "Batch buffers"); 0 sends a fresh shared-memory tensor per batch, as torch does.
    """

    def __init__(self, dataset_or_path: Any, columns: Optional[Sequence[str]] = None,
                 transform: Optional[Callable] = None, read: str = "array", level: int = 0,
                 leaf: Optional[str] = None, *, on_error: str = "raise",
                 threads: Optional[int] = None, ring_slots: int = RING_SLOTS) -> None:
        self._setup(dataset_or_path, columns, transform, read, level, leaf, on_error, threads,
                    ring_slots)

    def __len__(self) -> int:
        return len(self.rows)

    def _index(self, i: int) -> int:
        n = len(self.rows)
        if not isinstance(i, (int, np.integer)):
            raise TypeError(f"index must be an int, not {type(i).__name__}")
        j = int(i) + n if i < 0 else int(i)
        if not 0 <= j < n:
            raise IndexError(f"index {i} out of range for {n} samples")
        return j

    def __getitem__(self, i: int) -> Any:
        items = self._items([self._index(i)], batched=False)
        if not items:
            # Skipped: a map-style dataset must return something for every index.
            return None
        return items[0]

    def __getitems__(self, indices: Sequence[int]) -> List[Any]:
        """A whole DataLoader batch at once (PyTorch calls this when it exists): one native
        decode of every raster, on threads without the GIL, into one buffer."""
        return self._items([self._index(i) for i in indices])


class TacoIterableDataset(_Reader, IterableDataset):
    """Iterable ``torch.utils.data.IterableDataset`` sharded by DDP rank and DataLoader worker.

    Same items and arguments as :class:`TacoDataset`, plus ``rank``/``world_size`` (taken from
    ``torch.distributed`` when it is initialised, else from these arguments, else 0/1),
    ``shuffle``/``seed`` (one permutation of all rows by ``seed + epoch``, the same on every
    rank; :meth:`set_epoch` as ``DistributedSampler``) and ``batch_size`` (rows decoded
    together; give the DataLoader's so its batches are the decoded tensors, uncopied). Every row
    goes to exactly one (rank, worker): rank ``r`` takes the ``r``-th of ``world_size``
    contiguous slices of the (shuffled) order, sizes differing by at most one; its workers take
    its batches round-robin. Nothing is repeated to even the ranks out. A worker's batches
    reuse its ring buffers when the DataLoader's batch size is this ``batch_size``.
    """

    def __init__(self, dataset_or_path: Any, columns: Optional[Sequence[str]] = None,
                 transform: Optional[Callable] = None, read: str = "array", level: int = 0,
                 leaf: Optional[str] = None, rank: Optional[int] = None,
                 world_size: Optional[int] = None, shuffle: bool = False, seed: int = 0, *,
                 batch_size: int = 32, on_error: str = "raise",
                 threads: Optional[int] = None, ring_slots: int = RING_SLOTS) -> None:
        self._setup(dataset_or_path, columns, transform, read, level, leaf, on_error, threads,
                    ring_slots)
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, not {batch_size}")
        if (rank is None) != (world_size is None):
            raise ValueError("give rank and world_size together, or neither")
        if world_size is not None and not 0 <= rank < world_size:
            raise ValueError(f"rank {rank} is not in 0..{world_size - 1}")
        self._rank_arg, self._world_arg = rank, world_size
        self._ddp: Optional[tuple] = None  # (rank, world_size) fixed when shipped to a worker
        self.shuffle = shuffle
        self.seed = seed
        self.epoch = 0
        self.batch_size = batch_size

    def set_epoch(self, epoch: int) -> None:
        """The epoch of the next iteration: with shuffle, order = permutation(seed + epoch).
        Call it before creating the DataLoader iterator (workers copy the dataset then)."""
        self.epoch = int(epoch)

    def _rank_world(self) -> tuple:
        if self._ddp is not None:
            return self._ddp
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            rank, world = dist.get_rank(), dist.get_world_size()
            if self._world_arg is not None and (rank, world) != (self._rank_arg, self._world_arg):
                raise ValueError(f"rank={self._rank_arg}, world_size={self._world_arg} disagree "
                                 f"with torch.distributed (rank {rank} of {world})")
            return rank, world
        if self._world_arg is not None:
            return self._rank_arg, self._world_arg
        return 0, 1

    def __getstate__(self) -> dict:
        # A spawned worker has no process group: fix the rank here, in the process that has it.
        state = super().__getstate__()
        state["_ddp"] = self._rank_world()
        return state

    def order(self) -> np.ndarray:
        """Row positions in the order of this epoch (all ranks)."""
        n = len(self.rows)
        if not self.shuffle:
            return np.arange(n)
        return np.random.default_rng(self.seed + self.epoch).permutation(n)

    def shard(self) -> List[np.ndarray]:
        """The batches (arrays of row positions) this process serves: its rank's slice of
        :meth:`order`, cut into ``batch_size`` batches, every ``num_workers``-th from its worker
        id on."""
        rank, world = self._rank_world()
        mine = np.array_split(self.order(), world)[rank]
        batches = [mine[s:s + self.batch_size] for s in range(0, len(mine), self.batch_size)]
        info = get_worker_info()
        if info is not None:
            batches = batches[info.id::info.num_workers]
        return batches

    def __iter__(self) -> Iterator[Any]:
        for batch in self.shard():
            yield from self._items([int(i) for i in batch])

    def __len__(self) -> int:
        """Rows this rank serves in an epoch (all its workers together)."""
        rank, world = self._rank_world()
        return len(np.array_split(np.arange(len(self.rows)), world)[rank])


def collate(items: List[Any]) -> Any:
    """Batches a list of items (dicts): ``data`` tensors of one shape become one tensor, taken
    as it is when they are the consecutive slots of one decoded batch (no copy), stacked
    otherwise (into shared memory inside a worker); other shapes, bytes and paths stay lists.
    Numeric metadata becomes a tensor, anything else (strings, None, lists) a list. Skipped
    samples (None from ``dataset[i]``) are left out."""
    items = [x for x in items if x is not None]
    if not items:
        return {}
    if not isinstance(items[0], dict):
        from torch.utils.data import default_collate

        return default_collate(items)
    out = {}
    for key in items[0]:
        values = [x[key] for x in items]
        if key == "data":
            out[key] = _collate_data(values)
        elif all(isinstance(v, (bool, int, float, np.number)) for v in values):
            out[key] = _number_tensor(values)
        elif all(isinstance(v, torch.Tensor) for v in values) and _same_shape(values):
            out[key] = _stack(values)
        else:
            out[key] = values
    if get_worker_info() is not None:
        # Crosses to the main process as the ring buffer's id and small tensors by value,
        # instead of one shared-memory segment (and fd hand-over) per tensor.
        return ring.Batch(out)
    return out


def _number_tensor(values: list) -> "torch.Tensor":
    """As torch's default_collate: bools stay bool, Python floats float64, ints int64 (a
    float64 column keeps its precision)."""
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return torch.tensor(values, dtype=torch.bool)
    if any(isinstance(v, (float, np.floating)) for v in values):
        return torch.tensor(values, dtype=torch.float64)
    return torch.tensor(values, dtype=torch.int64)


def _same_shape(values: list) -> bool:
    return all(v.shape == values[0].shape and v.dtype == values[0].dtype for v in values)


def _collate_data(values: list) -> Any:
    if not all(isinstance(v, torch.Tensor) for v in values) or not _same_shape(values):
        return values
    base = values[0]._base
    # Each value must be exactly row k of the decoded batch: same offset, shape and strides. A
    # transform's crop or permute is a view of the same base with another shape or strides.
    if (base is not None and base.shape[0] == len(values) and base.is_contiguous()
            and values[0].shape == base.shape[1:] and values[0].stride() == base.stride()[1:]
            and all(v._base is base and v.storage_offset() == k * base.stride(0)
                    and v.stride() == values[0].stride() for k, v in enumerate(values))):
        return base  # the decoded batch itself
    return _stack(values)


def _stack(values: list) -> "torch.Tensor":
    if get_worker_info() is not None:
        # As torch's default_collate: stack straight into shared memory, so sending the batch to
        # the main process copies nothing more.
        out = _empty((len(values), *values[0].shape), values[0].dtype, shared=True)
        return torch.stack(values, 0, out=out)
    return torch.stack(values, 0)
