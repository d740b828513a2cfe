"""Reading datasets with tacoreader's names: load, TacoDataset, TacoDataFrame."""

from __future__ import annotations

import json
import logging
import math
import os
import warnings
from typing import Any, Optional, Sequence, Union

from . import _cache, _core
from ._exceptions import TacoBackendError, TacoPathNotFoundError
from ._backends import TacoDataFrame, check_backend, frame_class, get_backend
from ._flat import FlatMixin
from ._spacetime import SpaceTimeMixin, StatsMixin
from ._logging import get_logger, progress
from ._pit_schema import PITSchema

__all__ = ["load", "concat", "validate", "TacoDataset", "TacoDataFrame", "PITSchema"]

logger = get_logger(__name__)


def load(
    path: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]],
    base_path: Optional[Union[str, os.PathLike]] = None,
    backend: Optional[str] = None,
    cache: bool = True,
    *,
    storage_options: Optional[dict] = None,
    sandbox: bool = False,
    timeout: Optional[float] = None,
    memory_limit: Optional[str] = None,
) -> "TacoDataset":
    """Opens a TACO dataset: a ``.tacozip``/``.zip`` file, a FOLDER with COLLECTION.json, or a
    collection index (a ``.tacocat`` folder, a ``__TACOCAT__`` file, or a directory holding one),
    local or remote (``https://``, ``http://``, ``s3://``, ``gs://``, ``az://``, GDAL ``/vsi…/``).

    The positional parameters are tacoreader's, in its order. ``base_path`` (collections only,
    spec §8.1): the directory of the parts when they are not beside the index. ``backend``
    ("pyarrow", "pandas", "polars") is the type of ``.data`` for this dataset; by default the one
    set with :func:`tacocore.use` (TacoBackendError for an unknown or missing one). ``cache`` is
    accepted for tacoreader's signature; tacocore's remote metadata cache is switched off with
    ``TACOCORE_CACHE_DIR=off`` (user guide, "Remote datasets").

    A list with one path loads that path; two or more are loaded and combined with
    :func:`concat` (default column mode); an empty list raises TacoQueryError.
    ``storage_options`` (remote only) are settings for this location and the files below it:
    AWS/Google/Azure names (``aws_access_key_id``, ``endpoint_url``, ``region``,
    ``skip_signature``, ``account_name``, ...) or GDAL options (``GDAL_HTTP_TIMEOUT``, ...).
    ``sandbox=True`` limits ``sql()`` to the dataset's own files, locks DuckDB's settings and caps
    its memory (1GB unless ``memory_limit``); ``timeout`` interrupts a query after that many
    seconds (TacoQueryError). See the user guide's "Security" section.
    """
    backend = check_backend(backend if backend is not None else get_backend())
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not math.isfinite(timeout) or timeout < 0):
        raise ValueError(f"timeout must be a number of seconds >= 0 (None or 0: no limit), not {timeout!r}")
    options = {"storage_options": storage_options, "sandbox": sandbox, "timeout": timeout,
               "memory_limit": memory_limit}
    if isinstance(path, (list, tuple)):
        if not path:
            raise _core.TacoQueryError("Cannot load empty list of paths")
        if len(path) > 1:
            if sandbox:
                raise _core.TacoQueryError("sandbox=True loads one dataset at a time, not a list")
            parts = [load(p, base_path, backend, cache, **options)
                     for p in progress(path, len(path), "load")]
            return concat(parts)
        path = path[0]
    path = os.fspath(path)
    base = "" if base_path is None else os.fspath(base_path)
    logger.debug("load %s (backend %s)", _shown(path), backend)
    if storage_options:
        _set_storage_options(path, storage_options)
    ds = TacoDataset(_open(path, sandbox, timeout or 0.0, memory_limit or "", base), backend=backend)
    missing = ds._native.missing_parts
    if missing:
        # tacoreader loads such an index too; its rows answer queries, reads of these parts fail.
        shown = ", ".join(_shown(p) for p in missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        warnings.warn(f"{_shown(path)}: {len(missing)} part(s) of the collection are missing ({shown}); "
                      "the index can be queried, but their samples cannot be read (base_path= says "
                      "where the parts are)", UserWarning, stacklevel=2)
    # A pickled dataset opens the same files wherever it is unpickled: a relative path is made
    # absolute now, against the directory it was loaded from.
    ds._recipe = ("load", _anchored(path), None if base_path is None else _anchored(base), options)
    if logger.isEnabledFor(logging.INFO):
        logger.info("loaded '%s' from %s: %s, %d level(s), %s root samples", ds.id, _shown(path),
                    ds.format, ds._native.level_count, ds.pit_schema.root.get("n"))
    return ds


def _shown(path: Union[str, bytes]) -> str:
    """A path for a log line: one that is not UTF-8 escaped (``\\xff``) as tacocore's messages
    show it, so that no logging handler fails to encode it."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _open(path: Union[str, bytes], *args: Any) -> "_core.Dataset":
    if isinstance(path, bytes):  # os.fspath() of a bytes path: decoded as the OS does
        path = os.fsdecode(path)
    # A Linux path is bytes: one that is not UTF-8 arrives as a str with surrogate escapes, which
    # the native side takes back to the exact bytes (os.fsencode; docs/USER-GUIDE.md §8).
    try:
        return _core.load(path, *args)
    except _core.TacoIOError as exc:
        if not _core.is_remote(path) and not os.path.lexists(path):
            raise TacoPathNotFoundError(f"{exc} (COLLECTION.json not found: the path does not exist)") from None
        raise


def _anchored(path: Union[str, bytes]) -> Union[str, bytes]:
    """``path`` made absolute if it is local (a remote location stays as given)."""
    if _core.is_remote(os.fsdecode(path)):
        return path
    return os.path.abspath(path)


def _set_storage_options(path: str, options: dict) -> None:
    if not _core.is_remote(path):
        raise _core.TacoIOError(f"{path}: storage_options apply to remote locations only")
    values = {}
    for key, value in options.items():
        if isinstance(value, bool):
            value = "YES" if value else "NO"
        values[str(key)] = str(value)
    _core.set_remote_options(path, values)


def concat(datasets: Sequence["TacoDataset"], column_mode: str = "intersection") -> "TacoDataset":
    """Combines datasets with the same tree structure into one (tacoreader's ``concat``).

    Level ``i`` of the result is the union of level ``i`` of every input, in order; nothing is
    copied and each input's ``sql()`` filter applies (deeper levels keep only the children of the
    rows it kept). ``column_mode``: ``"intersection"`` keeps the columns every input has,
    ``"fill_missing"`` keeps all (NULL where missing), ``"strict"`` raises TacoSchemaError when
    they differ. Every row gains ``internal:source_path``; ``internal:current_id`` and
    ``internal:parent_id`` are shifted so they stay unique. Metadata is the first input's, with the
    ``taco:pit_schema`` counts summed.

    Raises TacoQueryError for fewer than 2 datasets or an unknown mode, TacoBackendError when
    their DataFrame backends differ, TacoSchemaError when the containers (zip/folder) or tree
    structures differ or a column navigation needs is missing.
    """
    if isinstance(datasets, TacoDataset):  # iterating it would give its table's columns
        raise TypeError("concat() takes a list of TacoDataset objects, not one TacoDataset: "
                        "concat([a, b])")
    datasets = list(datasets)
    for d in datasets:
        if not isinstance(d, TacoDataset):
            raise TypeError(f"concat() takes TacoDataset objects, got {type(d).__name__}")
        d._check_open()
    backends = sorted({d._backend for d in datasets})
    if len(datasets) >= 2 and len(backends) > 1:
        per_dataset = "\n".join(f"  dataset {i}: {d._backend} ({_shown(d._native.path)})"
                                 for i, d in enumerate(datasets))
        raise TacoBackendError(
            f"Cannot concatenate datasets with different DataFrame backends {backends}:\n"
            f"{per_dataset}\nLoad them with the same backend (tacocore.use('pyarrow'), or "
            f"load(..., backend=...)), as tacoreader requires.")
    backend = datasets[0]._backend if datasets else get_backend()
    ds = TacoDataset(_core.concat([d._native for d in datasets], column_mode), backend=backend)
    ds._recipe = ("concat", datasets, column_mode)
    logger.info("concatenated %d datasets (column_mode=%s)", len(datasets), column_mode)
    return ds


def validate(path: Union[str, os.PathLike]) -> list:
    """Full compliance report: a list of findings {severity, code, location, message}; empty if valid."""
    return _core.validate(os.fspath(path))


class TacoDataset(FlatMixin, SpaceTimeMixin, StatsMixin):
    """A loaded dataset: collection metadata plus a lazy SQL view (``data`` names the current view).

    tacoreader 2.4.21's ``sql()`` returns a table at once; here ``sql()`` is the specification's
    lazy, chainable view, and it also answers as that table: ``len()``, ``[column]`` and any
    attribute the dataset does not have (``num_rows``, ``to_pandas``, ``shape``...) go to the
    result in the dataset's backend (:meth:`to_native`), computed once.
    """

    def __init__(self, native: "_core.Dataset", parent: Optional["TacoDataset"] = None,
                 backend: Optional[str] = None) -> None:
        self._native = native
        self._collection = parent._collection if parent else json.loads(native.collection_json)
        self._backend = backend or (parent._backend if parent else get_backend())
        self._closed = False
        # close() of a dataset closes every view made from it (sql(), filters) and their frames.
        self._parent = parent
        self._sort_by: Optional[str] = None
        self._sort_descending = False
        self._limit_n: Optional[int] = None
        self._count: Optional[int] = None
        self._table = None
        self._rsut: Optional[bool] = None
        self._read_frame: Optional["TacoDataFrame"] = None  # the rows read() navigates, once run
        # Made by sql(): repr shows the result table, as tacoreader 2.4.21's sql() result prints.
        self._sql_view = False
        # How to open this dataset again in another process (pickling): see __reduce__.
        self._recipe = parent._recipe if parent else None
        _cache.track(self)

    def _drop_cached(self) -> None:
        self._count = None
        self._table = None
        self._rsut = None
        self._read_frame = None

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
    def extent(self) -> dict:
        """COLLECTION ``extent``: {"spatial": [w, s, e, n], "temporal": [start, end] or None};
        ``{}`` when the document has none, as tacoreader (so ``ds.extent.get(...)`` works)."""
        return self._collection.get("extent", {})

    def model_dump(self) -> dict:
        """The dataset's fields as tacoreader's pydantic ``TacoDataset.model_dump()`` gives them:
        id, version, description, tasks, extent, providers, licenses, title, curators, keywords
        and pit_schema (a :class:`PITSchema` of the current view)."""
        native = self._native
        return {"id": native.id, "version": native.version, "description": native.description,
                "tasks": list(native.tasks), "extent": self._collection.get("extent", {}),
                "providers": native.providers, "licenses": list(native.licenses),
                "title": native.title, "curators": native.curators, "keywords": native.keywords,
                "pit_schema": TacoDataset.pit_schema.fget(self)}

    @property
    def collection(self) -> dict:
        """A copy of the whole COLLECTION.json document."""
        return json.loads(json.dumps(self._collection))

    @property
    def pit_schema(self) -> PITSchema:
        """The tree structure (``taco:pit_schema``) as a :class:`PITSchema`, with counts that follow
        the current view: after ``sql()`` the root count is the view's rows and each deeper count
        is scaled the same way (a view that keeps nothing reports 0 everywhere)."""
        schema = PITSchema(self._collection.get("taco:pit_schema", {}))
        if self._is_base():
            return schema
        return schema._scaled(self._row_count())

    def _is_base(self) -> bool:
        return self._native.query == "SELECT * FROM level0"

    @property
    def backend(self) -> str:
        """The DataFrame backend of ``.data`` ("pyarrow", "pandas" or "polars")."""
        return self._backend

    @property
    def field_schema(self) -> dict:
        """``taco:field_schema``: level key ("level0", ...) -> [[name, arrow type, description], ...]."""
        return self._collection.get("taco:field_schema", {})

    # --- queries -------------------------------------------------------------------------------
    def sql(self, query: str) -> "TacoDataset":
        """A new lazy view from ``query``, where ``data`` is this dataset's current view.

        Nothing runs until ``.data`` is asked for. ``level1``..``levelN`` name the deeper levels;
        ``l0``..``lN`` are tacoreader 2.4's flat views (columns prefixed by level, ``"l1:id"``);
        after a filter they hold only the rows this view kept and their descendants.
        """
        self._check_open()
        logger.debug("sql: %s", query)
        return self._view_of(self._native.sql(query))

    def _view_of(self, native: "_core.Dataset", printed_as_table: bool = True) -> "TacoDataset":
        """A new view of this dataset (sql(), filter_bbox(), filter_datetime()): same backend.
        A sql() view is a SqlView: it prints as its result table and answers as that table where
        a name could be either (tacoreader's sql() returns the table); a filter's view is a
        dataset and prints as a tree, as tacoreader's filter_* do."""
        if printed_as_table:
            from ._sql_view import SqlView

            view = SqlView(native, self)
        else:
            view = TacoDataset(native, self)
        view._sql_view = printed_as_table
        return view

    @property
    def data(self) -> "TacoDataFrame":
        """Runs the view; keeps ``internal:gdal_vsi`` but no other internal column. A TacoDataFrame
        of the dataset's backend (pyarrow by default)."""
        self._check_open()
        return self._own(frame_class(self._backend)._wrap_native(self._native.data(), self._frame_format()))

    @property
    def data_raw(self) -> "TacoDataFrame":
        """Runs the view keeping every column, internal ones included."""
        self._check_open()
        return self._own(frame_class(self._backend)._wrap_native(self._native.data_raw(), self._frame_format()))

    def _frame_format(self) -> Optional[str]:
        """What frames call the container: a collection's rows are "tacocat" (tacoreader's
        format_type), whose navigation columns include internal:source_file."""
        return "tacocat" if self._native.is_collection else None

    def _own(self, frame: "TacoDataFrame") -> "TacoDataFrame":
        """Ties a frame to this view: after close() its reads raise (see TacoDataFrame._check_open)."""
        frame._owner = self
        return frame

    def count(self) -> int:
        """Rows in the current view (on a ``sql()`` view whose table has ``count``, pandas and
        polars, that is the table's: use ``len(view)``)."""
        return self._row_count()

    def _row_count(self) -> int:
        self._check_open()
        if self._count is None:
            self._count = self._native.count()
        return self._count

    def export(self, output, format: str = "auto", overwrite: bool = False, **kwargs) -> dict:
        """Writes this view's samples with their subtrees as a new dataset (see tacocore.export)."""
        self._check_open()
        from ._convert import export
        return export(self, output, format=format, overwrite=overwrite, **kwargs)

    def read(self, key: Union[int, str]) -> Union[str, "TacoDataFrame"]:
        """Same as ``.data.read(key)`` (as tacoreader's ``TacoDataset.read``). The view is run on
        the first ``read`` and its rows kept for the next ones (a loop of ``ds.read(i)`` would
        otherwise run the whole query per sample); ``clear_cache()`` and ``close()`` drop them."""
        frame = self._read_frame
        if frame is None:
            frame = self._read_frame = self.data
        return frame.read(key)

    # --- lifetime --------------------------------------------------------------------------------
    def interrupt(self) -> None:
        """Interrupts the query running on this dataset, from any thread (a watchdog, a GUI): it
        raises TacoQueryError in the thread that ran it, and the dataset stays usable."""
        self._native.interrupt()

    def close(self) -> None:
        """Releases this view and its cached results; safe to call twice. Later use of it, of the
        views made from it (``sql()``) and of the frames taken from either (``.data``, and the
        frames their ``read()`` returns) raises TacoQueryError, for every kind of read alike. Views
        it was made from, and other loads of the same files, stay usable."""
        self._closed = True
        self._table = None
        self._read_frame = None
        # The native close reaches what Python does not track: frames handed to other code,
        # their children, concat() results, and readers on other threads (a read already
        # running completes; any later one raises the same TacoQueryError).
        self._native.close()

    def __reduce__(self):
        """Pickling (a spawned worker process, e.g. a PyTorch DataLoader with spawn): the worker
        opens the same files again and gets the same view, backend and sort/limit settings.
        (A forked process inherits the object, but its queries raise TacoQueryError there: it
        loads again, as this does; user guide, "Fork and multiprocessing".)"""
        self._check_open()
        if self._recipe is None:
            raise TypeError("this TacoDataset was not made by load() or concat() and cannot be pickled")
        state = (self._sort_by, self._sort_descending, self._limit_n, self._sql_view)
        return (_restore, (self._recipe, self._native.query, self._backend, state))

    def __enter__(self) -> "TacoDataset":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> None:
        view = self
        while view is not None:
            if view._closed:
                raise _core.TacoQueryError(f"dataset '{self._native.id}' is closed")
            view = view._parent

    def _is_closed(self) -> bool:
        try:
            self._check_open()
        except _core.TacoQueryError:
            return True
        return False

    # --- display ---------------------------------------------------------------------------------
    def __repr__(self) -> str:
        """As tacoreader's: id, version, description, tasks, extent (dates without a midnight
        time, seconds without fractions) and the level-0 row count of the current view. A view
        made by ``sql()`` prints its result table instead, as tacoreader 2.4.21's ``sql()``
        result does (the tree, with the error, if the query fails)."""
        failure = ""
        if self._sql_view and not self._closed:
            try:
                return repr(self.to_native())
            except _core.TacoError as exc:
                failure = f"\n(the view's query fails: {exc})"
        return self._tree_repr() + failure

    def _tree_repr(self) -> str:
        # Through _native: on a sql() view these names can be the result table's (SqlView).
        native = self._native
        lines = [f"<TacoDataset '{native.id}'>", f"├── Version: {native.version}"]
        desc = native.description
        lines.append(f"├── Description: {desc[:80] + '...' if len(desc) > 80 else desc}")
        lines.append(f"├── Tasks: {', '.join(native.tasks)}")
        ext = self._collection.get("extent") or {}
        # As tacoreader: the collection's extent, marked once a filter made this view (the
        # extent itself is not recomputed).
        marked = "" if self._is_base() else " (filtered)"
        spatial = ext.get("spatial")
        if spatial:
            lines.append("├── Spatial Extent: [" + ", ".join(f"{v:.2f}°" for v in spatial[:4]) + "]" + marked)
        temporal = ext.get("temporal")
        if temporal:
            lines.append(f"├── Temporal Extent: {_format_temporal(temporal[0])} → "
                         f"{_format_temporal(temporal[1])}{marked}")
        lines.append("│")
        try:
            level0 = f"{self.pit_schema.root.get('n')} rows (RSUT: {self.is_rsut()})"
        except _core.TacoError:  # a view whose query fails: shown, with the error, by __repr__
            level0 = "? rows"
        lines.append(f"└── Level 0: {level0}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """Notebook view: collection fields and the PIT drawn as an SVG tree (a view made by
        ``sql()``: its result table, when the backend draws tables)."""
        from ._html import dataset_html

        if self._sql_view and not self._closed:
            try:
                table = self.to_native()
            except _core.TacoError:
                table = None
            if hasattr(table, "_repr_html_"):
                return table._repr_html_()
        return dataset_html(self)


def _restore(recipe: tuple, query: str, backend: str, state: tuple) -> "TacoDataset":
    """The dataset a pickle describes: load or concat again, then the same view (``query``
    None: the dataset without any view)."""
    if recipe[0] == "load":
        ds = load(recipe[1], recipe[2], backend, **recipe[3])
    else:
        ds = concat(recipe[1], column_mode=recipe[2])
        ds._backend = backend
    # (sort_by, descending, limit_n[, made by sql()]): the short form is the torch rows' own.
    sort_by, descending, limit_n = state[:3]
    sql_view = len(state) > 3 and state[3]
    if query is not None and ds._native.query != query:
        # A view's SQL defines `data` itself, so binding it again changes nothing.
        view = ds._view_of(ds._native.sql(query), printed_as_table=sql_view)
        view._recipe = ds._recipe
        ds = view
    ds._sort_by, ds._sort_descending, ds._limit_n = sort_by, descending, limit_n
    return ds


def _format_temporal(value: Any) -> str:
    """tacoreader's date display: "2023-01-01" at midnight, else "2023-01-01 12:30:00"."""
    if value is None:
        return "None"
    text = str(value).replace("Z", "")
    if "T" not in text:
        return text
    if "T00:00:00" in text:
        return text.split("T")[0]
    date_part, time_part = text.split("T", 1)
    return f"{date_part} {time_part.split('.')[0]}"
