"""``geotiff:stats`` with tacotoolbox's names, computed by the native core (GDAL, all cores).

``GeotiffStats(categorical=False, class_values=None)`` is tacotoolbox's sample extension:
``sample.extend_with(GeotiffStats())`` adds ``geotiff:stats`` (``list<list<float32>>``), per band
``[min, max, mean, std, valid%, p25, p50, p75, p95]`` or, categorical, the share of each class.
Unlike tacotoolbox every value is exact (all valid pixels, numpy's linear percentiles) and no
``.aux.xml`` is written beside the file. ``add_geotiff_stats`` does many samples (or a whole
Tortilla) at once on a thread pool. USER-GUIDE "Computing geotiff:stats" has the details.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from . import _core

__all__ = ["GeotiffStats", "add_geotiff_stats"]

_COLUMN = "geotiff:stats"
# Written beside geotiff:stats: valid pixels per band, the weights of stats_mean/std.
_COUNT_COLUMN = "geotiff:stats_valid_count"
_DESCRIPTION = ("Per-band statistics (List[List[Float32]]): categorical mode returns class probabilities, "
                "continuous mode returns [min, max, mean, std, valid%, p25, p50, p75, p95]")


def _classes(categorical: bool, class_values: Optional[Sequence[int]]) -> list:
    if class_values is None:
        return []
    values = list(class_values)
    for v in values:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise _core.TacoSchemaError(f"GeotiffStats: class_values must be integers, not {v!r}")
    return [int(v) for v in values]


class GeotiffStats:
    """tacotoolbox's ``GeotiffStats`` sample extension, native and exact.

    Called on a sample (tacocore's, or tacotoolbox's with a file ``path``) it returns a 1-row
    pyarrow Table with ``geotiff:stats``, as the reference does; ``Sample.extend_with`` calls it.
    ``return_none=True`` (tacotoolbox's ``schema_only``) gives a null of the right type.
    """

    def __init__(self, categorical: bool = False, class_values: Optional[Sequence[int]] = None,
                 return_none: bool = False, schema_only: Optional[bool] = None) -> None:
        self.categorical = bool(categorical)
        self.class_values = None if class_values is None else _classes(categorical, class_values)
        self.schema_only = bool(return_none if schema_only is None else schema_only)
        # The same checks as the core, at construction where tacotoolbox makes them at use.
        if self.categorical and not self.class_values:
            raise _core.TacoSchemaError("GeotiffStats: categorical=True needs class_values (e.g. [0, 1, 2])")

    def get_schema(self) -> Any:
        """The Arrow schema of the columns: ``geotiff:stats: list<list<float32>>`` and
        ``geotiff:stats_valid_count: list<int64>`` (valid pixels per band; tacocore's own)."""
        import pyarrow as pa
        return pa.schema([pa.field(_COLUMN, pa.list_(pa.list_(pa.float32()))),
                          pa.field(_COUNT_COLUMN, pa.list_(pa.int64()))])

    def get_field_descriptions(self) -> dict:
        """``{column: description}``, as tacotoolbox's extension gives it (plus the count)."""
        return {_COLUMN: _DESCRIPTION,
                _COUNT_COLUMN: "Valid (not nodata, NaN or masked) pixels per band (List[Int64])"}

    def model_dump(self) -> dict:
        """The options, as a pydantic model would dump them."""
        return {"categorical": self.categorical, "class_values": self.class_values,
                "schema_only": self.schema_only}

    def compute(self, sample: Any) -> Optional[list]:
        """The ``geotiff:stats`` value of ``sample`` as Python floats (None: no valid pixel)."""
        return _core.geotiff_stats(_native_sample(sample), self.categorical, self.class_values or [])

    def __call__(self, sample: Any) -> Any:
        """A 1-row pyarrow Table with ``geotiff:stats`` of ``sample`` (tacotoolbox's protocol) and
        ``geotiff:stats_valid_count`` beside it."""
        import pyarrow as pa
        value, count = (None, None) if self.schema_only else _core.geotiff_stats_with_count(
            _native_sample(sample), self.categorical, self.class_values or [])
        return pa.Table.from_pydict({_COLUMN: [value], _COUNT_COLUMN: [count]}, schema=self.get_schema())

    def __repr__(self) -> str:
        return f"GeotiffStats(categorical={self.categorical}, class_values={self.class_values})"


def add_geotiff_stats(samples: Any, categorical: bool = False, class_values: Optional[Sequence[int]] = None,
                      threads: int = 0, skip_unreadable: bool = False) -> Any:
    """Adds ``geotiff:stats`` to many samples at once, on ``threads`` threads (0 = all cores).

    ``samples``: a list of tacocore ``Sample`` (changed in place; the list is returned) or a
    ``Tortilla`` (every FILE at every level; a new Tortilla is returned, FOLDERs beside FILEs get
    null). A file GDAL cannot open raises ``TacoIOError`` naming the sample, or with
    ``skip_unreadable=True`` gets null and a warning.
    """
    import warnings

    from ._toolbox import Sample, Tortilla, _described, _descriptions_of, _drain_queue
    texts = _descriptions_of(GeotiffStats(categorical, class_values))  # checks the options
    classes = _classes(categorical, class_values) if class_values is not None else []
    if isinstance(samples, Tortilla):
        native, skipped = _core.tortilla_with_geotiff_stats(samples._native, categorical, classes,
                                                            threads, skip_unreadable)
        result: Any = samples._derived(native, texts)
    else:
        items = list(samples)
        for i, s in enumerate(items):
            if not isinstance(s, Sample):
                raise _core.TacoSchemaError(f"add_geotiff_stats: item {i} is a {type(s).__name__}, expected a Sample")
        _drain_queue()  # deferred extend_with tables, in one pass
        skipped = _core.set_geotiff_stats([s._native for s in items], categorical, classes, threads,
                                          skip_unreadable)
        for s in items:
            s._descriptions = _described(s._descriptions, texts)
        result = samples
    for message in skipped:
        warnings.warn(f"geotiff:stats skipped {message}", stacklevel=2)
    return result


def _native_sample(sample: Any) -> "_core.Sample":
    native = getattr(sample, "_native", None)
    if isinstance(native, _core.Sample):
        return native
    # tacotoolbox's Sample (or anything with an id and a file path): the same computation.
    import os
    path = getattr(sample, "path", None)
    if isinstance(path, (str, os.PathLike)):
        native = _core.Sample.file(str(getattr(sample, "id", "sample")), os.fspath(path))
        for key in ("scaling:scale_factor", "scaling:scale_offset"):
            value = getattr(sample, key, None)
            if value is not None:
                native.set(key, float(value))
        return native
    raise _core.TacoSchemaError(
        f"GeotiffStats needs a FILE sample (a file path or bytes), not {type(sample).__name__}"
        + (f" with path {type(path).__name__}" if path is not None else ""))
