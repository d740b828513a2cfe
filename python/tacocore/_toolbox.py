"""Creating datasets with tacotoolbox's names: Sample, Tortilla, Taco, create."""

from __future__ import annotations

import json
import os
import threading
import warnings
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

from . import _core
from ._exceptions import TacoSampleFileError

__all__ = ["Sample", "Tortilla", "Taco", "create"]

_COLLECTION_FIELDS = ("id", "dataset_version", "description", "licenses", "providers", "tasks",
                      "taco_version", "title", "curators", "keywords", "extent")


# Sample.file without its argument-error wrapper (_native_errors): a Python frame per sample.
_SAMPLE_FILE = getattr(_core.Sample.file, "__wrapped__", _core.Sample.file)


class Sample:
    """The smallest unit of a dataset: a FILE (a path or ``bytes``) or a FOLDER (a Tortilla).

    ``Sample(id, path, type="auto", **metadata)`` as in tacotoolbox. Extra keyword arguments
    become extension fields (``cloud_cover=12.5``, ``**{"stac:crs": "EPSG:4326"}``).
    ``temp_dir`` is accepted for tacotoolbox compatibility and ignored: ``bytes`` stay in memory
    until the dataset is written, no temporary file is made.
    """

    # Millions of samples: no per-instance dict (~10% of building one).
    __slots__ = ("_core_sample", "_pending", "_tortilla", "_descriptions", "__weakref__")

    def __init__(self, id: str, path: Union[str, os.PathLike, bytes, bytearray, memoryview, "Tortilla"],
                 type: str = "auto", temp_dir: Union[str, os.PathLike, None] = None, **metadata: Any) -> None:
        if isinstance(path, (str, os.PathLike)):  # the common case first
            inferred = "FILE"
            try:
                native = _SAMPLE_FILE(id, os.fspath(path))
            except TypeError:  # the checked call raises the message naming the argument
                native = _core.Sample.file(id, os.fspath(path))
            except _core.TacoIOError as exc:  # also a ValueError, as tacotoolbox raises
                raise TacoSampleFileError(str(exc)) from None
        elif isinstance(path, Tortilla):
            inferred = "FOLDER"
            native = _core.Sample.folder(id, path._native)
        elif isinstance(path, (bytes, bytearray, memoryview)):
            inferred = "FILE"
            native = _core.Sample.from_bytes(id, bytes(path))
        else:
            raise _core.TacoSchemaError(
                f"sample '{id}': path must be a file path, bytes or a Tortilla, not {type_name(path)}")
        if type not in ("auto", inferred):
            raise _core.TacoSchemaError(
                f"sample '{id}': type {type!r} does not match its path (which makes a {inferred})")
        self._core_sample = native
        self._pending = None
        self._tortilla = path if inferred == "FOLDER" else None
        # {column: text} of the extensions added, for taco:field_schema (tacotoolbox's
        # _field_descriptions); None until one describes its columns.
        self._descriptions: Optional[dict] = None
        if metadata:
            for key, value in metadata.items():
                native.set(key, value)

    @classmethod
    def _wrap(cls, native: "_core.Sample") -> "Sample":
        obj = cls.__new__(cls)
        obj._core_sample = native
        obj._pending = None
        obj._tortilla = None
        obj._descriptions = None
        return obj

    @property
    def _native(self) -> "_core.Sample":
        """The native sample, with every deferred 1-row table of extend_with applied."""
        if self._pending is not None:
            _apply_pending([self])
        return self._core_sample

    id = property(lambda self: self._core_sample.id, doc="The sample id.")
    type = property(lambda self: self._core_sample.type, doc='"FILE" or "FOLDER".')
    size = property(lambda self: self._core_sample.size,
                    doc="Bytes of the FILE (or of every FILE below a FOLDER).")
    # tacotoolbox's private name, read by its SpatialGrouping(target_size=...).
    _size_bytes = property(lambda self: self._core_sample.size, doc="``size``, tacotoolbox's name.")

    @property
    def path(self) -> Union[Path, "Tortilla", None]:
        """The file path, the Tortilla of a FOLDER, or None for in-memory bytes."""
        if self._tortilla is not None:
            return self._tortilla
        if self._native.type == "FOLDER":  # a sample taken out of a Tortilla
            return Tortilla._wrap(self._native.children)
        p = self._native.path
        return Path(p) if p is not None else None

    @property
    def metadata(self) -> dict:
        """Extension fields as a dict, in insertion order."""
        return self._native.fields()

    def extend_with(self, fields: Union[dict, Any], name: Optional[str] = None) -> "Sample":
        """Adds extension fields: an extension (``STAC``, ``ISTAC``, ``Scaling``, ``Split``, or
        tacotoolbox's own extension objects), a one-row pyarrow Table (its column types kept,
        nulls included), a dict, or a pydantic model / object with ``model_dump``, whose fields
        go under the namespace ``name`` (default: the class name in lower case), as in
        tacotoolbox: ``extend_with(Weather(temp=1.0), name="day")`` adds ``day:temp``."""
        deferrable = _deferrable  # the common case (a sliced metadata table) first
        if deferrable is not None and type(fields) is deferrable[0]:
            self._extend_with_arrow(fields)
            return self
        if _is_arrow_table(fields):
            self._extend_with_arrow(fields)
            return self
        from . import _extensions
        if isinstance(fields, _extensions.SampleExtension):
            texts = _descriptions_of(fields)
            fields._apply(self._native)
            self._descriptions = _described(self._descriptions, texts)
            return self
        texts = {}
        if callable(fields) and not isinstance(fields, type):
            # tacotoolbox's SampleExtension protocol (its own, ``GeotiffStats()``, a user's):
            # ext(sample) gives a 1-row pyarrow Table, get_field_descriptions() its columns' texts.
            texts, fields = _descriptions_of(fields), fields(self)
        if _is_arrow_table(fields):
            self._extend_with_arrow(fields)
        else:
            if isinstance(fields, dict):
                items = fields
            else:
                # tacotoolbox's rule for a model that is no extension: its fields under the
                # namespace ``name``, else its class name in lower case (Weather -> "weather:temp"),
                # so that two models with the same field names do not overwrite each other.
                if name is not None and (not isinstance(name, str) or not name):
                    raise _core.TacoSchemaError(f"extend_with: name must be a non-empty string, not {name!r}")
                namespace = name or type(fields).__name__.lower()
                items = {f"{namespace}:{k}": v for k, v in _as_dict(fields, "extend_with").items()}
            for key, value in items.items():
                self._native.set(key, value)
        self._descriptions = _described(self._descriptions, texts)
        return self

    def _extend_with_arrow(self, table: Any) -> None:
        # A table like the last one the native reader took whole (same Table class, same column
        # names and types, hence keys already checked) waits, to be read with its neighbours in
        # one pass when the samples go into a Tortilla (_apply_pending): exporting a 1-row table
        # and reading it back costs ~9 us of pyarrow's machinery per sample, once per batch then.
        deferrable = _deferrable
        if deferrable is not None and type(table) is deferrable[0] and table.num_rows == 1 \
                and table.schema.equals(deferrable[1]):
            _defer(self, table)
            return
        # Earlier deferred tables first (the property applies them): the order of fields is kept.
        if _apply_arrow_row(self._native, table) and type(table).__name__ == "Table":
            _remember_deferrable(table)

    def pop(self, key: str) -> Any:
        """Removes an extension field and returns it as tacotoolbox's ``pop`` does: a 1-row pyarrow
        Table of that column, typed as the writer stores it, which ``extend_with`` takes back.
        ValueError for a core field (id, type, path), KeyError for one the sample does not have."""
        if key in ("id", "type", "path"):
            raise ValueError(f"sample '{self.id}': cannot pop core field '{key}'")
        native = self._native
        row = _samples_table([native])
        if key not in row.column_names:
            raise KeyError(key)
        native.pop(key)
        if self._descriptions:
            self._descriptions.pop(key, None)
        return row.select([key])

    def __getitem__(self, key: str) -> Any:
        """The value of extension field ``key`` (KeyError if absent)."""
        return self._native.get(key)

    def __getattr__(self, name: str) -> Any:
        # Only reached for names a Sample does not have: an extension field read as an attribute
        # (sample.cloud, getattr(sample, "stac:crs")), as on tacotoolbox's pydantic Sample.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'Sample' object has no attribute or extension field '{name}'") from None

    def model_dump(self) -> dict:
        """``{"id", "path", "type", <extension fields>...}``, tacotoolbox's ``Sample.model_dump()``
        (``path``: a Path, the Tortilla of a FOLDER, or None for bytes held in memory)."""
        return {"id": self.id, "path": self.path, "type": self.type, **self.metadata}

    def export_metadata(self) -> Any:
        """This sample as a 1-row pyarrow Table, as tacotoolbox's ``export_metadata()``: id, type,
        path (null for bytes held in memory and for a FOLDER), then the extension fields with the
        types the writer stores them with."""
        return _samples_table([self._native])

    def validate_with(self, validator: Any) -> None:
        """Runs ``validator.validate(self)``, tacotoolbox's SampleValidator protocol (its
        ``TacotiffValidator`` works on these samples); the validator's error propagates."""
        validate = getattr(validator, "validate", None)
        if not callable(validate):
            raise TypeError(f"validate_with: expected a validator with a validate(sample) method, "
                            f"not {type_name(validator)}")
        validate(self)

    def cleanup(self) -> None:
        """Removes nothing: tacocore keeps ``bytes`` in memory and never makes a temporary file,
        where tacotoolbox writes them to one that ``cleanup()`` removes. Kept so its scripts run."""

    def __repr__(self) -> str:
        return f"Sample(id={self.id!r}, type={self.type!r}, size={self.size}, fields={list(self.metadata)})"

    def __copy__(self) -> "Sample":
        """``copy.copy(sample)``: a sample with its own fields, so extending or popping on the
        copy leaves this one unchanged (tacotoolbox's shallow copy shares its field lists and
        then fails); the file, its bytes and a FOLDER's children are shared, as nothing changes
        them."""
        new = Sample.__new__(Sample)
        new._core_sample = self._native.__copy__()  # this sample's waiting rows applied first
        new._pending = None
        new._tortilla = self._tortilla
        new._descriptions = dict(self._descriptions) if self._descriptions else self._descriptions
        return new

    def model_copy(self, *, update: Optional[dict] = None, deep: bool = False) -> "Sample":
        """pydantic's ``model_copy`` of tacotoolbox's Sample: ``copy.copy(self)`` (``deep`` changes
        nothing, as nothing but the fields of a sample can change), then ``update``'s fields set
        on the copy as ``extend_with`` sets them: checked, and ``id``/``type``/``path`` refused
        (pydantic would set them unchecked; make a new Sample instead)."""
        if not isinstance(deep, bool):
            raise TypeError(f"model_copy: deep must be True or False, not {type_name(deep)}")
        new = self.__copy__()
        if update:
            new.extend_with(dict(update))
        return new

    # Pickling (Dask, multiprocessing): the native sample carries everything, its FOLDER
    # children included, so the Tortilla wrapper is not pickled a second time.
    def __getstate__(self) -> dict:
        return {"native": self._native, "descriptions": self._descriptions}

    def __setstate__(self, state: dict) -> None:
        self._core_sample = state["native"]
        self._pending = None
        self._tortilla = None
        self._descriptions = state.get("descriptions")
        if self._descriptions:
            global _described_once
            _described_once = True


# Deferred 1-row tables (Sample.extend_with). A sample's tables wait in its `_pending` list and
# the sample in `_queue`; they are applied when the sample goes into a Tortilla, when anything
# reads the native sample (`Sample._native`), or, so that millions of samples never hold a
# pyarrow table each (~2 KB against ~0.3 KB of native fields), when the queue is full. Every
# change to `_pending` and `_queue` holds `_pending_lock`: a thread's Tortilla or a full queue
# applies the tables of samples another thread is building.

# (pyarrow Table class, schema) of the last 1-row table the native reader took whole, or None.
# One tuple replaced whole, so threads building samples at once read a consistent pair.
_deferrable: Optional[tuple] = None
_QUEUE_LIMIT = 4096
_queue: list = []
_pending_lock = threading.RLock()


def _new_lock_in_child() -> None:
    # fork() copies the lock as held when another thread was applying tables at that moment:
    # the child would wait on it forever. Samples that thread was applying stay waiting, and
    # Tortilla() applies its own samples' tables besides the queue's.
    global _pending_lock
    _pending_lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock_in_child)


def _defer(sample: Sample, table: Any) -> None:
    with _pending_lock:
        if sample._pending is None:
            sample._pending = [table]
            _queue.append(sample)
            if len(_queue) < _QUEUE_LIMIT:
                return
        else:
            sample._pending.append(table)
            return
    _drain_queue()


def _drain_queue() -> None:
    """Applies the tables of every queued sample (the queue is full). A table the native reader
    refuses stays with its sample, which leaves the queue: the error is raised where that
    sample is used (its Tortilla, or a read of its fields), never in another sample's call."""
    with _pending_lock:
        queued = _queue[:]
        _queue.clear()
        try:
            _apply_pending(queued)
        except _core.TacoError:
            pass  # kept by the samples concerned (see _apply_rounds)


def _take_from_queue(samples: Sequence[Sample]) -> None:
    """Removes `samples` from the queue: a Tortilla applies its own samples' tables itself, so
    that it fails only for them (a bad row of a sample still being built elsewhere is not its
    error)."""
    with _pending_lock:
        if _queue:
            mine = {id(s) for s in samples}
            _queue[:] = [s for s in _queue if id(s) not in mine]


def _apply_arrow_row(native: "_core.Sample", table: Any) -> bool:
    """Adds the one row of `table` to `native`; True when the native reader took it whole.

    Straight from the Arrow buffers, typed from the schema (~1 us, src: python/src/arrow_row.cpp);
    what that reader leaves (time, duration, run-end encoded, list views, values past the
    model's) through pyarrow scalars: only those columns, the others still read natively."""
    if table.num_rows == 1 and hasattr(table, "__arrow_c_stream__") and \
            _core.extend_from_arrow(native, table.__arrow_c_stream__()):
        return True
    _arrow_fields(native.id, table).apply(native)
    return False


def _remember_deferrable(table: Any) -> None:
    global _deferrable
    last = _deferrable
    if last is None or last[0] is not type(table) or not last[1].equals(table.schema):
        _deferrable = (type(table), table.schema)


def _apply_pending(samples: Sequence[Sample]) -> None:
    """Applies the deferred 1-row tables of `samples`, each sample's in the order given.

    Round k takes every sample's k-th table; the tables of one round that share a schema are
    concatenated and read in one native pass. When that pass declines (text that is not UTF-8,
    which only the one-sample path reports with the sample's name), nothing of it was applied and
    the tables go one by one, as extend_with would have applied them."""
    with _pending_lock:
        _apply_rounds([s for s in samples if s._pending is not None])


def _apply_rounds(waiting: list) -> None:
    """Round k applies every waiting sample's k-th table. A table is taken from its sample only
    once it is applied: a sample whose table fails keeps it (and its later ones, so their order
    holds), the others go on, and the first failure is raised at the end. A retry then fails
    the same way instead of finding the sample's fields silently gone."""
    first_error: Optional[Exception] = None
    while waiting:
        tables = [s._pending[0] for s in waiting]
        # Usually one schema for the whole round (pyarrow refuses to concatenate others).
        if len(tables) > 1 and _read_together(waiting, tables):
            for s in waiting:
                s._pending = s._pending[1:] or None
            failed: list = []
        else:
            failed, error = _apply_by_schema(waiting, tables)
            first_error = first_error or error
        waiting = [s for s in waiting if s._pending is not None and not any(s is f for f in failed)]
    if first_error is not None:
        raise first_error


def _apply_by_schema(samples: list, tables: list) -> tuple:
    """samples[i] takes tables[i]: one native pass per schema, one by one where that declines or
    fails. Returns (the samples whose table failed, the first error or None)."""
    groups: list = []  # [(schema, [sample], [table])]
    for s, table in zip(samples, tables):
        for schema, members, grouped in groups:
            if schema.equals(table.schema):
                members.append(s)
                grouped.append(table)
                break
        else:
            groups.append((table.schema, [s], [table]))
    failed: list = []
    first_error: Optional[Exception] = None
    for _, members, grouped in groups:
        try:
            batched = len(grouped) > 1 and _read_together(members, grouped)
        except _core.TacoError:  # a bad row: found below, one sample at a time
            batched = False
        for s, table in zip(members, grouped):
            if not batched:
                try:
                    _apply_arrow_row(s._core_sample, table)
                except _core.TacoError as exc:
                    failed.append(s)
                    first_error = first_error or exc
                    continue
            s._pending = s._pending[1:] or None
    return failed, first_error


def _read_together(samples: list, tables: list) -> bool:
    """Row i of the concatenated `tables` into samples[i] in one native pass; False, with nothing
    applied, when the native reader declines or pyarrow cannot concatenate them."""
    import pyarrow as pa
    try:
        stream = pa.concat_tables(tables).combine_chunks().__arrow_c_stream__()
    except (pa.ArrowException, TypeError):
        return False
    return _core.extend_rows_from_arrow([s._core_sample for s in samples], stream)


class Tortilla:
    """Samples sharing one metadata schema: ``Tortilla(samples, strict_schema=True, *, pad_to=None)``.

    The positional order is tacotoolbox's (``Tortilla(samples, False)`` is ``strict_schema=False``);
    ``pad_to``, tacocore's own, is keyword-only."""

    def __init__(self, samples: Sequence[Sample], strict_schema: bool = True, *,
                 pad_to: Optional[int] = None) -> None:
        if not isinstance(samples, (list, tuple)):
            # A lone Sample is iterable (its metadata, through __getitem__): named, not iterated.
            if isinstance(samples, (Sample, str, bytes, dict)) or not hasattr(samples, "__iter__"):
                raise _core.TacoSchemaError(
                    f"Tortilla: samples must be a list of Samples, not {type_name(samples)}"
                    + (" (wrap it: Tortilla([sample]))" if isinstance(samples, Sample) else ""))
            samples = list(samples)
        for i, s in enumerate(samples):
            if not isinstance(s, Sample):
                raise _core.TacoSchemaError(f"Tortilla: item {i} is a {type_name(s)}, expected a Sample")
        if pad_to is not None and (isinstance(pad_to, bool) or not isinstance(pad_to, int)):
            raise TypeError(f"Tortilla: pad_to must be an int or None, not {type_name(pad_to)}")
        if pad_to is not None and pad_to < 1:
            raise _core.TacoSchemaError(f"Tortilla: pad_to must be at least 1, not {pad_to}")
        if not isinstance(strict_schema, bool):
            raise TypeError(f"Tortilla: strict_schema must be True or False, not {type_name(strict_schema)}")
        # Its own samples' deferred tables, applied together (also those a thread lost to
        # fork() was applying); a bad row raises here, naming its sample and field.
        _take_from_queue(samples)
        _apply_pending(samples)
        natives = [s._core_sample for s in samples]
        self._native = _core.Tortilla(natives, pad_to, strict_schema)
        self._added: tuple = ()  # the columns extend_with added, which pop may remove
        self._sample_descriptions = _samples_descriptions(samples) if _described_once else {}
        self._own_descriptions: dict = {}  # from the extensions of extend_with

    @classmethod
    def _wrap(cls, native: "_core.Tortilla") -> "Tortilla":
        obj = cls.__new__(cls)
        obj._native = native
        obj._added = ()
        obj._sample_descriptions, obj._own_descriptions = {}, {}
        return obj

    def _derived(self, native: "_core.Tortilla", sample_texts: dict) -> "Tortilla":
        """A Tortilla over ``native`` (this one with columns added to its samples) that keeps
        what this one knows of its extensions, plus ``sample_texts``, the new columns'
        descriptions (taco:field_schema)."""
        out = Tortilla._wrap(native)
        out._added, out._own_descriptions = self._added, dict(self._own_descriptions)
        out._sample_descriptions = _described(dict(self._sample_descriptions), sample_texts)
        return out

    # tacotoolbox's private names, which its extensions and some scripts read.
    _current_depth = property(lambda self: self._native.depth - 1,
                              doc="The deepest level below this tortilla (0: only FILEs).")
    _size_bytes = property(lambda self: self._native.total_size,
                           doc="Bytes of every FILE below this tortilla.")

    @property
    def samples(self) -> list:
        """The samples, padding included."""
        return [Sample._wrap(s) for s in self._native.samples]

    @property
    def schema(self) -> list:
        """[(column, arrow type)] shared by all samples."""
        return self._native.schema

    def export_metadata(self, deep: int = 0) -> Any:
        """The samples as a pyarrow Table, as tacotoolbox's ``export_metadata(deep)``: one row
        per sample (padding included) with id, type, path and the extension fields. ``deep=k``
        gives the samples ``k`` levels down instead (the children of every FOLDER, in order),
        with ``internal:current_id`` (the row's own position) and ``internal:parent_id`` (the
        parent's row at the level above), in tacotoolbox's column order. ValueError for a depth
        below 0, above 5 or below this tortilla's deepest level."""
        import pyarrow as pa
        if isinstance(deep, bool) or not isinstance(deep, int) or not 0 <= deep <= 5:
            raise ValueError(f"export_metadata: deep must be an int from 0 to 5, not {deep!r}")
        if deep > self._native.depth - 1:
            raise ValueError(f"export_metadata: cannot expand to depth {deep}: this tortilla has levels "
                             f"0-{self._native.depth - 1}")
        rows, parents = list(self._native.samples), []
        for _ in range(deep):
            below, parents = [], []
            for i, sample in enumerate(rows):
                if sample.type == "FOLDER":
                    children = sample.children.samples
                    below.extend(children)
                    parents.extend([i] * len(children))
            rows = below
        table = _samples_table(rows)
        if not deep:
            return table
        table = table.append_column(pa.field("internal:parent_id", pa.int64()), pa.array(parents, pa.int64()))
        table = table.append_column(pa.field("internal:current_id", pa.int64()),
                                    pa.array(range(len(rows)), pa.int64()))
        if len(rows) < 2:
            return table
        # tacotoolbox's column order once it has aligned more than one row: the core and internal
        # columns, then the extension columns alphabetically.
        core = ["id", "type", "path", "internal:current_id", "internal:parent_id"]
        return table.select(core + sorted(n for n in table.column_names if n not in core))

    @property
    def metadata_table(self) -> Any:
        """``export_metadata()``: the samples' metadata as a pyarrow Table (tacotoolbox's attribute)."""
        return self.export_metadata()

    @property
    def _metadata_table(self) -> Any:
        """``export_metadata()`` under tacotoolbox's private name, which its TortillaExtensions
        (MajorTOM, SpatialGrouping, ...) read: they then run on this Tortilla too."""
        return self.export_metadata()

    def extend_with(self, extension: Any) -> "Tortilla":
        """Adds columns computed over the whole tortilla, one value per sample: a tortilla
        extension (``MajorTOM``, ``SpatialGrouping`` of tacocore.tortilla.extensions, tacotoolbox's
        own, or any callable that takes the tortilla and returns a pyarrow Table), a pyarrow Table
        with one row per sample (its column types kept, nulls included), or
        ``{name: [one value per sample]}``. The rows may count the padding samples or not; padding
        gets typed nulls either way. TacoSchemaError for a column the samples already have or a
        wrong number of rows, with nothing added."""
        texts = {}
        if callable(extension) and not isinstance(extension, type) and not _is_arrow_table(extension):
            texts, extension = _descriptions_of(extension), extension(self)
        if _is_arrow_table(extension):
            self._native = _with_arrow_columns(self._native, extension)
            added = extension.column_names
        else:
            columns = _as_dict(extension, "Tortilla.extend_with")
            self._native = self._native.with_columns(columns)
            added = list(columns)
        self._added += tuple(added)
        self._own_descriptions = _described(self._own_descriptions, texts)
        return self

    def pop(self, field: str) -> Any:
        """Removes a column added by this tortilla's ``extend_with`` from every sample and returns
        it as tacotoolbox's ``Tortilla.pop`` does: a pyarrow Table with one row per sample (padding
        included), typed as stored. ValueError for a core field or a column the samples brought
        themselves (``sample.pop`` removes those), KeyError for a column the tortilla does not
        have."""
        if field in ("id", "type", "path"):
            raise ValueError(f"Tortilla.pop: cannot pop core field '{field}'")
        table = self.export_metadata()
        if field not in table.column_names:
            raise KeyError(field)
        if field not in self._added:
            raise ValueError(f"Tortilla.pop: '{field}' comes from the samples, not from this tortilla's "
                             f"extend_with: use sample.pop('{field}') on each sample")
        samples = list(self._native.samples)
        for sample in samples:
            if not sample.is_padding:
                sample.pop(field)
        self._native = _rebuilt(samples)
        self._added = tuple(name for name in self._added if name != field)
        self._own_descriptions.pop(field, None)
        return table.select([field])

    def _field_descriptions(self) -> dict:
        """{column: text} for taco:field_schema: this tortilla's extensions', then its samples'
        (which win), as tacotoolbox's writer merges them."""
        return {**self._own_descriptions, **self._sample_descriptions}

    def __len__(self) -> int:
        """Number of samples, padding included."""
        return len(self._native)

    def __getitem__(self, i: int) -> Sample:
        """The sample at position ``i`` (negative positions count from the end)."""
        return Sample._wrap(self._native[i])

    def __repr__(self) -> str:
        return f"Tortilla({len(self)} samples, depth={self._native.depth}, columns={[c for c, _ in self.schema]})"


class Taco:
    """A complete dataset: the root Tortilla plus COLLECTION metadata, validated on construction.

    ``Taco(tortilla, id, dataset_version, description, licenses, providers, tasks, title=None,
    curators=None, keywords=None, extent=None, **extensions)``, the fields of tacotoolbox's
    ``Taco`` (which takes them as keywords). ``taco_version`` (keyword only) defaults to "2.0.0",
    the specification's. Extra keyword arguments become TACO-level extension keys of
    COLLECTION.json. ``extent=None`` computes it from STAC/ISTAC metadata (or the global default).
    """

    def __init__(self, tortilla: Tortilla, id: str, dataset_version: str, description: str,
                 licenses: Iterable[str], providers: Iterable[Any], tasks: Iterable[str],
                 title: Optional[str] = None, curators: Optional[Iterable[Any]] = None,
                 keywords: Optional[Iterable[str]] = None, extent: Optional[Any] = None,
                 *, taco_version: str = "2.0.0", **extensions: Any) -> None:
        if not isinstance(tortilla, Tortilla):
            raise _core.TacoSchemaError(f"Taco: tortilla must be a Tortilla, not {type_name(tortilla)}")
        fields = {
            "id": id, "dataset_version": dataset_version, "description": description,
            "licenses": licenses, "providers": providers, "tasks": tasks,
            "taco_version": taco_version, "title": title, "curators": curators, "keywords": keywords,
        }
        fields = {key: _collection_value(key, value) for key, value in fields.items()}
        if extent is not None:
            fields["extent"] = _collection_value("extent", extent)
        for key, value in extensions.items():
            fields[key] = _collection_value(key, value)
        object.__setattr__(self, "_fields", fields)
        self.tortilla = tortilla
        self._built_from = None
        self._built_text = None
        self._current()  # validates now, as tacotoolbox's Taco does

    def _current(self) -> "_core.Taco":
        """The native Taco of ``self.tortilla`` as it is now. tacotoolbox reads its tortilla when
        it writes, so a tortilla extended (or replaced) after this Taco was made must count:
        its columns would otherwise be dropped without a word. Rebuilt (and validated again)
        only when the tortilla's native tree changed."""
        tortilla = self.tortilla
        if not isinstance(tortilla, Tortilla):
            raise _core.TacoSchemaError(f"Taco: tortilla must be a Tortilla, not {type_name(tortilla)}")
        # The fields count as they are now too: a list field edited in place
        # (taco.keywords.append(...)) changes the text without any assignment.
        text = _collection_text(self._fields)
        if tortilla._native is not self._built_from or text != self._built_text:
            descriptions = tortilla._field_descriptions()
            self._native = _core.Taco(tortilla._native, text, descriptions)
            self._descriptions = descriptions
            self._built_from = tortilla._native
            self._built_text = text
        return self._native

    def __setattr__(self, name: str, value: Any) -> None:
        """``taco.title = ...`` (any COLLECTION field, core or extension) changes what is
        written, as on tacotoolbox's Taco; checked at once, and a value the Taco refuses leaves
        it unchanged (TacoSchemaError). Before, the assignment made a plain attribute that
        create() never read."""
        fields = self.__dict__.get("_fields")
        if fields is None or name.startswith("_") or (name not in _COLLECTION_FIELDS and name not in fields):
            object.__setattr__(self, name, value)
            return
        fields = dict(fields)
        if value is None and name == "extent":
            fields.pop("extent", None)  # computed from the samples again
        else:
            fields[name] = _collection_value(name, value)
        self._set_fields(fields)

    def _set_fields(self, fields: dict) -> None:
        """Makes `fields` the COLLECTION fields and builds the Taco from them (checked); fields
        the Taco refuses leave the old ones in place."""
        old = self._fields
        object.__setattr__(self, "_fields", fields)
        try:
            self._current()
        except Exception:
            object.__setattr__(self, "_fields", old)
            raise

    def extend_with(self, extension: Any) -> "Taco":
        """Adds TACO-level keys to COLLECTION.json: an extension (``OpticalData``, ``Labels``,
        ``Publications``, ``SplitStrategy`` or tacotoolbox's own), a one-row pyarrow Table, a dict
        or a pydantic model — as tacotoolbox's ``Taco.extend_with``."""
        from . import _extensions
        if isinstance(extension, _extensions.TacoExtension):
            data = extension.to_dict()
        elif _is_toolbox_extension(extension):
            data = _first_row(extension(self), "Taco.extend_with")
        elif _is_arrow_table(extension):
            data = _first_row(extension, "Taco.extend_with")
        else:
            data = _as_dict(extension, "Taco.extend_with")
        fields = dict(self._fields)
        for key, value in data.items():
            # A core field (description, extent, ...) is replaced, as tacotoolbox's extend_with
            # does (its only way to force an extent); checked like an assignment.
            fields[key] = _collection_value(key, value)
        self._set_fields(fields)
        return self

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("_fields", {})
        if name in fields:
            return fields[name]
        if name == "extent" and "_built_from" in self.__dict__:
            return _FieldDict(self.collection["extent"])  # computed from the samples, as it will be written
        raise AttributeError(name)

    @property
    def collection(self) -> dict:
        """The COLLECTION.json document this dataset will be written with."""
        return json.loads(self._current().collection_json())

    def export_metadata(self) -> Any:
        """The COLLECTION.json document as a 1-row pyarrow Table, one column per top-level key
        (tacotoolbox's ``Taco.export_metadata()``)."""
        import pyarrow as pa
        return pa.Table.from_pylist([self.collection])

    # Pickling: the validated root tree as the tortilla is now (extensions added after this Taco
    # was made included) and the COLLECTION fields; unpickling validates again.
    def __getstate__(self) -> dict:
        return {"root": self._current().tortilla, "fields": self._fields, "descriptions": self._descriptions}

    def __setstate__(self, state: dict) -> None:
        self._descriptions = state.get("descriptions") or {}
        text = json.dumps(state["fields"])
        self._native = _core.Taco(state["root"], text, self._descriptions)
        self.tortilla = Tortilla._wrap(state["root"])
        self._built_from = self.tortilla._native
        self._built_text = text
        object.__setattr__(self, "_fields", state["fields"])


def create(taco: Taco, output: Union[str, os.PathLike], output_format: str = "auto",
           split_size: Optional[Union[str, int]] = None,
           group_by: Optional[Union[str, Sequence[str]]] = None, consolidate: bool = True,
           temp_dir: Optional[Union[str, os.PathLike]] = None, *, overwrite: bool = False,
           compression_level: int = 3, level_codec: str = "lz4_raw",
           stats: bool = False, stats_classes: Optional[Sequence[int]] = None,
           stats_threads: int = 0, stats_skip_unreadable: bool = False) -> list:
    """Writes ``taco`` to ``output`` (ZIP for ``.zip``/``.tacozip``, else FOLDER); returns [Path].

    ``stats=True`` computes ``geotiff:stats`` (and ``geotiff:stats_valid_count``) in C++ for
    every FILE sample at every level, as ``taco create --stats`` does: ``stats_classes`` (implies
    ``stats``) gives categorical class shares instead, ``stats_threads`` the threads (0 = one per
    core), ``stats_skip_unreadable`` a null row and a warning for a file GDAL cannot open instead
    of an error. ``taco`` itself is left unchanged.

    ``split_size`` ("4GB", or bytes) and ``group_by`` (a level-0 column, or a list of them whose
    values are joined by ``_`` as tacotoolbox does) write ZIP parts
    ``<stem>_part0001.tacozip``, ... or ``<stem>_<value>.tacozip`` and, with more than one part, the
    ``.tacocat/`` index beside them (USER-GUIDE "Collections"); the list then holds every part.
    Nothing is left behind on failure, and an existing output is refused unless ``overwrite``.
    ``consolidate=False`` writes the parts without the ``.tacocat/`` index (as tacotoolbox).
    A FOLDER output is written whole: ``split_size`` and ``group_by`` are then ignored with a
    UserWarning, as tacotoolbox ignores them (``taco create`` refuses them for a FOLDER).
    ``temp_dir`` is accepted for tacotoolbox's signature and checked to be a directory, but tacocore
    always stages beside the output: only a rename on the same file system makes the output
    appear whole or not at all. Any other keyword (tacotoolbox's Parquet writer options, a
    misspelt name) is a TypeError naming it, never silently ignored.
    ``level_codec``: ``"lz4_raw"`` (default; level tables decode ~2x faster, every query reads
    them) or ``"zstd"`` (~35% smaller level tables, the reference's codec; ``compression_level``
    applies to it). ``__meta__`` files are always zstd.
    The positional order is tacotoolbox's (``taco, output, output_format, split_size, group_by,
    consolidate, temp_dir``); tacocore's own options are keyword-only.
    """
    if not isinstance(taco, Taco):
        raise TypeError(f"create() takes a tacocore.Taco as its first argument, not {type(taco).__name__}")
    if temp_dir is not None and not os.path.isdir(temp_dir):
        raise _core.TacoIOError(f"temp_dir {os.fspath(temp_dir)!r} is not a directory")
    if output_format not in ("auto", "zip", "folder"):
        raise _core.TacoSchemaError(f"output_format must be 'auto', 'zip' or 'folder', not {output_format!r}")
    if group_by is None:
        columns = []
    elif isinstance(group_by, str):
        columns = [group_by]
    elif isinstance(group_by, (list, tuple)) and group_by and all(isinstance(c, str) for c in group_by):
        columns = list(group_by)
    else:
        raise _core.TacoSchemaError(f"group_by must be a column name or a non-empty list of names, not {group_by!r}")
    if (split_size is not None or columns) and _writes_folder(output, output_format):
        # tacotoolbox writes a FOLDER whole and ignores both (its split_size defaults to "4GB",
        # so its scripts often pass one): the same here, said once instead of refused.
        given = " and ".join(n for n, v in (("split_size", split_size), ("group_by", columns)) if v)
        warnings.warn(f"{given} ignored: {os.fsdecode(output)!r} is a FOLDER output, written whole "
                      "(only ZIP output is split into parts; tacotoolbox ignores them the same way)",
                      UserWarning, stacklevel=2)
        split_size, columns = None, []
    native = taco._current()
    if stats or stats_classes is not None:
        native = _with_stats(taco, stats_classes, stats_threads, stats_skip_unreadable)
    summary = _core.create(native, os.fspath(output), output_format, overwrite, compression_level,
                           "" if split_size is None else str(split_size), columns, consolidate,
                           level_codec)
    if summary["parts"]:
        return [Path(p) for p in summary["parts"]]
    return [Path(summary["path"])]


def _writes_folder(output: Union[str, os.PathLike], output_format: str) -> bool:
    """Whether create() writes a FOLDER: asked for, or "auto" with a name that is not .zip/.tacozip."""
    if output_format != "auto":
        return output_format == "folder"
    return os.path.splitext(os.fsdecode(output))[1].lower() not in (".zip", ".tacozip")


def _with_stats(taco: Taco, classes: Optional[Sequence[int]], threads: Any, skip_unreadable: bool) -> Any:
    """The native Taco of ``taco`` with geotiff:stats on every FILE sample (create(stats=True))."""
    import warnings

    from . import _geostats
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise _core.TacoSchemaError(f"stats_threads must be an integer >= 0 (0 = one per core), not {threads!r}")
    if classes is not None and (isinstance(classes, (str, bytes)) or not hasattr(classes, "__iter__")):
        raise _core.TacoSchemaError(f"stats_classes must be a list of class values, not {classes!r}")
    categorical = classes is not None
    values = _geostats._classes(categorical, classes)
    if categorical and not values:
        raise _core.TacoSchemaError("stats_classes is empty; give the class values, e.g. [0, 1, 2]")
    tortilla, skipped = _core.tortilla_with_geotiff_stats(taco._current().tortilla, categorical, values, threads,
                                                          bool(skip_unreadable))
    for message in skipped:
        warnings.warn(f"geotiff:stats skipped {message}", stacklevel=3)
    return _core.Taco(tortilla, json.dumps(taco._fields),
                      _described(taco._descriptions, _geostats.GeotiffStats().get_field_descriptions()))


# Whether any extension has described its columns in this process: until then no sample has
# descriptions, and a Tortilla of millions of samples need not look for them.
_described_once = False


def _descriptions_of(extension: Any) -> dict:
    """The extension's get_field_descriptions(), checked ({} when it has none). Asked before the
    extension's columns are added, so that a bad answer adds nothing."""
    global _described_once
    describe = getattr(extension, "get_field_descriptions", None)
    texts = describe() if callable(describe) else None
    if not texts:
        return {}
    if not isinstance(texts, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in texts.items()):
        raise _core.TacoSchemaError(f"{type_name(extension)}.get_field_descriptions() must return "
                                    f"{{column: text}} strings, not {texts!r}")
    _described_once = True
    return texts


def _described(descriptions: Optional[dict], texts: dict) -> Optional[dict]:
    """`descriptions` updated with `texts` (None stays None when there are none)."""
    return {**(descriptions or {}), **texts} if texts else descriptions


def _samples_descriptions(samples: Sequence[Sample]) -> dict:
    """The samples' column descriptions, each sample's then those of the samples below it, later
    ones winning: what tacotoolbox's writer collects from the tree."""
    out: dict = {}
    for s in samples:
        if s._descriptions:
            out.update(s._descriptions)
        if s._tortilla is not None and s._tortilla._sample_descriptions:
            out.update(s._tortilla._sample_descriptions)
    return out


def _is_arrow_table(obj: Any) -> bool:
    """A pyarrow Table or RecordBatch (checked without importing pyarrow)."""
    return type(obj).__module__.startswith("pyarrow") and hasattr(obj, "num_rows")


def _with_arrow_columns(native: "_core.Tortilla", table: Any) -> "_core.Tortilla":
    """`native` with the columns of `table`, row i on the i-th sample (padding counted or not)."""
    samples = list(native.samples)
    real = [s for s in samples if not s.is_padding]
    if table.num_rows not in (len(real), len(samples)):
        raise _core.TacoSchemaError(
            f"Tortilla.extend_with: the table has {table.num_rows} rows, expected one per sample "
            f"({len(real)})")
    targets = real if table.num_rows == len(real) else samples
    present = {name for name, _ in native.schema} | {"id", "type", "path"}
    for name in table.column_names:
        if name in present:
            raise _core.TacoSchemaError(f"Tortilla.extend_with: column '{name}' already exists")
    if hasattr(table, "combine_chunks"):
        table = table.combine_chunks()
    if not _core.extend_rows_from_arrow(targets, _arrow_stream(table)):
        # Types the native reader leaves to Python: row by row, as Sample.extend_with does.
        fields = [_arrow_fields(s.id, table.slice(i, 1)) for i, s in enumerate(targets)]
        for sample, row in zip(targets, fields):
            row.apply(sample)
    return _rebuilt(samples)


def _rebuilt(samples: list) -> "_core.Tortilla":
    """A native Tortilla of `samples` after their fields changed: the padding samples are made
    again from the new schema (typed nulls), as many as before."""
    real = [s for s in samples if not s.is_padding]
    pad_to = len(samples) if len(real) < len(samples) else None
    return _core.Tortilla(real, pad_to, True)


def _samples_table(natives: list) -> Any:
    """id, type, path and the extension fields of native samples as a pyarrow Table
    (toolbox/sample_table.hpp)."""
    import pyarrow as pa
    return pa.RecordBatchReader.from_stream(_core.samples_table(natives)).read_all()


def type_name(obj: Any) -> str:
    return type(obj).__name__


def _as_dict(obj: Any, what: str) -> dict:
    if isinstance(obj, dict):
        return obj
    if _is_arrow_table(obj):
        return _arrow_row(obj, what)
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    if hasattr(obj, "__dict__"):
        return {k: v for k, v in vars(obj).items() if not k.startswith("_")}
    raise _core.TacoSchemaError(f"{what}: expected a dict, not {type_name(obj)}")


def _is_toolbox_extension(obj: Any) -> bool:
    """An extension of tacotoolbox's protocol, called to get a Table: its own, or a user's
    subclass of its base classes (or of tacocore's, tacocore.taco.datamodel.TacoExtension), which
    define get_schema() and _compute(). Not a plain pydantic model, whose fields are the data."""
    return callable(obj) and not isinstance(obj, type) and hasattr(obj, "get_schema") and hasattr(obj, "_compute")


def _first_row(table: Any, what: str) -> dict:
    if table.num_rows != 1:
        raise _core.TacoSchemaError(f"{what}: a pyarrow Table must have exactly 1 row, not {table.num_rows}")
    return table.to_pylist()[0]


def _arrow_fields(sample_id: str, table: Any) -> "_core.ExtensionFields":
    """A 1-row pyarrow Table as typed extension columns: each column keeps its Arrow type, and a
    null keeps it too (a timestamp[us] null stays a timestamp column)."""
    if table.num_rows != 1:
        raise _core.TacoSchemaError(
            f"sample '{sample_id}': extend_with: a pyarrow Table must have exactly 1 row, not {table.num_rows}")
    names, converters = _arrow_layout(table.schema)
    columns = table.columns

    def value_of(i: int) -> Any:
        # Called by ext_from_row for the columns its native reader declined, and only those.
        try:
            value = columns[i][0].as_py()
        except UnicodeDecodeError:
            raise _core.TacoSchemaError(f"sample '{sample_id}' field '{names[i]}': text is not valid "
                                        "UTF-8 (store raw bytes as binary)") from None
        convert = converters.get(i)
        return value if convert is None else convert(value)

    return _core.ext_from_row(sample_id, names, _arrow_stream(table), value_of)


def _arrow_stream(table: Any) -> Any:
    """An Arrow C stream capsule of a pyarrow Table or RecordBatch (a RecordBatch has none
    before pyarrow 16)."""
    if hasattr(table, "__arrow_c_stream__"):
        return table.__arrow_c_stream__()
    import pyarrow as pa
    return pa.Table.from_batches([table]).__arrow_c_stream__()


# The layout of the last schema seen: a metadata table sliced into 1-row tables, one per sample,
# repeats one schema, and reading names and converters from it again for every row
# was most of extend_with's ~25 us per row (issue 15: Python create within 2x of the CLI).
# One tuple (schema, layout), replaced whole: threads building samples at once read a consistent
# pair.
_last_layout: tuple = (None, None)


def _arrow_layout(schema: Any) -> tuple:
    """(names, {column: converter} for columns whose Python values need _arrow_value's
    conversion) of `schema`."""
    global _last_layout
    last_schema, last = _last_layout
    if last_schema is not None and last_schema.equals(schema):
        return last
    import pyarrow as pa
    plain = (pa.types.is_int64, pa.types.is_float64, pa.types.is_string, pa.types.is_large_string,
             pa.types.is_boolean, pa.types.is_timestamp, pa.types.is_binary, pa.types.is_date)
    converters = {}
    for i, field in enumerate(schema):
        if not any(is_type(field.type) for is_type in plain):
            converters[i] = lambda v, t=field.type: _arrow_value(t, v)
    layout = (schema.names, converters)
    _last_layout = (schema, layout)
    return layout


def _arrow_row(table: Any, what: str) -> dict:
    """A 1-row pyarrow Table (tacotoolbox's extension output) as {column: value}, keeping Arrow
    precision: float32 stays float32, int32 stays int32, lists keep their element type."""
    if table.num_rows != 1:
        raise _core.TacoSchemaError(f"{what}: a pyarrow Table must have exactly 1 row, not {table.num_rows}")
    return {name: _arrow_value(table.column(name).type, table.column(name)[0].as_py())
            for name in table.column_names}


def _arrow_value(arrow_type: Any, value: Any) -> Any:
    import numpy as np
    import pyarrow as pa
    if value is None:
        return None
    if pa.types.is_float32(arrow_type):
        return np.float32(value)
    if pa.types.is_int32(arrow_type) or pa.types.is_int16(arrow_type) or pa.types.is_int8(arrow_type):
        return np.int32(value)
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        items = [_arrow_value(arrow_type.value_type, v) for v in value]
        if pa.types.is_float32(arrow_type.value_type):
            return np.asarray(items, dtype=np.float32) if None not in items else items
        return items
    return value


def _list(value: Any, field: str) -> list:
    """A list field of the collection; a lone string or dict is refused (it is not a list)."""
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise _core.TacoSchemaError(f"COLLECTION field '{field}': expected a list, not {type_name(value)}")
    return list(value)


class _FieldDict(dict):
    """A provider, curator or extent of a Taco: a dict that also reads its keys as attributes
    (``taco.extent.spatial``, ``taco.providers[0].name``), as tacotoolbox's models do."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _collection_value(key: str, value: Any) -> Any:
    """A COLLECTION field's value as the Taco keeps it (lists of the list fields, dicts of
    providers/curators, extent normalized, extension values made JSON-ready)."""
    if key in ("licenses", "tasks"):
        return _list(value, key)
    if key in ("providers", "curators", "keywords"):
        if value is None and key != "providers":
            return None
        items = _list(value, key)
        return items if key == "keywords" else [_FieldDict(_as_dict(v, key)) for v in items]
    if key == "extent":
        return _FieldDict(_extent_dict(value))
    if key in _COLLECTION_FIELDS:
        return value
    return _jsonable(value)


def _extent_dict(extent: Any) -> dict:
    if isinstance(extent, (list, tuple)) and len(extent) == 4:
        return {"spatial": [float(v) for v in extent], "temporal": None}
    d = _as_dict(extent, "extent")
    return {"spatial": [float(v) for v in d.get("spatial", (-180, -90, 180, 90))],
            "temporal": None if d.get("temporal") is None else [str(t) for t in d["temporal"]]}


def _collection_text(fields: dict) -> str:
    """The COLLECTION fields as JSON text; a value JSON cannot hold (a datetime, a Decimal,
    bytes) is a TypeError naming its key, where json.dumps names only the type."""
    try:
        return json.dumps(fields)
    except TypeError as exc:
        for key, value in fields.items():
            try:
                json.dumps(value)
            except TypeError:
                raise TypeError(f"COLLECTION field '{key}': {exc} (give it as a string, number, "
                                f"bool, None, list or dict)") from None
        raise


def _jsonable(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump()
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value
