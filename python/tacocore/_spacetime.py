"""Choosing samples by place and time: ``TacoDataset.filter_bbox`` / ``filter_datetime``
(tacoreader's names and arguments, spec §8.2). The work is done in C++ (src/spatial/); this
file turns Python arguments (datetimes, tuples) into the native call."""
from __future__ import annotations

import datetime as _dt
import math
from typing import Any, Optional, Tuple, Union

from . import _core
from ._exceptions import TacoQueryError

_EPOCH = _dt.datetime(1970, 1, 1)
_DAY_US = 86_400_000_000

DatetimeRange = Union[str, _dt.datetime, _dt.date, Tuple[Any, Any]]


def _micros(value: _dt.datetime) -> int:
    """Microseconds since the epoch; naive means UTC, an aware value is converted."""
    if value.tzinfo is not None:
        value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
    delta = value - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _side(value: Any, end: bool) -> Optional[int]:
    """One side of a range: None / ".." = open; a date covers its whole day."""
    if value is None or (isinstance(value, str) and value.strip() in ("", "..")):
        return None
    if isinstance(value, _dt.datetime):
        return _micros(value)
    if isinstance(value, _dt.date):
        start = _micros(_dt.datetime(value.year, value.month, value.day))
        return start + _DAY_US - 1 if end else start
    if isinstance(value, str):
        start, stop = _core.parse_time_range(value)
        return stop if end else start
    raise TacoQueryError(
        f"filter_datetime: {value!r} is not a datetime, date or ISO 8601 string")


def time_bounds(datetime_range: DatetimeRange) -> Tuple[Optional[int], Optional[int]]:
    """(start_us, end_us) of every form filter_datetime accepts; None = open."""
    if isinstance(datetime_range, str):
        try:
            return _core.parse_time_range(datetime_range)
        except TacoQueryError as e:
            raise TacoQueryError(f"filter_datetime: {e}") from None
    if isinstance(datetime_range, (_dt.datetime, _dt.date)):
        return _side(datetime_range, False), _side(datetime_range, True)
    if isinstance(datetime_range, (tuple, list)):
        if len(datetime_range) != 2:
            raise TacoQueryError(
                "filter_datetime: a tuple range needs exactly 2 items (start, end), got "
                f"{len(datetime_range)}")
        start, end = _side(datetime_range[0], False), _side(datetime_range[1], True)
        if start is None and end is None:
            raise TacoQueryError("filter_datetime: the range is open on both sides")
        if start is not None and end is not None and start > end:
            raise TacoQueryError(
                f"filter_datetime: the range {datetime_range!r} is reversed: its start is "
                "after its end")
        return start, end
    raise TacoQueryError(
        "filter_datetime: expected 'START/END', an ISO 8601 string, a datetime, a date or a "
        f"(start, end) tuple, got {type(datetime_range).__name__}")


def _level(level: Any, what: str) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise TacoQueryError(f"{what}: level must be an integer >= 0, got {level!r}")
    return level


def _bound(value: Any, name: str) -> float:
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise TacoQueryError(f"filter_bbox: {name} must be a number, got {value!r}") from None
    if math.isnan(number) or math.isinf(number):
        raise TacoQueryError(f"filter_bbox: {name} is {number}, expected a finite number")
    return number


class SpaceTimeMixin:
    """filter_bbox / filter_datetime for TacoDataset (which provides _native, _view_of)."""

    def filter_bbox(self, minx: float, miny: float, maxx: float, maxy: float,
                    geometry_col: str = "auto", level: int = 0, crs: str = "EPSG:4326"):
        """The samples whose geometry intersects the box, as a new lazy view (chains with
        ``sql()`` and the other filters, survives ``concat``).

        The test is exact and runs in the geometry's own CRS: the box (given in ``crs``) is
        carried there. ``istac:geometry`` uses ``istac:crs``; centroids are EPSG:4326. In a
        geographic ``crs``, ``minx > maxx`` crosses the antimeridian. ``geometry_col="auto"``
        picks istac:geometry, then stac:centroid, then istac:centroid. ``level > 0`` keeps the
        samples with a matching descendant at that level, and ``read()`` below them shows only
        the matching descendants. Needs no DuckDB extension."""
        self._check_open()
        native = _core.filter_bbox(
            self._native, _bound(minx, "minx"), _bound(miny, "miny"), _bound(maxx, "maxx"),
            _bound(maxy, "maxy"), str(geometry_col), _level(level, "filter_bbox"), str(crs))
        return self._view_of(native, printed_as_table=False)

    def filter_datetime(self, datetime_range: DatetimeRange, time_col: str = "auto",
                        level: int = 0):
        """The samples whose time falls in ``datetime_range`` (inclusive, microsecond
        precision), as a new lazy view.

        ``datetime_range``: ``"START/END"``, ``"../END"``, ``"START/.."``, one ISO 8601 instant or
        day, a ``datetime`` (naive = UTC), a ``date`` (that whole day) or a ``(start, end)`` tuple
        of those (None = open). A side given as a day covers the whole day. With
        ``time_col="auto"`` (istac:time_start, then stac:time_start) and a ``*:time_end`` column
        beside it, a sample matches when its interval [start, end] overlaps the range."""
        self._check_open()
        start, end = time_bounds(datetime_range)
        native = _core.filter_datetime(self._native, start, end, str(time_col),
                                       _level(level, "filter_datetime"))
        return self._view_of(native, printed_as_table=False)


class StatsMixin:
    """stats_* for TacoDataset (tacoreader's names), over the current view: after ``sql()`` and
    ``filter_*`` only the rows kept count (tacoreader ignores filters here)."""

    def _band_stats(self, band, level: int, id: Optional[str], what: str):
        self._check_open()
        single = isinstance(band, (int,)) and not isinstance(band, bool)
        bands = [band] if single else list(band) if isinstance(band, (list, tuple)) else None
        if bands is None or any(isinstance(b, bool) or not isinstance(b, int) or b < 0
                                for b in bands):
            raise TacoQueryError(f"{what}: band must be an int >= 0 or a list of them, got {band!r}")
        if not bands:
            raise TacoQueryError(f"{what}: no band given")
        if id is not None and not isinstance(id, str):
            raise TacoQueryError(f"{what}: id must be a string, got {id!r}")
        rows = _core.band_stats(self._native, bands, _level(level, what), id or "")
        return single, rows

    def _continuous(self, key: str, band, level: int, id: Optional[str]):
        import numpy as np

        what = f"stats_{key}"
        single, rows = self._band_stats(band, level, id, what)
        for r in rows:
            if r["categorical"]:
                raise TacoQueryError(
                    f"{what}: band {r['band']} holds class probabilities (categorical "
                    "geotiff:stats); use stats_categorical")
        values = np.array([r[key] for r in rows], dtype=np.float32)
        return values[0] if single else values

    def stats_mean(self, band, level: int = 0, id: Optional[str] = None):
        """Mean of ``band`` (int -> numpy float32; list -> array) over the view's samples,
        weighted by valid pixels (``stac:tensor_shape`` H×W × valid%)."""
        return self._continuous("mean", band, level, id)

    def stats_std(self, band, level: int = 0, id: Optional[str] = None):
        """Pooled standard deviation: within-sample variance plus the spread of the means."""
        return self._continuous("std", band, level, id)

    def stats_min(self, band, level: int = 0, id: Optional[str] = None):
        """Smallest per-sample minimum."""
        return self._continuous("min", band, level, id)

    def stats_max(self, band, level: int = 0, id: Optional[str] = None):
        """Largest per-sample maximum."""
        return self._continuous("max", band, level, id)

    def stats_p25(self, band, level: int = 0, id: Optional[str] = None):
        """25th percentile of the pixel-weighted mixture of the samples' distributions (each
        linear between its stored min, p25, p50, p75, p95, max)."""
        return self._continuous("p25", band, level, id)

    def stats_p50(self, band, level: int = 0, id: Optional[str] = None):
        """Median of the mixture (see stats_p25)."""
        return self._continuous("p50", band, level, id)

    def stats_median(self, band, level: int = 0, id: Optional[str] = None):
        """Same as stats_p50."""
        return self._continuous("p50", band, level, id)

    def stats_p75(self, band, level: int = 0, id: Optional[str] = None):
        """75th percentile of the mixture (see stats_p25)."""
        return self._continuous("p75", band, level, id)

    def stats_p95(self, band, level: int = 0, id: Optional[str] = None):
        """95th percentile of the mixture (see stats_p25)."""
        return self._continuous("p95", band, level, id)

    def stats_categorical(self, band, level: int = 0, id: Optional[str] = None):
        """Class probabilities: the pixel-weighted mean of the samples' probability vectors;
        shape (classes,) for an int band, (bands, classes) for a list."""
        import numpy as np

        single, rows = self._band_stats(band, level, id, "stats_categorical")
        for r in rows:
            if not r["categorical"]:
                raise TacoQueryError(
                    f"stats_categorical: band {r['band']} holds continuous statistics (9 values "
                    "per band); use stats_mean, stats_std, ...")
        values = np.array([r["probabilities"] for r in rows], dtype=np.float32)
        return values[0] if single else values
