"""The rows a PyTorch dataset serves: metadata columns and where each sample's data is.

Built once in the process that makes the dataset (one query), then shipped to DataLoader
workers by fork or pickle. Workers never touch the parent's DuckDB connection: what needs a
native handle there (``read="bytes"``) reopens the dataset in the worker (:class:`Rows.handle`).
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence

from . import _core
from ._reader import TacoDataset as _ReaderDataset
from ._reader import load

READ_MODES = ("array", "bytes", "path")
ON_ERROR = ("raise", "skip")


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
        self.source = ds.path
        # How to open the same view again in another process (None: not reopenable).
        try:
            self._reopen: Optional[tuple] = ds.__reduce__()
        except TypeError:
            self._reopen = None
        self._handle: Optional[_ReaderDataset] = ds
        self._handle_pid = os.getpid()
        self._frame = None  # per-process native DataFrame of the rows (bytes reads)

        import pyarrow as pa

        if level == 0:
            table = pa.table(ds._native.data())
            prefix = ""
        else:
            if level >= ds._native.level_count:
                raise _core.TacoNavigationError(
                    f"{ds.path}: level {level} does not exist (the dataset has levels 0.."
                    f"{ds._native.level_count - 1})")
            table = pa.table(ds._native.sql(f"SELECT * FROM l{level}").data_raw())
            prefix = f"l{level}:"
        names = [n for n in table.column_names if n.startswith(prefix)]
        plain = {n[len(prefix):]: n for n in names}
        if "id" not in plain:
            raise _core.TacoSchemaError(f"{ds.path}: the view has no 'id' column; keep it in the "
                                        "SELECT to use it as a PyTorch dataset")
        if columns is None:
            wanted = [c for c in plain if not c.startswith("internal:")]
        else:
            wanted = list(columns)
            missing = [c for c in wanted if c not in plain]
            if missing:
                raise _core.TacoSchemaError(
                    f"{ds.path}: no column {missing[0]!r} in the view (its columns: "
                    f"{', '.join(c for c in plain if not c.startswith('internal:'))})")
            if "id" not in wanted:
                wanted.insert(0, "id")
        self.columns: List[str] = wanted
        self.values = {c: table.column(plain[c]).to_pylist() for c in wanted}
        self.ids: List[str] = self.values["id"]
        types = table.column(plain["type"]).to_pylist() if "type" in plain else [None] * len(self.ids)
        vsi = plain.get("internal:gdal_vsi")
        self.paths: List[Optional[str]] = table.column(vsi).to_pylist() if vsi else [None] * len(self.ids)
        if leaf is not None:
            self.paths = self._leaf_paths(ds, types, leaf)
        elif read != "bytes":
            for i, t in enumerate(types):
                if t == "FOLDER":
                    raise _core.TacoNavigationError(
                        f"{ds.path}: sample {self.ids[i]!r} is a FOLDER; give leaf='<child id>' "
                        f"to read one of its files, or level={level + 1} for every child")

    def _leaf_paths(self, ds: _ReaderDataset, types: list, leaf: str) -> List[Optional[str]]:
        if self.level != 0:
            raise ValueError("leaf= selects a child of the level-0 rows; use it with level=0")
        frame = ds._native.data()
        out: List[Optional[str]] = []
        for i, t in enumerate(types):
            if t != "FOLDER":
                raise _core.TacoNavigationError(
                    f"{ds.path}: sample {self.ids[i]!r} is a FILE; leaf={leaf!r} names a child "
                    "of a FOLDER sample")
            children = frame.read(i)
            try:
                path = children.read(leaf)
            except _core.TacoNavigationError:
                raise _core.TacoNavigationError(
                    f"{ds.path}: sample {self.ids[i]!r} has no child {leaf!r}") from None
            if not isinstance(path, str):
                raise _core.TacoNavigationError(
                    f"{ds.path}: child {leaf!r} of sample {self.ids[i]!r} is a FOLDER, not a file")
            out.append(path)
        return out

    def __len__(self) -> int:
        return len(self.ids)

    def metadata(self, i: int) -> dict:
        return {c: self.values[c][i] for c in self.columns}

    # --- per-process native handle ---------------------------------------------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_handle"] = None  # reopened on demand in the receiving process
        state["_frame"] = None
        state["_handle_pid"] = None
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
        return self._handle

    def read_bytes(self, i: int) -> bytes:
        handle = self.handle()
        if self._frame is None:
            self._frame = handle._native.data()
        if self.leaf is not None:
            return self._frame.read(i).read_bytes(self.leaf)
        return self._frame.read_bytes(i)


def sample_error(rows: Rows, i: int, message: str) -> "_core.TacoIOError":
    """The error a failed sample raises: its id, its row and what went wrong."""
    return _core.TacoIOError(f"{rows.source}: sample {rows.ids[i]!r} (row {i}): {message}")

