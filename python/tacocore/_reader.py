"""Reading datasets with tacoreader's names: load, TacoDataset, TacoDataFrame."""

from __future__ import annotations

import html
import json
import operator
import os
from typing import Any, Iterable, List, Optional, Sequence, Union

from . import _core

__all__ = ["load", "clear_cache", "concat", "validate", "TacoDataset", "TacoDataFrame", "PITSchema"]


def load(
    path: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
    base_path: Optional[Union[str, os.PathLike]] = None,
    *,
    storage_options: Optional[dict] = None,
    sandbox: bool = False,
    timeout: Optional[float] = None,
    memory_limit: Optional[str] = None,
) -> "TacoDataset":
    """Opens a TACO dataset: a ``.tacozip``/``.zip`` file, a FOLDER with COLLECTION.json, or a
    collection index (a ``.tacocat`` folder, a ``__TACOCAT__`` file, or a directory holding one),
    local or remote (``https://``, ``http://``, ``s3://``, ``gs://``, ``az://``, GDAL ``/vsi…/``).

    ``base_path`` (collections only, spec §8.1): the directory of the parts when they are not
    beside the index. A list with one path loads that path; two or more are loaded and combined
    with :func:`concat` (default column mode); an empty list raises TacoQueryError.
    ``storage_options`` (remote only) are settings for this location and the files below it:
    AWS/Google/Azure names (``aws_access_key_id``, ``endpoint_url``, ``region``,
    ``skip_signature``, ``account_name``, ...) or GDAL options (``GDAL_HTTP_TIMEOUT``, ...).
    ``sandbox=True`` limits ``sql()`` to the dataset's own files, locks DuckDB's settings and caps
    its memory (1GB unless ``memory_limit``); ``timeout`` interrupts a query after that many
    seconds (TacoQueryError). See the user guide's "Security" section.
    """
    if isinstance(path, (list, tuple)):
        if not path:
            raise _core.TacoQueryError("Cannot load empty list of paths")
        if len(path) > 1:
            if sandbox:
                raise _core.TacoQueryError("sandbox=True loads one dataset at a time, not a list")
            return concat([load(p, base_path, storage_options=storage_options, timeout=timeout,
                                memory_limit=memory_limit) for p in path])
        path = path[0]
    path = os.fspath(path)
    if storage_options:
        _set_storage_options(path, storage_options)
    base = "" if base_path is None else os.fspath(base_path)
    return TacoDataset(_core.load(path, sandbox, timeout or 0.0, memory_limit or "", base))


def _set_storage_options(path: str, options: dict) -> None:
    if not _core.is_remote(path):
        raise _core.TacoIOError(f"{path}: storage_options apply to remote locations only")
    values = {}
    for key, value in options.items():
        if isinstance(value, bool):
            value = "YES" if value else "NO"
        values[str(key)] = str(value)
    _core.set_remote_options(path, values)


def clear_cache() -> int:
    """Removes every cached entry of remote metadata (TACOCORE_CACHE_DIR); returns the count."""
    return _core.clear_cache()


def concat(datasets: Sequence["TacoDataset"], column_mode: str = "intersection") -> "TacoDataset":
    """Combines datasets with the same tree structure into one (tacoreader's ``concat``).

    Level ``i`` of the result is the union of level ``i`` of every input, in order; nothing is
    copied and each input's ``sql()`` filter applies (deeper levels keep only the children of the
    rows it kept). ``column_mode``: ``"intersection"`` keeps the columns every input has,
    ``"fill_missing"`` keeps all (NULL where missing), ``"strict"`` raises TacoSchemaError when
    they differ. Every row gains ``internal:source_path``; ``internal:current_id`` and
    ``internal:parent_id`` are shifted so they stay unique. Metadata is the first input's, with the
    ``taco:pit_schema`` counts summed.

    Raises TacoQueryError for fewer than 2 datasets or an unknown mode, TacoSchemaError when the
    containers (zip/folder) or tree structures differ or a column navigation needs is missing.
    """
    datasets = list(datasets)
    for d in datasets:
        if not isinstance(d, TacoDataset):
            raise TypeError(f"concat() takes TacoDataset objects, got {type(d).__name__}")
        d._check_open()
    return TacoDataset(_core.concat([d._native for d in datasets], column_mode))


def validate(path: Union[str, os.PathLike]) -> list:
    """Full compliance report: a list of findings {severity, code, location, message}; empty if valid."""
    return _core.validate(os.fspath(path))


class PITSchema:
    """The `taco:pit_schema` of a dataset: ``root`` {n, type} and ``hierarchy`` {"1": [patterns]}.

    Same interface as tacoreader's ``PITSchema``: ``to_dict()``, ``with_n(n)``, ``max_depth()``,
    ``is_compatible(other)``. Keys other than root and hierarchy (newer writers add ``shape``)
    stay in ``collection["taco:pit_schema"]``.
    """

    def __init__(self, doc: dict) -> None:
        self._doc = doc
        self.root = doc.get("root", {})
        self.hierarchy = doc.get("hierarchy", {})

    def max_depth(self) -> int:
        """Deepest hierarchy level (0 for a flat dataset; the root level is not counted)."""
        return max((int(k) for k in self.hierarchy), default=0)

    def to_dict(self) -> dict:
        """{"root": ..., "hierarchy": ...} as plain dicts and lists (a copy)."""
        return json.loads(json.dumps({"root": self.root, "hierarchy": self.hierarchy}))

    def with_n(self, n: int) -> "PITSchema":
        """A copy whose root count is ``n`` (the structure is unchanged)."""
        doc = self.to_dict()
        doc["root"]["n"] = n
        return PITSchema(doc)

    def is_compatible(self, other: "PITSchema") -> bool:
        """True when ``other`` has the same structure (root type, depths, child types and ids);
        the counts ``n`` are ignored."""
        if self.root.get("type") != other.root.get("type"):
            return False
        if set(self.hierarchy) != set(other.hierarchy):
            return False
        for depth, patterns in self.hierarchy.items():
            theirs = other.hierarchy[depth]
            if len(patterns) != len(theirs):
                return False
            for a, b in zip(patterns, theirs):
                if a.get("type") != b.get("type") or a.get("id") != b.get("id"):
                    return False
        return True

    def __repr__(self) -> str:
        return f"PITSchema(root={self.root.get('type')}, max_depth={self.max_depth()})"


class TacoDataset:
    """A loaded dataset: collection metadata plus a lazy SQL view (``data`` names the current view)."""

    def __init__(self, native: "_core.Dataset", parent: Optional["TacoDataset"] = None) -> None:
        self._native = native
        self._collection = parent._collection if parent else json.loads(native.collection_json)
        self._closed = False

    # --- collection metadata -------------------------------------------------------------------
    id = property(lambda self: self._native.id, doc="The dataset id (COLLECTION ``id``).")
    version = property(lambda self: self._native.version,
                       doc='COLLECTION ``dataset_version`` ("unknown" when the collection has none).')
    description = property(lambda self: self._native.description, doc="COLLECTION ``description``.")
    tasks = property(lambda self: list(self._native.tasks), doc="COLLECTION ``tasks`` (a list of task names).")
    licenses = property(lambda self: list(self._native.licenses), doc="COLLECTION ``licenses`` (SPDX ids).")
    providers = property(lambda self: self._native.providers,
                         doc="COLLECTION ``providers``: dicts {name, roles, url, links} or, in older "
                             "datasets, {name, organization, email, role}.")
    curators = property(lambda self: self._native.curators,
                        doc="COLLECTION ``curators`` (dicts {name, organization, email, role}) or None.")
    title = property(lambda self: self._native.title, doc="COLLECTION ``title`` or None.")
    keywords = property(lambda self: self._native.keywords, doc="COLLECTION ``keywords`` or None.")
    taco_version = property(lambda self: self._native.taco_version, doc="COLLECTION ``taco_version``.")
    format = property(lambda self: self._native.format, doc='Container: "zip" or "folder".')
    path = property(lambda self: self._native.path,
                    doc='The path given to ``load`` ("<concatenated>" for :func:`concat`).')
    sources = property(lambda self: list(self._native.sources),
                       doc="The files behind the dataset (every input of a concatenation).")

    @property
    def extent(self) -> Optional[dict]:
        """COLLECTION ``extent``: {"spatial": [w, s, e, n], "temporal": [start, end] or None}."""
        return self._collection.get("extent")

    @property
    def collection(self) -> dict:
        """A copy of the whole COLLECTION.json document."""
        return json.loads(json.dumps(self._collection))

    @property
    def pit_schema(self) -> PITSchema:
        """The tree structure (``taco:pit_schema``) as a :class:`PITSchema`."""
        return PITSchema(self._collection.get("taco:pit_schema", {}))

    @property
    def field_schema(self) -> dict:
        """``taco:field_schema``: level key ("level0", ...) -> [[name, arrow type, description], ...]."""
        return self._collection.get("taco:field_schema", {})

    # --- queries -------------------------------------------------------------------------------
    def sql(self, query: str) -> "TacoDataset":
        """A new lazy view from ``query``, where ``data`` is this dataset's current view.

        Nothing runs until ``.data`` is asked for. ``level1``..``levelN`` name the deeper levels.
        """
        self._check_open()
        return TacoDataset(self._native.sql(query), self)

    @property
    def data(self) -> "TacoDataFrame":
        """Runs the view; keeps ``internal:gdal_vsi`` but no other internal column."""
        self._check_open()
        return TacoDataFrame(self._native.data())

    @property
    def data_raw(self) -> "TacoDataFrame":
        """Runs the view keeping every column, internal ones included."""
        self._check_open()
        return TacoDataFrame(self._native.data_raw())

    def count(self) -> int:
        """Rows in the current view."""
        self._check_open()
        return self._native.count()

    def read(self, key: Union[int, str]) -> Union[str, "TacoDataFrame"]:
        """Same as ``.data.read(key)`` (as tacoreader's ``TacoDataset.read``)."""
        return self.data.read(key)

    # --- lifetime --------------------------------------------------------------------------------
    def close(self) -> None:
        """Releases this view; safe to call twice. Other views of the same dataset stay usable."""
        self._closed = True

    def __enter__(self) -> "TacoDataset":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise _core.TacoQueryError(f"dataset '{self.id}' is closed")

    # --- display ---------------------------------------------------------------------------------
    def __repr__(self) -> str:
        lines = [f"<TacoDataset '{self.id}'>", f"├── Version: {self.version}",
                 f"├── Format: {self.format} ({self.path})"]
        desc = self.description
        lines.append(f"├── Description: {desc[:80] + '...' if len(desc) > 80 else desc}")
        lines.append(f"├── Tasks: {', '.join(self.tasks)}")
        ext = self.extent or {}
        if ext.get("spatial"):
            lines.append("├── Spatial Extent: [" + ", ".join(f"{v:.2f}°" for v in ext["spatial"]) + "]")
        if ext.get("temporal"):
            lines.append(f"├── Temporal Extent: {ext['temporal'][0]} → {ext['temporal'][1]}")
        lines.append(f"└── Levels: {self._native.level_count} (root: {self.pit_schema.root.get('n')} "
                     f"{self.pit_schema.root.get('type')})")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        rows = [("id", self.id), ("version", self.version), ("format", self.format),
                ("description", self.description), ("tasks", ", ".join(self.tasks)),
                ("licenses", ", ".join(self.licenses)), ("levels", str(self._native.level_count))]
        ext = self.extent or {}
        if ext.get("spatial"):
            rows.append(("spatial", ", ".join(f"{v:.1f}" for v in ext["spatial"])))
        if ext.get("temporal"):
            rows.append(("temporal", " → ".join(ext["temporal"])))
        body = "".join(f"<tr><th style='text-align:left'>{e(k)}</th><td>{e(str(v))}</td></tr>" for k, v in rows)
        fields = "".join(
            f"<li><b>{e(level)}</b>: {e(', '.join(f[0] for f in cols))}</li>"
            for level, cols in self.field_schema.items())
        title = e(self.title or self.id)
        return (f"<div class='tacocore-dataset'><h4>{title}</h4><table>{body}</table>"
                f"<details><summary>Fields by level</summary><ul>{fields}</ul></details></div>")


class TacoDataFrame:
    """Materialized rows of one level (or of one FOLDER's children) with navigation."""

    def __init__(self, native: "_core.DataFrame") -> None:
        self._native = native
        self._arrow = None

    # --- shape -----------------------------------------------------------------------------------
    def __len__(self) -> int:
        """Number of rows."""
        return len(self._native)

    @property
    def columns(self) -> List[str]:
        """Column names, in order."""
        return list(self._native.columns)

    @property
    def shape(self) -> tuple:
        """(rows, columns)."""
        return (len(self), len(self.columns))

    @property
    def level(self) -> int:
        """Hierarchy level of these rows: 0 for ``dataset.data``, +1 per ``read`` of a FOLDER."""
        return self._native.level

    # --- conversion ------------------------------------------------------------------------------
    def to_arrow(self):
        """The rows as a pyarrow Table, exported through the Arrow C stream interface (no per-row work)."""
        if self._arrow is None:
            import pyarrow as pa
            self._arrow = pa.RecordBatchReader.from_stream(self._native).read_all()
        return self._arrow

    def to_pandas(self):
        """The rows as a pandas DataFrame (needs pandas: ``pip install tacocore[pandas]``)."""
        _require("pandas", "to_pandas")
        return self.to_arrow().to_pandas()

    def to_polars(self):
        """The rows as a polars DataFrame (needs polars: ``pip install tacocore[polars]``)."""
        pl = _require("polars", "to_polars")
        return pl.from_arrow(self.to_arrow())

    def head(self, n: int = 5):
        """The first ``n`` rows as a pyarrow Table."""
        return self.to_arrow().slice(0, max(0, n))

    def tail(self, n: int = 5):
        """The last ``n`` rows as a pyarrow Table."""
        t = self.to_arrow()
        return t.slice(max(0, len(t) - max(0, n)))

    def __getitem__(self, key: Any):
        """pyarrow Table indexing: a column by name or position."""
        return self.to_arrow()[key]

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """Arrow PyCapsule stream protocol: ``pa.table(df)``, ``pl.DataFrame(df)``, DuckDB, ..."""
        return self._native.__arrow_c_stream__(requested_schema)

    # --- navigation and sample data --------------------------------------------------------------
    def read(self, key: Union[int, str]) -> Union[str, "TacoDataFrame"]:
        """FILE row → its GDAL VSI path; FOLDER row → a TacoDataFrame of its children."""
        result = self._native.read(_key(key))
        return result if isinstance(result, str) else TacoDataFrame(result)

    def read_bytes(self, key: Union[int, str]) -> bytes:
        """The exact bytes of a FILE sample, straight from the container."""
        return self._native.read_bytes(_key(key))

    def read_array(self, key: Union[int, str]):
        """A FILE sample decoded by GDAL into a numpy array (bands, height, width)."""
        return _core.read_array(self._file_path(key))

    def read_arrays(self, keys: Iterable[Union[int, str]], threads: Optional[int] = None) -> list:
        """Many FILE samples decoded in parallel (``threads`` defaults to all cores), in order."""
        paths = [self._file_path(k) for k in keys]
        return _core.read_arrays(paths, threads or 0)

    def _file_path(self, key: Union[int, str]) -> str:
        result = self._native.read(_key(key))
        if not isinstance(result, str):
            raise _core.TacoNavigationError(f"sample {key!r} is a FOLDER; read() into it to reach its files")
        return result

    def __repr__(self) -> str:
        return f"{self.head(10)}\n[TacoDataFrame: {len(self)} rows, level={self.level}, format={self._native.format}]"


def _require(module: str, method: str):
    try:
        return __import__(module)
    except ImportError as exc:
        raise ImportError(f"TacoDataFrame.{method}() needs {module}: pip install {module}") from exc


def _key(key: Union[int, str]) -> Union[int, str]:
    """A read() key: a str id, or a position (any integer: int, numpy integer, ...)."""
    if isinstance(key, str):
        return key
    position = None
    if not isinstance(key, bool):
        try:
            position = operator.index(key)
        except TypeError:
            pass
    if position is None:
        raise _core.TacoNavigationError(
            f"read() takes a position (int) or an id (str), not {type(key).__name__}")
    if position < 0:
        raise _core.TacoNavigationError(f"Position {position} out of range: negative positions are not allowed")
    return position
