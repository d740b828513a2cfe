"""DataFrame backends, as tacoreader 2.4's ``use()`` / ``get_backend()`` / ``load(backend=)``.

``TacoDataset.data`` returns a :class:`TacoDataFrame` of the dataset's backend:
:class:`TacoDataFrameArrow` (a pyarrow Table, the default), :class:`TacoDataFramePandas` or
:class:`TacoDataFramePolars`. Each keeps navigation (``read``, ``read_bytes``, ``read_array``) and
the conversions ``to_arrow`` / ``to_pandas`` / ``to_polars``, whatever the backend.

Navigation stays on the native core: a frame made by ``.data`` holds the native DataFrame, and a
frame derived from it (a pandas boolean mask, a polars ``filter``/``sort``...) finds each row's
native position again by its ``internal:gdal_vsi`` (unique per sample). A frame made by
:meth:`TacoDataFrame.from_arrow` from any table with ``id``, ``type`` and ``internal:gdal_vsi``
navigates from those columns alone, as tacoreader's does.

Thread and process safety: the global backend is a plain string read once by ``load``; a dataset
keeps the backend it was loaded with, so changing ``use()`` later (or in another thread) never
changes an existing dataset. ``load(..., backend=...)`` bypasses the global.
"""

from __future__ import annotations

import io
import operator
import os
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Union

from . import _core
from ._exceptions import TacoBackendError, TacoNavigationError, TacoQueryError

AVAILABLE_BACKENDS = ("pyarrow", "polars", "pandas")
DEFAULT_BACKEND = "pyarrow"

DATAFRAME_DEFAULT_HEAD_ROWS = 5
DATAFRAME_DEFAULT_TAIL_ROWS = 5
DATAFRAME_MAX_REPR_ROWS = 100

#: Columns that cannot be modified without breaking navigation (tacoreader's PROTECTED_COLUMNS),
#: plus every ``internal:*`` column.
PROTECTED_COLUMNS = frozenset({
    "id", "type", "internal:parent_id", "internal:offset", "internal:size", "internal:gdal_vsi",
    "internal:source_file", "internal:source_path", "internal:relative_path",
})

# One string, replaced in one step (atomic under the GIL): no lock a fork could inherit held.
_backend = DEFAULT_BACKEND


def _unknown_backend(backend: Any) -> TacoBackendError:
    return TacoBackendError(
        f"Unknown backend: '{backend}'\n"
        f"Available backends: {list(AVAILABLE_BACKENDS)}\n"
        f"\n"
        f"To use additional backends, install required packages:\n"
        f"  pip install polars  # For Polars backend\n"
        f"  pip install pandas  # For Pandas backend")


def check_backend(backend: Any) -> str:
    """``backend`` if it names a backend whose package imports; TacoBackendError otherwise."""
    if backend not in AVAILABLE_BACKENDS:
        raise _unknown_backend(backend)
    if backend != "pyarrow":
        try:
            __import__(backend)
        except ImportError as exc:
            raise TacoBackendError(
                f"{backend.capitalize()} backend requires {backend} package.\n"
                f"Install with: pip install {backend}") from exc
    return backend


def use(backend: str) -> None:
    """Sets the DataFrame backend of every later ``load()``: "pyarrow" (default), "pandas", "polars".

    Raises TacoBackendError for an unknown name or a backend whose package is not installed.
    Datasets already loaded keep their backend; ``load(path, backend=...)`` overrides this per call.
    """
    global _backend
    _backend = check_backend(backend)


def get_backend() -> str:
    """The backend ``load()`` uses when none is given ("pyarrow" unless :func:`use` changed it)."""
    return _backend


# --- navigation helpers for frames without a native table (from_arrow) ----------------------------

_SUBFILE = re.compile(r"^/vsisubfile/(\d+)_(\d+),(.*)$")


def _bytes_at(vsi: str) -> bytes:
    """The bytes a local GDAL path names: ``/vsisubfile/{offset}_{size},{file}`` or a plain file."""
    m = _SUBFILE.match(vsi)
    try:
        if m:
            offset, size, path = int(m.group(1)), int(m.group(2)), m.group(3)
            with open(path, "rb") as f:
                f.seek(offset)
                data = f.read(size)
            if len(data) != size:
                raise TacoNavigationError(f"{path}: {size} bytes at offset {offset} reach past the end")
            return data
        with open(vsi, "rb") as f:
            return f.read()
    except OSError as exc:
        raise _core.TacoIOError(f"cannot read {vsi}: {exc}") from exc


def _children_of(vsi: str):
    """The children of a FOLDER from its ``__meta__`` (ZIP: a subfile; FOLDER: a file), with
    ``internal:gdal_vsi`` added as tacoreader computes it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(io.BytesIO(_bytes_at(vsi)))
    except pa.ArrowException as exc:
        raise _core.TacoFormatError(f"{vsi}: not a readable __meta__ table ({exc}); was this frame's "
                                    "internal:gdal_vsi changed?") from None
    if "internal:gdal_vsi" in table.column_names:
        table = table.drop_columns(["internal:gdal_vsi"])
    m = _SUBFILE.match(vsi)
    if m:
        root = m.group(3)
        for need in ("internal:offset", "internal:size"):
            if need not in table.column_names:
                raise TacoNavigationError(f"{vsi}: children lack '{need}'")
        paths = [None if o is None or s is None else f"/vsisubfile/{o}_{s},{root}"
                 for o, s in zip(table["internal:offset"].to_pylist(), table["internal:size"].to_pylist())]
    else:
        parent = vsi[: -len("__meta__")].rstrip("/") if vsi.endswith("__meta__") else vsi.rstrip("/")
        paths = [None if i is None else f"{parent}/{i}" for i in table["id"].to_pylist()]
    return table.append_column("internal:gdal_vsi", pa.array(paths, type=pa.string()))


def _position(key: Any) -> Union[int, str]:
    """A read() key: a str id, or a position (any integer type; the range is checked by the reader)."""
    if isinstance(key, str):
        return key
    position = None
    if not isinstance(key, bool):
        try:
            position = operator.index(key)
        except TypeError:
            pass
    if position is None:
        raise TacoNavigationError(f"read() takes a position (int) or an id (str), not {type(key).__name__}")
    if not -(2**63) <= position < 2**63:
        # Beyond any table, and beyond what the native reader takes (a 64-bit position).
        raise TacoNavigationError(f"Position {position} out of range: no table has that many rows")
    return position


def _unguarded(name: str):
    """The native ``DataFrame`` method without its argument-error wrapper (_native_errors).

    The per-sample hot paths call it directly with a key whose type they have checked (``int`` or
    ``str``): the wrapper is a Python frame per call, about half of a read's cost. A call the native
    side refuses (an int beyond 64 bits, a str with surrogate escapes) takes the checked path,
    which raises the wrapper's message."""
    method = getattr(_core.DataFrame, name)
    return getattr(method, "__wrapped__", method)


_NATIVE_READ = _unguarded("read")
_NATIVE_READ_BYTES = _unguarded("read_bytes")
_NATIVE_READ_BYTES_MANY = _unguarded("read_bytes_many")


class _FrameLink:
    """What a frame's bound ``read`` needs besides the frame, which may be gone by the time it is
    called (``ds.data.read(k)`` drops the frame before the call): its class, its native rows, its
    format type (a child frame's too) and the view it was taken from (``_owner``, which lives
    here)."""

    __slots__ = ("cls", "native", "owner", "format_type")

    def __init__(self, cls: type, native: Any, format_type: str) -> None:
        self.cls, self.native, self.owner, self.format_type = cls, native, None, format_type


def _check_owner(owner) -> None:
    if owner is not None and owner._is_closed():
        raise TacoQueryError(f"dataset '{owner.id}' is closed: frames taken from it "
                             "can no longer read samples")


def _read_fallback(link: _FrameLink, key: Any, child: Any = None):
    """What ``_core.read_method`` (an aligned frame's bound ``read``) hands back: a key it does not
    take (read as ``_read_checked`` reads it: same checks, same messages), or the native children
    of a FOLDER, to wrap in the frame's class."""
    if child is None:
        _check_owner(link.owner)
        child = link.native.read(_position(key))
        if child.__class__ is str:
            return child
    frame = link.cls._wrap_native(child, link.format_type)  # a collection's children: "tacocat"
    frame._owner = link.owner
    return frame


def _as_array(view: Any) -> Any:
    """A decoded raster as a numpy array over the native buffer (no copy). The native side
    returns a memoryview and numpy is called here, in Python: called from inside the native
    function, a daemon thread ended there at interpreter exit aborted the process
    (python/src/bind_raster.cpp)."""
    import numpy
    return numpy.asarray(view)


def _threads(name: str, threads: Any) -> int:
    """A ``threads=`` argument: None or 0 = every core; a whole number >= 0."""
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 0):
        raise ValueError(f"{name}(threads=...) takes a whole number >= 0 (0: all cores), not {threads!r}")
    return min(threads or 0, 1 << 16)


def _native_key(key: Any) -> Union[int, str]:
    """A key the native reader takes, or the TacoNavigationError/ValueError that names it."""
    key = _position(key)
    if isinstance(key, str):
        try:
            key.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError(f"id {key!r} is not valid Unicode text (it holds surrogate escapes)") from None
    return key


def _protect(key: Any) -> None:
    names = key if isinstance(key, (list, tuple)) else [key]
    for name in names:
        if isinstance(name, str) and (name in PROTECTED_COLUMNS or name.startswith("internal:")):
            raise ValueError(
                f"Cannot modify protected column: '{name}'\n"
                f"Protected: {sorted(PROTECTED_COLUMNS)} + internal:*\n"
                f"These columns are required for .read() navigation.")


class TacoDataFrame:
    """Rows of one level (or of one FOLDER's children) in a DataFrame backend, with navigation.

    Subclasses: :class:`TacoDataFrameArrow` (pyarrow), :class:`TacoDataFramePandas`,
    :class:`TacoDataFramePolars`. ``len``, ``columns``, ``shape``, ``head``/``tail`` and indexing
    follow the backend; ``read``/``read_bytes``/``read_array`` and ``to_arrow``/``to_pandas``/
    ``to_polars`` work on all of them.
    """

    backend = DEFAULT_BACKEND
    # The TacoDataset view this frame was taken from (None for from_arrow frames): once it is
    # closed, every read of this frame and of the frames derived from it refuses.
    @property
    def _owner(self):
        return self._link.owner

    @_owner.setter
    def _owner(self, owner) -> None:
        self._link.owner = owner

    def __init__(self, native: Optional["_core.DataFrame"] = None, data: Any = None, *,
                 aligned: bool = True, format_type: Optional[str] = None, current_level: int = 0) -> None:
        if native is None and data is None:
            raise TypeError("TacoDataFrame needs a native frame or a table; use TacoDataFrame.from_arrow()")
        self._native = native
        self._data = data
        # True while the rows of _data are the native rows, in order (positions agree).
        self._aligned = aligned and native is not None
        self._format_type = format_type or (native.format if native is not None else "unknown")
        self._link = _FrameLink(type(self), native, self._format_type)
        if self._aligned and type(self).read is TacoDataFrame.read:
            # read() without a Python frame of its own: a FILE's path is one native call
            # (_core.read_method, docs/READER.md §10.1). It holds the link, not the frame, so the
            # frame is in no cycle and is freed as soon as it is dropped. _unalign() takes it away.
            self.read = _core.read_method(native, self._link, _read_fallback)
        self._current_level = native.level if native is not None else current_level
        self._vsi_index: Optional[Dict[str, int]] = None

    # --- construction ------------------------------------------------------------------------
    @classmethod
    def from_arrow(cls, arrow_table, format_type: str = "zip", duckdb: Any = None,
                   filtered_level_views: Optional[dict] = None, current_level: int = 0) -> "TacoDataFrame":
        """A frame of this class over a pyarrow Table (tacoreader's signature; ``duckdb`` and
        ``filtered_level_views`` are accepted and unused). Navigation reads ``id``, ``type`` and
        ``internal:gdal_vsi`` from the table; FOLDER children come from their ``__meta__``."""
        import pyarrow as pa

        if not isinstance(arrow_table, pa.Table):
            arrow_table = pa.table(arrow_table)
        if cls is TacoDataFrame:
            cls = _CLASSES[DEFAULT_BACKEND]
        return cls(None, cls._from_arrow_data(arrow_table), aligned=False, format_type=format_type,
                   current_level=current_level)

    @classmethod
    def _wrap_native(cls, native: "_core.DataFrame", format_type: Optional[str] = None) -> "TacoDataFrame":
        return cls(native, None, format_type=format_type)

    @staticmethod
    def _from_arrow_data(table):
        raise NotImplementedError  # each backend defines it

    def _derive(self, data: Any) -> "TacoDataFrame":
        """A frame of the same backend over ``data`` (rows derived from this frame)."""
        out = self.__class__(self._native, data, aligned=False, format_type=self._format_type,
                             current_level=self._current_level)
        out._vsi_index = self._vsi_index
        out._owner = self._owner
        return out

    def _check_open(self) -> None:
        _check_owner(self._owner)

    def _child(self, frame: "TacoDataFrame") -> "TacoDataFrame":
        frame._owner = self._owner
        return frame

    def _native_arrow(self):
        import pyarrow as pa

        return pa.RecordBatchReader.from_stream(self._native).read_all()

    @property
    def data(self):
        """The backend object itself (pa.Table, pd.DataFrame or pl.DataFrame)."""
        if self._data is None:
            self._data = self._from_arrow_data(self._native_arrow())
        return self._data

    # --- conversions -------------------------------------------------------------------------
    def to_arrow(self):
        """The rows as a pyarrow Table."""
        if self._aligned and self._data is None:
            return self._native_arrow()
        return self._to_arrow(self.data)

    def to_pandas(self):
        """The rows as a pandas DataFrame (needs pandas: ``pip install pandas``)."""
        _require("pandas", "to_pandas")
        return self.to_arrow().to_pandas()

    def to_polars(self):
        """The rows as a polars DataFrame (needs polars: ``pip install polars``)."""
        pl = _require("polars", "to_polars")
        return pl.from_arrow(self.to_arrow())

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """Arrow PyCapsule stream protocol: ``pa.table(df)``, ``pl.DataFrame(df)``, DuckDB, ..."""
        if self._aligned and self._data is None:
            return self._native.__arrow_c_stream__(requested_schema)
        return self.to_arrow().__arrow_c_stream__(requested_schema)

    @staticmethod
    def _to_arrow(data):
        raise NotImplementedError  # each backend defines it

    # --- shape -------------------------------------------------------------------------------
    def __len__(self) -> int:
        """Number of rows."""
        if self._aligned and self._data is None:
            return len(self._native)
        return self._len(self.data)

    @staticmethod
    def _len(data) -> int:
        return len(data)

    @property
    def columns(self) -> List[str]:
        """Column names, in order."""
        if self._aligned and self._data is None:
            return list(self._native.columns)
        return list(self._columns(self.data))

    @property
    def shape(self) -> tuple:
        """(rows, columns)."""
        return (len(self), len(self.columns))

    @property
    def level(self) -> int:
        """Hierarchy level of these rows: 0 for ``dataset.data``, +1 per ``read`` of a FOLDER."""
        return self._current_level

    def head(self, n: int = DATAFRAME_DEFAULT_HEAD_ROWS):
        """The first ``n`` rows as a backend object (pandas and polars frames have ``head``)."""
        return self.data.head(n)

    def tail(self, n: int = DATAFRAME_DEFAULT_TAIL_ROWS):
        """The last ``n`` rows as a backend object (pandas and polars frames have ``tail``)."""
        return self.data.tail(n)

    def __getitem__(self, key: Any):
        """Indexing of the backend object (a column, a slice, a mask...)."""
        from ._native_errors import index_backend
        return index_backend(self.data, key)

    # --- navigation --------------------------------------------------------------------------
    def _row(self, key: Union[int, str]) -> dict:
        """The navigation columns (id, type, internal:gdal_vsi: those the frame has) of the row
        at a position or with an id, read from the backend data as it is now (derived or edited
        frames). Only that row's cells are read: a loop of reads stays linear."""
        key = _position(key)
        data = self.data
        n = self._len(data)
        names = [c for c in ("id", "type", _VSI) if c in self._columns(data)]
        if isinstance(key, int):
            if key < 0 or key >= n:
                raise TacoNavigationError(f"Position {key} out of range [0, {n - 1}]"
                                          + (" (negative positions do not count from the end)" if key < 0 else ""))
            position = key
        else:
            if "id" not in names:
                raise TacoNavigationError("Cannot search by ID: 'id' column not found")
            position = self._first_position(data, "id", key)
            if position is None:
                raise TacoNavigationError(f"ID '{key}' not found")
        return {name: self._cell(data, name, position) for name in names}

    def _native_position(self, row: dict) -> Optional[int]:
        """Where a row of a derived frame sits in the native table (by its gdal_vsi)."""
        vsi = row.get("internal:gdal_vsi")
        if self._native is None:
            return None
        if vsi is None:
            # A selection without the path column: the sample is found by its id instead.
            if "internal:gdal_vsi" not in row and isinstance(row.get("id"), str):
                try:
                    return self._native.position_of(row["id"])
                except TacoNavigationError:
                    return None
            return None
        if self._vsi_index is None:
            import pyarrow as pa

            table = pa.RecordBatchReader.from_stream(self._native).read_all()
            if "internal:gdal_vsi" not in table.column_names:
                return None
            self._vsi_index = {v: i for i, v in enumerate(table["internal:gdal_vsi"].to_pylist())}
        return self._vsi_index.get(vsi)

    def _resolve(self, key: Union[int, str]):
        """(native position or None, row or None) for a key."""
        if self._aligned:
            return _position(key), None
        row = self._row(key)
        return self._native_position(row), row

    def read(self, key: Union[int, str]) -> Union[str, "TacoDataFrame"]:
        """FILE row -> its GDAL VSI path; FOLDER row -> a TacoDataFrame (same backend) of its children."""
        if self._aligned and (key.__class__ is int or key.__class__ is str):
            # The hot path: the native frame checks the range, the row's type and whether the
            # dataset was closed (its close() reaches every frame taken from it), so nothing
            # else is done here (docs/READER.md §10.1).
            try:
                result = _NATIVE_READ(self._native, key)
            except TypeError:  # not a 64-bit position / not valid text: the checked path says so
                return self._read_checked(key)
            if result.__class__ is str:
                return result
            return self._child(self.__class__._wrap_native(result, self._format_type))
        return self._read_checked(key)

    def _unalign(self) -> None:
        """The rows of _data no longer match the native ones (a column was set): reads resolve
        keys through _data from now on."""
        self._aligned = False
        self.__dict__.pop("read", None)

    def _read_checked(self, key: Union[int, str]) -> Union[str, "TacoDataFrame"]:
        self._check_open()
        position, row = self._resolve(key)
        if position is not None:
            result = self._native.read(position)
            return result if isinstance(result, str) else self._child(
                self.__class__._wrap_native(result, self._format_type))
        if row.get("type") == "FILE":
            vsi = row.get("internal:gdal_vsi")
            if vsi is None:  # tacoreader: KeyError 'internal:gdal_vsi'; None would pass silently
                raise TacoNavigationError(
                    f"sample {key!r}: this frame kept neither 'id' nor 'internal:gdal_vsi', so its "
                    "file cannot be found; keep one of them in the selection")
            return vsi
        if row.get("type") != "FOLDER":
            raise TacoNavigationError(f"sample {key!r}: type {row.get('type')!r} is neither FILE nor FOLDER")
        vsi = row.get("internal:gdal_vsi")
        if vsi is None:
            raise TacoNavigationError(f"sample {key!r}: no 'internal:gdal_vsi' to read its children from")
        return self._child(self.__class__.from_arrow(_children_of(vsi), self._format_type,
                                                     current_level=self._current_level + 1))

    def read_bytes(self, key: Union[int, str]) -> bytes:
        """The exact bytes of a FILE sample, straight from the container."""
        if self._aligned and (key.__class__ is int or key.__class__ is str):
            try:  # the hot path, as in read()
                return _NATIVE_READ_BYTES(self._native, key)
            except TypeError:
                pass
        return self._read_bytes_checked(key)

    def read_bytes_many(self, keys: Iterable[Union[int, str]], threads: Optional[int] = None) -> List[bytes]:
        """The exact bytes of many FILE samples, in the order of ``keys`` (positions or ids):
        one call, the samples located and read in native code on ``threads`` threads (None or 0:
        every core) without the GIL. The same bytes as ``[df.read_bytes(k) for k in keys]``, and
        the same error for the first key that fails (nothing is returned then)."""
        threads = _threads("read_bytes_many", threads)
        keys = keys if isinstance(keys, list) else list(keys)
        if self._aligned:
            if all(k.__class__ is int or k.__class__ is str for k in keys):
                try:
                    return _NATIVE_READ_BYTES_MANY(self._native, keys, threads)
                except TypeError:
                    pass  # a key the native side cannot take: found and named below
            return _NATIVE_READ_BYTES_MANY(self._native, [_native_key(k) for k in keys], threads)
        return [self._read_bytes_checked(k) for k in keys]

    def _read_bytes_checked(self, key: Union[int, str]) -> bytes:
        self._check_open()
        position, row = self._resolve(key)
        if position is not None:
            return self._native.read_bytes(position)
        if row.get("type") != "FILE":
            raise TacoNavigationError(f"sample {key!r} is a FOLDER; read() into it to reach its files")
        return _bytes_at(row["internal:gdal_vsi"])

    def read_array(self, key: Union[int, str]):
        """A FILE sample decoded by GDAL into a numpy array (bands, height, width)."""
        self._check_open()
        return _as_array(_core.read_array(self._file_path(key)))

    def read_arrays(self, keys: Iterable[Union[int, str]], threads: Optional[int] = None) -> list:
        """Many FILE samples decoded in parallel (``threads`` defaults to all cores), in order."""
        self._check_open()
        threads = _threads("read_arrays", threads)
        paths = [self._file_path(k) for k in keys]
        return [_as_array(view) for view in _core.read_arrays(paths, threads)]

    def iter_arrays(self, keys: Iterable[Union[int, str]], threads: Optional[int] = None) -> Iterator[Any]:
        """Many FILE samples decoded on ``threads`` threads (None or 0: every core), yielded one
        at a time in the order of ``keys``: the same arrays as :meth:`read_arrays`, without
        holding them all. At most ``2 * threads`` are decoded ahead of the consumer, so a loop
        that uses each array and drops it keeps a few alive, and the allocator hands the same
        memory back (read_arrays makes every array's pages fresh: docs/READER.md §10.1). A key
        that is not a FILE raises when the iteration reaches it."""
        self._check_open()
        threads = _threads("iter_arrays", threads) or (os.cpu_count() or 1)
        # Paths up to the first key that is not a FILE; its error comes once the arrays before
        # it have been yielded. The decoding runs on native threads (raster::DecodeAhead).
        paths, error = [], None
        for key in keys:
            try:
                paths.append(self._file_path(key))
            except Exception as e:  # whatever the loop over read() raised there, unchanged
                error = e
                break
        if paths:
            # As every other read: once the dataset is closed, the next array raises (what is
            # already decoding ahead is dropped).
            for view in _core.DecodeAhead(paths, threads, 2 * threads):
                self._check_open()
                yield _as_array(view)
        if error is not None:
            raise error

    def _file_path(self, key: Union[int, str]) -> str:
        result = self.read(key)
        if not isinstance(result, str):
            raise TacoNavigationError(f"sample {key!r} is a FOLDER; read() into it to reach its files")
        return result

    # --- pickling ----------------------------------------------------------------------------
    def __reduce__(self):
        """Pickling (a spawned worker): the rows travel as an Arrow table and the copy navigates
        from them, as a :meth:`from_arrow` frame (FOLDER children read from their ``__meta__``).
        Rows whose paths go through ``/proc/self/fd/N`` (a dataset under a directory whose name is
        not UTF-8, USER-GUIDE §8) name a descriptor of this process only: another process would
        read whatever its own descriptor N is, so they are refused."""
        table = self.to_arrow()
        if _VSI in table.column_names and _paths_of_this_process(table.column(_VSI)):
            raise TypeError("this frame's internal:gdal_vsi paths go through /proc/self/fd/ (the dataset "
                            "lies under a directory whose name is not UTF-8) and mean nothing in another "
                            "process; pickle the dataset instead (it is loaded again by its path), or "
                            "give the dataset a UTF-8 path")
        return (_unpickle_frame, (self.__class__, table, self._format_type, self._current_level))

    # --- display -----------------------------------------------------------------------------
    def __repr__(self) -> str:
        total = len(self)
        shown = self.head(min(DATAFRAME_MAX_REPR_ROWS, total))
        more = f" (showing first {DATAFRAME_MAX_REPR_ROWS})" if total > DATAFRAME_MAX_REPR_ROWS else ""
        return (f"{shown}\n[TacoDataFrame: {total} rows{more}, format={self._format_type}, "
                f"backend={self.backend}]")

    def _repr_html_(self) -> str:
        from ._html import dataframe_html

        return dataframe_html(self)


class TacoDataFrameArrow(TacoDataFrame):
    """A pyarrow Table with navigation (the default backend). ``df[key]`` is a Table column."""

    backend = "pyarrow"

    @staticmethod
    def _from_arrow_data(table):
        return table

    @staticmethod
    def _to_arrow(data):
        return data

    @staticmethod
    def _columns(data):
        return data.column_names

    @staticmethod
    def _cell(data, column: str, position: int):
        return data.column(column)[position].as_py()

    @staticmethod
    def _first_position(data, column: str, value) -> Optional[int]:
        import pyarrow.compute as pc

        found = pc.index(data.column(column), value).as_py()
        return None if found < 0 else found

    def head(self, n: int = DATAFRAME_DEFAULT_HEAD_ROWS):
        """The first ``n`` rows as a pyarrow Table."""
        t = self.to_arrow()
        return t.slice(0, max(0, min(n, t.num_rows)))

    def tail(self, n: int = DATAFRAME_DEFAULT_TAIL_ROWS):
        """The last ``n`` rows as a pyarrow Table."""
        t = self.to_arrow()
        return t.slice(max(0, t.num_rows - max(0, n)))

    def __getitem__(self, key: Any):
        """pyarrow Table indexing: a column by name or position."""
        from ._native_errors import index_backend
        return index_backend(self.to_arrow(), key)


class TacoDataFramePandas(TacoDataFrame):
    """A pandas DataFrame with navigation. DataFrame results of indexing, ``query``,
    ``sort_values`` and ``assign`` stay TacoDataFrames; protected columns refuse assignment."""

    backend = "pandas"

    @staticmethod
    def _from_arrow_data(table):
        _require("pandas", "pandas backend")
        return table.to_pandas()

    @staticmethod
    def _to_arrow(data):
        import pyarrow as pa

        return pa.Table.from_pandas(data, preserve_index=False)

    @staticmethod
    def _columns(data):
        return data.columns.tolist()

    @staticmethod
    def _cell(data, column: str, position: int):
        import pandas as pd

        value = data[column].iat[position]
        return None if value is None or (pd.api.types.is_scalar(value) and pd.isna(value)) else value

    @staticmethod
    def _first_position(data, column: str, value) -> Optional[int]:
        import numpy as np

        hits = np.flatnonzero((data[column] == value).to_numpy())
        return int(hits[0]) if len(hits) else None

    def __getitem__(self, key: Any):
        """pandas indexing; a DataFrame result stays a TacoDataFramePandas (navigation kept)."""
        import pandas as pd

        from ._native_errors import index_backend
        result = index_backend(self.data, key)
        return self._derive(result) if isinstance(result, pd.DataFrame) else result

    def __setitem__(self, key: Any, value: Any) -> None:
        _protect(key)
        self.data[key] = value
        self._unalign()

    def to_pandas(self):
        """A copy of the pandas DataFrame (without navigation)."""
        return self.data.copy()

    def query(self, expr: str, **kwargs) -> "TacoDataFramePandas":
        """``DataFrame.query``; the result keeps navigation."""
        return self._derive(self.data.query(expr, **kwargs))

    def sort_values(self, by, ascending: bool = True, **kwargs) -> "TacoDataFramePandas":
        """``DataFrame.sort_values``; the result keeps navigation."""
        return self._derive(self.data.sort_values(by=by, ascending=ascending, **kwargs))

    def assign(self, **kwargs) -> "TacoDataFramePandas":
        """``DataFrame.assign``; ValueError for a protected column; the result keeps navigation."""
        for name in kwargs:
            _protect(name)
        return self._derive(self.data.assign(**kwargs))

    def groupby(self, by, **kwargs):
        """``DataFrame.groupby`` (a pandas GroupBy, not a TacoDataFrame)."""
        return self.data.groupby(by=by, **kwargs)

    @property
    def loc(self):
        """The pandas label indexer (results are pandas objects). It can also write into this
        frame (``df.loc[i, col] = ...``), so from now on ``read()`` finds rows through the frame's
        own cells (ids and paths as edited, as tacoreader's frame does), not the native rows."""
        self._unalign()
        return self.data.loc

    @property
    def iloc(self):
        """The pandas position indexer (results are pandas objects); writes count, as for :attr:`loc`."""
        self._unalign()
        return self.data.iloc


class TacoDataFramePolars(TacoDataFrame):
    """A polars DataFrame with navigation. ``filter``, ``select``, ``with_columns``, ``sort`` and
    ``limit`` return TacoDataFrames; protected columns refuse assignment."""

    backend = "polars"

    @staticmethod
    def _from_arrow_data(table):
        pl = _require("polars", "polars backend")
        return pl.from_arrow(table)

    @staticmethod
    def _to_arrow(data):
        return data.to_arrow()

    @staticmethod
    def _columns(data):
        return data.columns

    @staticmethod
    def _cell(data, column: str, position: int):
        return data.get_column(column)[position]

    @staticmethod
    def _first_position(data, column: str, value) -> Optional[int]:
        import polars as pl

        hits = data.select(pl.arg_where(pl.col(column) == value))
        return int(hits.item(0, 0)) if hits.height else None

    def __setitem__(self, key: str, value: Any) -> None:
        import polars as pl

        _protect(key)
        if isinstance(value, (pl.Series, pl.Expr)):
            self._data = self.data.with_columns(value.alias(key))
        else:
            self._data = self.data.with_columns(pl.Series(key, value))
        self._unalign()

    def to_polars(self):
        """A clone of the polars DataFrame (without navigation)."""
        return self.data.clone()

    def filter(self, *args, **kwargs) -> "TacoDataFramePolars":
        """``DataFrame.filter``; the result keeps navigation."""
        return self._derive(self.data.filter(*args, **kwargs))

    def select(self, *args, **kwargs) -> "TacoDataFramePolars":
        """``DataFrame.select``; the result keeps navigation while it keeps the navigation columns."""
        return self._derive(self.data.select(*args, **kwargs))

    def with_columns(self, *args, **kwargs) -> "TacoDataFramePolars":
        """``DataFrame.with_columns``; the result keeps navigation. Like tacoreader's, it may
        replace ``id`` or ``internal:gdal_vsi`` (by keyword as by expression): the derived
        frame's ``read()`` then uses the new values (``df[col] = …`` and pandas ``assign`` refuse
        protected columns, as tacoreader's do)."""
        return self._derive(self.data.with_columns(*args, **kwargs))

    def sort(self, by, *args, **kwargs) -> "TacoDataFramePolars":
        """``DataFrame.sort``; the result keeps navigation."""
        return self._derive(self.data.sort(by, *args, **kwargs))

    def limit(self, n: int) -> "TacoDataFramePolars":
        """The first ``n`` rows; the result keeps navigation."""
        return self._derive(self.data.limit(n))

    def group_by(self, *args, **kwargs):
        """``DataFrame.group_by`` (a polars GroupBy, not a TacoDataFrame)."""
        return self.data.group_by(*args, **kwargs)


_VSI = "internal:gdal_vsi"


def _paths_of_this_process(column) -> bool:
    """Whether any path of ``column`` (an Arrow string column) holds ``/proc/self/fd/``."""
    import pyarrow.compute as pc

    return bool(pc.any(pc.match_substring(column, "/proc/self/fd/")).as_py())


def _unpickle_frame(cls, table, format_type: str, current_level: int) -> TacoDataFrame:
    return cls.from_arrow(table, format_type, current_level=current_level)


_CLASSES = {"pyarrow": TacoDataFrameArrow, "pandas": TacoDataFramePandas, "polars": TacoDataFramePolars}


def frame_class(backend: str):
    """The TacoDataFrame subclass of a backend name (checked)."""
    return _CLASSES[check_backend(backend)]


def native_table(table, backend: str):
    """A pyarrow Table converted to the backend's own type (what tacoreader's ``sql()`` returns)."""
    check_backend(backend)
    if backend == "pandas":
        return table.to_pandas()
    if backend == "polars":
        import polars as pl

        return pl.from_arrow(table)
    return table


def _require(module: str, what: str):
    """The module, or ImportError telling how to install it (TacoBackendError for a backend)."""
    try:
        return __import__(module)
    except ImportError as exc:
        if what.endswith("backend"):
            raise TacoBackendError(f"{what} requires {module} package.\nInstall with: pip install {module}") from exc
        raise ImportError(f"TacoDataFrame.{what}() needs {module}: pip install {module}") from exc
