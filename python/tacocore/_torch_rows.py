"""The rows a PyTorch dataset serves: metadata columns and where each sample's data is.

Built once in the process that makes the dataset (one query), then shipped to DataLoader
workers by fork or pickle. Workers never touch the parent's DuckDB connection: what needs a
native handle there (``read="bytes"``) reopens the dataset in the worker (:class:`Rows.handle`).
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Sequence

from . import _core
from ._reader import TacoDataset as _ReaderDataset
from ._reader import load

READ_MODES = ("array", "bytes", "path")
ON_ERROR = ("raise", "skip")

# A dataset under a directory whose name is not UTF-8 is reached through a descriptor the
# native core holds open on that directory (`/proc/self/fd/N/...`, READER.md §11). N is this
# process's number: another process (a spawn worker, or a fork worker that opened the dataset
# again) has the directory under another N, or nothing, or another file, under this one.
_ANCHOR = re.compile(r"/proc/self/fd/(\d+)")
_ANCHOR_TEXT = "/proc/self/fd/"


def _anchor_identity(fd: str) -> Optional[str]:
    """What descriptor `fd` of this process reaches (device and inode), the same in every
    process; None when it is not open."""
    try:
        st = os.stat(_ANCHOR_TEXT + fd)
    except OSError:
        return None
    return f"{st.st_dev}:{st.st_ino}"


def _anchors(paths: Sequence[Optional[str]]) -> Dict[str, Optional[str]]:
    """Every descriptor the paths go through, with what it reaches in this process."""
    fds = {m.group(1) for p in paths if p and _ANCHOR_TEXT in p for m in _ANCHOR.finditer(p)}
    return {fd: _anchor_identity(fd) for fd in fds}


def _portable_keys(keys: List[Optional[str]]) -> List[Optional[str]]:
    """Row keys that name the same row in every process: a descriptor is replaced by what it
    reaches. Keys without one (every UTF-8 path) are returned as they are."""
    anchors = _anchors(keys)
    if not anchors:
        return keys

    def identity(m: "re.Match") -> str:
        return f"/proc/anchor/{anchors[m.group(1)] or 'closed-' + m.group(1)}"

    return [_ANCHOR.sub(identity, k) if k and _ANCHOR_TEXT in k else k for k in keys]


def _open(dataset_or_path: Any) -> _ReaderDataset:
    if isinstance(dataset_or_path, _ReaderDataset):
        dataset_or_path._check_open()
        return dataset_or_path
    if isinstance(dataset_or_path, (str, os.PathLike)):
        return load(os.fspath(dataset_or_path))
    raise TypeError("expected a tacocore.TacoDataset or a path to load, not "
                    f"{type(dataset_or_path).__name__}")


class Rows:
    """Metadata (``columns`` of every row, ``id`` first) and per-row data locations.

    ``level=0`` serves the rows of the dataset's current (filtered) view. ``leaf`` (a child id)
    serves, for each of those rows (FOLDER samples), that child's data: the usual layout of a
    dataset whose samples are folders ``{image, label}``. ``level=N`` serves the level-N rows
    below the view (the flat view ``lN``), metadata of that level.
    """

    def __init__(self, dataset_or_path: Any, columns: Optional[Sequence[str]], read: str,
                 level: int, leaf: Optional[str]) -> None:
        if read not in READ_MODES:
            raise ValueError(f"read must be one of {READ_MODES}, not {read!r}")
        if not isinstance(level, int) or level < 0:
            raise ValueError(f"level must be an int >= 0, not {level!r}")
        if read == "bytes" and level != 0:
            raise ValueError("read='bytes' serves level-0 rows (or their leaf=); at level "
                             f"{level} use read='array' or read='path'")
        ds = _open(dataset_or_path)
        self.read = read
        self.level = level
        self.leaf = leaf
        self.source = ds._native.path  # not ds.path: a pandas sql() view's 'path' can be a column
        # How to open the same view again in another process (None: not reopenable).
        try:
            self._reopen: Optional[tuple] = ds.__reduce__()
        except TypeError:
            self._reopen = None
        self._handle: Optional[_ReaderDataset] = ds
        self._handle_pid = os.getpid()
        # Per process, the native DataFrame bytes are read from, and (in a process that ran the
        # view again) where each row is in it.
        self._frame = None
        self._frame_index: Optional[dict] = None  # None: the frame's rows are these rows
        self._frame_is_whole = False  # the frame is the whole dataset, not the view

        import pyarrow as pa

        if level == 0:
            # The frame of this one query serves the bytes in this process: running the view
            # again could give other rows or another order (ORDER BY random(), SAMPLE).
            self._frame = ds._native.data()
            table = pa.table(self._frame)
            prefix = ""
        else:
            if level >= ds._native.level_count:
                raise _core.TacoNavigationError(
                    f"{self.source}: level {level} does not exist (the dataset has levels 0.."
                    f"{ds._native.level_count - 1})")
            table = pa.table(ds._native.sql(f"SELECT * FROM l{level}").data_raw())
            prefix = f"l{level}:"
        names = [n for n in table.column_names if n.startswith(prefix)]
        plain = {n[len(prefix):]: n for n in names}
        if "id" not in plain:
            raise _core.TacoSchemaError(f"{self.source}: the view has no 'id' column; keep it in the "
                                        "SELECT to use it as a PyTorch dataset")
        if columns is None:
            wanted = [c for c in plain if not c.startswith("internal:")]
        else:
            wanted = list(columns)
            missing = [c for c in wanted if c not in plain]
            if missing:
                raise _core.TacoSchemaError(
                    f"{self.source}: no column {missing[0]!r} in the view (its columns: "
                    f"{', '.join(c for c in plain if not c.startswith('internal:'))})")
            if "id" not in wanted:
                wanted.insert(0, "id")
        self.columns: List[str] = wanted
        self.values = {c: table.column(plain[c]).to_pylist() for c in wanted}
        self.ids: List[str] = self.values["id"]
        types = table.column(plain["type"]).to_pylist() if "type" in plain else [None] * len(self.ids)
        vsi = plain.get("internal:gdal_vsi")
        self.paths: List[Optional[str]] = table.column(vsi).to_pylist() if vsi else [None] * len(self.ids)
        # Each row's own location, which finds it again in a worker's run of the view.
        self.row_keys: List[Optional[str]] = _portable_keys(list(self.paths))
        if leaf is not None:
            self.paths = self._leaf_paths(ds, types, leaf)
        elif read != "bytes":
            for i, t in enumerate(types):
                if t == "FOLDER":
                    raise _core.TacoNavigationError(
                        f"{self.source}: sample {self.ids[i]!r} is a FOLDER; give leaf='<child id>' "
                        f"to read one of its files, or level={level + 1} for every child")
        # What the paths' descriptors reach, to find them in another process (paths_here()).
        self._path_anchors = _anchors(self.paths)
        self._paths_here: List[Optional[str]] = self.paths
        self._paths_pid: Optional[int] = os.getpid()

    def _leaf_paths(self, ds: _ReaderDataset, types: list, leaf: str) -> List[Optional[str]]:
        if self.level != 0:
            raise ValueError("leaf= selects a child of the level-0 rows; use it with level=0")
        frame = ds._native.data()
        out: List[Optional[str]] = []
        for i, t in enumerate(types):
            if t != "FOLDER":
                raise _core.TacoNavigationError(
                    f"{self.source}: sample {self.ids[i]!r} is a FILE; leaf={leaf!r} names a child "
                    "of a FOLDER sample")
            children = frame.read(i)
            try:
                path = children.read(leaf)
            except _core.TacoNavigationError:
                raise _core.TacoNavigationError(
                    f"{self.source}: sample {self.ids[i]!r} has no child {leaf!r}") from None
            if not isinstance(path, str):
                raise _core.TacoNavigationError(
                    f"{self.source}: child {leaf!r} of sample {self.ids[i]!r} is a FOLDER, not a file")
            out.append(path)
        return out

    def __len__(self) -> int:
        return len(self.ids)

    def metadata(self, i: int) -> dict:
        return {c: self.values[c][i] for c in self.columns}

    def paths_here(self) -> List[Optional[str]]:
        """The rows' GDAL paths as this process opens them. They are `paths` unless they go
        through a descriptor (a dataset under a non-UTF-8 directory) that this process does not
        have: then the descriptor this process's own handle opened on the same directory."""
        if self._paths_pid == os.getpid():
            return self._paths_here
        moved = {fd: identity for fd, identity in self._path_anchors.items()
                 if _anchor_identity(fd) != identity}
        paths = self.paths
        if moved:
            here = self._descriptors_here()
            lost = [fd for fd, identity in moved.items() if identity not in here]
            if lost:
                raise _core.TacoIOError(
                    f"{self.source}: the directory behind /proc/self/fd/{lost[0]} in the process "
                    "that made this dataset is not open in this one (was it moved or removed?)")

            def swap(m: "re.Match") -> str:
                fd = m.group(1)
                return _ANCHOR_TEXT + here[moved[fd]] if fd in moved else m.group(0)

            paths = [_ANCHOR.sub(swap, p) if p and _ANCHOR_TEXT in p else p for p in paths]
        self._paths_here, self._paths_pid = paths, os.getpid()
        return paths

    def _descriptors_here(self) -> Dict[str, str]:
        """What this process's handle of the dataset reaches through each of its descriptors:
        identity -> descriptor number (the view's rows, else the whole dataset's)."""
        import pyarrow as pa

        handle = self.handle()
        frames = [handle._native.data]
        if self._reopen is not None:
            fn, (recipe, _query, backend, _state) = self._reopen
            frames.append(lambda: fn(recipe, None, backend, (None, False, None))._native.data())
        out: Dict[str, str] = {}
        for frame in frames:
            keys = pa.table(frame()).column("internal:gdal_vsi").to_pylist()
            out.update({identity: fd for fd, identity in _anchors(keys).items() if identity})
            if all(identity in out for identity in self._path_anchors.values()):
                break
        return out

    # --- per-process native handle ---------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_handle"] = None  # reopened on demand in the receiving process
        state["_frame"] = None
        state["_frame_index"] = None
        state["_handle_pid"] = None
        state["_paths_here"] = None
        state["_paths_pid"] = None
        return state

    def handle(self) -> _ReaderDataset:
        """The dataset opened by this process: a forked DataLoader worker must not use the
        parent's DuckDB connection (its lock may be held by a parent thread), so it opens its
        own on first use."""
        if self._handle is None or self._handle_pid != os.getpid():
            if self._reopen is None:
                raise _core.TacoQueryError(
                    f"{self.source}: this dataset cannot be reopened in a worker process (it was "
                    "not made by load() or concat()); read='array' and read='path' need no handle")
            fn, args = self._reopen
            # An inherited handle is dropped here: the native core leaves a database it inherited
            # through fork() unclosed (READER.md §11), so this frees nothing of the parent's.
            self._handle = fn(*args)
            self._handle_pid = os.getpid()
            self._frame = None
            self._frame_index = None
        return self._handle

    def _frame_row(self, i: int) -> tuple:
        """This process's frame and row ``i``'s position in it. Another process runs the view
        again and finds each row there by its location (``internal:gdal_vsi``), never by its
        position alone: the run may give the rows in another order, or (ORDER BY random() with
        a LIMIT, USING SAMPLE) other rows, and then the whole dataset is searched."""
        handle = self.handle()
        if self._frame is None:
            self._use_frame(handle._native.data(), whole=False)
        if self._frame_index is None:
            return self._frame, i  # the rows come in this dataset's order
        j = self._frame_index.get(self.row_keys[i])
        if j is None and not self._frame_is_whole:
            fn, (recipe, _query, backend, _state) = self._reopen
            self._use_frame(fn(recipe, None, backend, (None, False, None))._native.data(),
                            whole=True)
            j = self._frame_index.get(self.row_keys[i])
        if j is None:
            # sample_error() names the dataset and the sample.
            raise _core.TacoQueryError("it is not in the dataset when it is opened again in this "
                                       "process; was the dataset changed on disk?")
        return self._frame, j

    def _use_frame(self, frame, whole: bool) -> None:
        import pyarrow as pa

        keys = _portable_keys(pa.table(frame).column("internal:gdal_vsi").to_pylist())
        self._frame = frame
        self._frame_is_whole = whole
        self._frame_index = None if keys == self.row_keys else {
            k: j for j, k in enumerate(keys) if k is not None}

    def read_bytes(self, i: int) -> bytes:
        frame, j = self._frame_row(i)
        if self.leaf is not None:
            return frame.read(j).read_bytes(self.leaf)
        return frame.read_bytes(j)


def sample_error(rows: Rows, i: int, message: str) -> "_core.TacoIOError":
    """The error a failed sample raises: its id, its row and what went wrong."""
    return _core.TacoIOError(f"{rows.source}: sample {rows.ids[i]!r} (row {i}): {message}")

