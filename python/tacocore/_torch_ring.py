"""A ring of reusable shared-memory batch buffers between a DataLoader worker and the main process.

Why: torch sends every tensor a worker returns as a fresh shared-memory segment: created and
faulted in by the worker, its file descriptor passed over a new ``resource_sharer`` connection
(socket, HMAC handshake, SCM_RIGHTS), mapped by the main process and unmapped again when the
batch dies. On 2 cores that per-batch cost in the main process is what keeps 2 workers from
doubling 1 worker's throughput (docs/PERFORMANCE.md, "Training and scale-out").

How: each worker decodes its batches into the free slots of a ring of K shared buffers, made once
per batch shape. The first time a slot (and the ring's state array) crosses to the main process,
its storage travels by torch's usual path and the main process keeps the mapping; after that a
batch crosses as (ring, slot, shape, dtype) only, and the main process rebuilds it as a plain
tensor over the slot it already maps.

Release protocol (why nothing a user holds is ever overwritten): the ring's state array has one
byte per slot, 0 free, 1 taken.
- the worker takes a slot (0 -> 1) before writing it, and only a slot it reads as 0;
- the main process frees it (1 -> 0) when the numpy array the batch tensor is built on dies,
  that is when the user's last reference to the batch, or to any view of it, is gone (a
  ``weakref.finalize``, which only the process that received the batch runs);
- a slot that never reaches the main process through this path (the batch was copied, dropped,
  or sent by torch's own pickler) stays taken: the ring loses a slot, never correctness. With
  no free slot the worker falls back to a fresh shared tensor for that batch, as torch does.
Each transition has one writer, so no lock is needed (x86's store order; see the user guide).
A worker keeps one ring per batch layout (up to MAX_RINGS) for its whole life: a ring is never
retired while messages naming it may still be in the pipe. The main process drops a ring's
mappings once its worker has exited; batches the user still holds keep their own slot mapped
until they die.
"""

from __future__ import annotations

import gc
import multiprocessing.util
import os
import secrets
import time
import weakref
from typing import Any, Dict, List, Optional

import numpy as np
import torch

#: Tensors up to this size (bytes) in a batch (ids as numbers, the `index` column...) cross by
#: value inside the message instead of as a shared-memory segment of their own each.
BY_VALUE_BYTES = 64 * 1024

#: Rings (batch layouts: sample shape and dtype) per worker; batches of further layouts, and
#: batches larger than their ring's first one, get a fresh shared tensor.
MAX_RINGS = 4

_TAKEN = 1
_FREE = 0


def _shared_bytes(nbytes: int) -> "torch.Tensor":
    """A flat uint8 tensor in shared memory (torch's own allocator: fd sharing, unlinked)."""
    proto = torch.empty(0, dtype=torch.uint8)
    storage = proto._typed_storage()._new_shared(max(nbytes, 1), device="cpu")
    return proto.new(storage)


# --- worker side --------------------------------------------------------------------------------
class WorkerRing:
    """The ring of one worker process for one batch layout (sample shape, dtype, capacity)."""

    def __init__(self, slots: int, capacity: int, sample_shape: tuple,
                 dtype: "torch.dtype") -> None:
        self.id = f"{os.getpid()}-{secrets.token_hex(6)}"
        self.pid = os.getpid()
        self.capacity = capacity
        self.sample_shape = tuple(sample_shape)
        self.dtype = dtype
        self.sample_bytes = int(np.prod(sample_shape)) * torch.empty(0, dtype=dtype).element_size()
        self.state = _shared_bytes(slots)
        self.state.zero_()
        self.state_np = self.state.numpy()
        self.slots = [_shared_bytes(capacity * self.sample_bytes) for _ in range(slots)]
        self.state_sent = False
        self.slot_sent = [False] * slots

    def take(self, n: int) -> Optional["torch.Tensor"]:
        """A (n, *sample_shape) tensor over a free slot, marked taken; None when all are taken."""
        states = self.state_np
        free = np.flatnonzero(states == _FREE)
        if free.size == 0:
            return None
        slot = int(free[0])
        states[slot] = _TAKEN
        # Not a view of the slot's flat tensor (a view's _base would be that tensor, and collate
        # recognises a batch by its rows' _base): a tensor of its own over the same storage.
        out = torch.empty(0, dtype=self.dtype).set_(self.slots[slot].untyped_storage(), 0,
                                                    (n, *self.sample_shape))
        out._taco_ring = (self, slot)
        return out

    def give_back(self, slot: int) -> None:
        """Frees a slot this worker took but never sent (its batch was copied instead)."""
        self.state_np[slot] = _FREE

    def message(self, slot: int, tensor: "torch.Tensor") -> tuple:
        """What crosses for a batch in `slot`: the storages on first use, then ids only. Called
        while pickling (the queue's feeder thread, in order), so "sent" means "in the pipe"."""
        state = None if self.state_sent else self.state
        storage = None if self.slot_sent[slot] else self.slots[slot]
        self.state_sent = True
        self.slot_sent[slot] = True
        dtype = str(tensor.dtype).removeprefix("torch.")
        return (self.id, self.pid, slot, tuple(tensor.shape), dtype, state, storage)


_WORKER: Dict[str, Any] = {"pid": None, "rings": {}, "fallbacks": 0}


def worker_batch(slots: int, n: int, sample_shape: tuple,
                 dtype: "torch.dtype") -> Optional["torch.Tensor"]:
    """A batch buffer from this worker's ring for this layout (made on its first batch); None
    when there is none to give (the caller allocates a fresh shared tensor: counted)."""
    if _WORKER["pid"] != os.getpid():  # forked from a process that had rings: not ours
        _WORKER.update(pid=os.getpid(), rings={}, fallbacks=0)
        # A worker ends through os._exit, which frees nothing: under torch's "file_system"
        # sharing strategy a segment's file in /dev/shm goes only when every process that
        # holds it has let go, so let go of the ring on the way out (multiprocessing runs
        # these finalizers when the process's target returns).
        multiprocessing.util.Finalize(None, _WORKER["rings"].clear, exitpriority=0)
    rings: Dict[tuple, WorkerRing] = _WORKER["rings"]
    layout = (tuple(sample_shape), dtype)
    ring = rings.get(layout)
    if ring is None and len(rings) < MAX_RINGS:
        ring = rings[layout] = WorkerRing(slots, n, sample_shape, dtype)
    out = ring.take(n) if ring is not None and n <= ring.capacity else None
    if out is None:
        _WORKER["fallbacks"] += 1
    return out


def ring_of(tensor: Any) -> Optional[tuple]:
    """(ring, slot) when `tensor` is a whole ring batch buffer as worker_batch returned it."""
    return getattr(tensor, "_taco_ring", None) if isinstance(tensor, torch.Tensor) else None


def give_back(tensor: "torch.Tensor") -> None:
    ring, slot = tensor._taco_ring
    ring.give_back(slot)


def shares_slot(value: Any, tensor: "torch.Tensor", depth: int = 0) -> bool:
    """Whether `value` may still reference `tensor`'s memory: tensors and numpy arrays over it,
    inside dicts, lists and tuples; any other object that could hold one counts as yes."""
    if value is None or isinstance(value, (str, bytes, int, float, bool, np.generic)):
        return False
    if depth > 8:
        return True
    begin = tensor.data_ptr()
    end = begin + tensor.numel() * tensor.element_size()
    if isinstance(value, torch.Tensor):
        ptr = value.untyped_storage().data_ptr()
        return begin <= ptr < end or ptr <= begin < ptr + value.untyped_storage().nbytes()
    if isinstance(value, np.ndarray):
        lo, hi = np.byte_bounds(value)
        return lo < end and begin < hi
    if isinstance(value, dict):
        return any(shares_slot(v, tensor, depth + 1) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(shares_slot(v, tensor, depth + 1) for v in value)
    return True


class Batch(dict):
    """What :func:`tacocore.torch.collate` returns inside a worker: a dict that pickles small
    tensors by value and a ring batch buffer as its ring message. Unpickled, a plain dict."""

    def __reduce__(self) -> tuple:
        entries = []
        for key, value in self.items():
            where = ring_of(value)
            if where is not None:
                ring, slot = where
                entries.append((key, "ring", ring.message(slot, value)))
            elif _small(value):
                entries.append((key, "value", (value.contiguous().numpy().tobytes(),
                                               str(value.dtype).removeprefix("torch."),
                                               tuple(value.shape))))
            else:
                entries.append((key, "plain", value))
        return (_rebuild_batch, (entries,))


def _small(value: Any) -> bool:
    """A tensor that crosses by value: small, on the CPU, plain, of a type numpy has."""
    return (isinstance(value, torch.Tensor) and type(value) is torch.Tensor
            and value.device.type == "cpu" and value.layout == torch.strided
            and not value.requires_grad and value.dtype in _NUMPY_TYPES
            and value.numel() * value.element_size() <= BY_VALUE_BYTES)


_NUMPY_TYPES = {torch.bool, torch.uint8, torch.int8, torch.int16, torch.uint16, torch.int32,
                torch.uint32, torch.int64, torch.uint64, torch.float16, torch.float32,
                torch.float64, torch.complex64, torch.complex128}


# --- main-process side --------------------------------------------------------------------------
class _Mapped:
    """A worker ring as the main process maps it: its state array and the slots it has seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.state: Optional[np.ndarray] = None
        self.slots: Dict[int, np.ndarray] = {}
        self.keep: List[Any] = []  # the tensors the arrays are views of (their mappings)


_MAPPED: Dict[str, _Mapped] = {}
_SWEEP = {"at": 0.0, "hooked": False}


def mapped_rings() -> int:
    """How many worker rings this process keeps mapped (0 once every DataLoader is gone)."""
    _sweep(force=True)
    return len(_MAPPED)


def _rebuild_batch(entries: list) -> dict:
    out = {}
    for key, kind, payload in entries:
        if kind == "ring":
            out[key] = _rebuild_ring_tensor(*payload)
        elif kind == "value":
            raw, dtype, shape = payload
            out[key] = torch.frombuffer(bytearray(raw), dtype=getattr(torch, dtype)).view(shape) \
                if raw else torch.empty(shape, dtype=getattr(torch, dtype))
        else:
            out[key] = payload
    return out


def _rebuild_ring_tensor(ring_id: str, pid: int, slot: int, shape: tuple,
                         dtype: str, state: Optional["torch.Tensor"],
                         storage: Optional["torch.Tensor"]) -> "torch.Tensor":
    mapped = _MAPPED.get(ring_id)
    if mapped is None:
        _sweep()
        mapped = _MAPPED[ring_id] = _Mapped(pid)
        _hook_gc()
    if state is not None:
        mapped.keep.append(state)
        mapped.state = state.numpy()
    if storage is not None:
        mapped.keep.append(storage)
        mapped.slots[slot] = storage.numpy()
    if mapped.state is None or slot not in mapped.slots:
        raise RuntimeError(f"tacocore.torch: batch buffer {slot} of worker ring {ring_id} arrived "
                           "before its shared memory (a message of that worker was lost)")
    np_dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape)) * np_dtype.itemsize
    array = mapped.slots[slot][:nbytes].view(np_dtype).reshape(shape)
    # Runs when the last tensor, view or numpy array over this batch is gone; a forked child
    # holding a copy of the object must not free the slot the parent still uses.
    weakref.finalize(array, _release, mapped.state, slot, os.getpid()).atexit = False
    return torch.from_numpy(array)


def _release(state: np.ndarray, slot: int, pid: int) -> None:
    if os.getpid() == pid:
        state[slot] = _FREE


def _worker_gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X")
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _sweep(force: bool = False) -> None:
    """Forgets the rings whose worker exited. Rate-limited: it runs from gc."""
    now = time.monotonic()
    if not force and now - _SWEEP["at"] < 0.5:
        return
    _SWEEP["at"] = now
    for ring_id, mapped in list(_MAPPED.items()):
        if _worker_gone(mapped.pid):
            _MAPPED.pop(ring_id, None)


def _on_gc(phase: str, info: dict) -> None:
    if phase == "stop" and _MAPPED:
        _sweep(force=info.get("generation") == 2)


def _hook_gc() -> None:
    if not _SWEEP["hooked"]:
        gc.callbacks.append(_on_gc)
        _SWEEP["hooked"] = True


def worker_fallbacks() -> int:
    """Batches this worker process could not put in its ring (every slot held): for tests."""
    return _WORKER["fallbacks"] if _WORKER["pid"] == os.getpid() else 0
