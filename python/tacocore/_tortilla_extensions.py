"""Tortilla extensions: columns computed over a whole Tortilla (``tortilla.extend_with(ext)``).

tacotoolbox's ``MajorTOM`` (a cell of the MajorTOM spherical grid) and ``SpatialGrouping``
(consecutive runs along a Z-order curve), giving the same column, value for value, from the
samples' ``stac:centroid``. An extension is called with the tortilla and returns a pyarrow Table
with one row per sample, as tacotoolbox's are; tacotoolbox's own extensions run on a tacocore
Tortilla too (it has their ``_metadata_table``), and these run on tacotoolbox's.

tacotoolbox's third one, ``GeoEnrich``, samples Google Earth Engine products and needs an Earth
Engine account and the network: not provided (its columns can still be added as a table).
"""

from __future__ import annotations

import math
import struct
from abc import ABC, abstractmethod
from typing import Any, Optional, Sequence, Tuple, Union

from . import _core
from ._extensions import _check_ignored

_CENTROID = "stac:centroid"


class CentroidExtension(ABC):
    """Base of the extensions computed from the samples' ``stac:centroid``: ``ext(tortilla)``
    returns a pyarrow Table with one row per sample; ``get_schema()`` and
    ``get_field_descriptions()`` describe its column. (The base class for your own tortilla
    extensions is tacotoolbox's pydantic one, ``tacocore.tortilla.datamodel.TortillaExtension``.)"""

    _descriptions: dict = {}

    @abstractmethod
    def get_schema(self) -> Any:
        """The column's pyarrow schema."""

    def get_field_descriptions(self) -> dict:
        """{column: description}, as tacotoolbox's (and taco:field_schema's) text."""
        return dict(self._descriptions)

    @abstractmethod
    def _compute(self, table: Any, sizes: Sequence[int]) -> list:
        """The column's values, one per row of `table` (sizes: the samples' bytes, when
        _needs_sizes())."""

    def __call__(self, tortilla: Any) -> Any:
        import pyarrow as pa
        table = tortilla._metadata_table
        if _CENTROID not in table.column_names:
            raise _core.TacoSchemaError(
                f"{type(self).__name__}: the tortilla has no '{_CENTROID}' column (add the STAC "
                f"extension to its samples); it has {table.column_names}")
        sizes = [s._size_bytes for s in tortilla.samples] if self._needs_sizes() else []
        values = self._compute(table, sizes)
        return pa.Table.from_pydict({self.get_schema().names[0]: values}, schema=self.get_schema())

    def _needs_sizes(self) -> bool:
        return False

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


def point_centroids(table: Any) -> Tuple[list, list, list]:
    """(rows, lons, lats) of the rows whose ``stac:centroid`` is a WKB (or EWKB) point; null,
    empty, damaged and other geometries are left out, as tacotoolbox leaves out what shapely
    does not read as a point."""
    rows, lons, lats = [], [], []
    for i, wkb in enumerate(table.column(_CENTROID).to_pylist()):
        point = _wkb_point(wkb)
        if point is not None:
            rows.append(i)
            lons.append(point[0])
            lats.append(point[1])
    return rows, lons, lats


def _wkb_point(wkb: Optional[bytes]) -> Optional[Tuple[float, float]]:
    """(x, y) of a WKB point: ISO (2D, Z, M, ZM) or EWKB (flags and an SRID in the type word)."""
    if not wkb or len(wkb) < 5 or wkb[0] not in (0, 1):
        return None
    order = "<" if wkb[0] == 1 else ">"
    (code,) = struct.unpack_from(order + "I", wkb, 1)
    offset = 9 if code & 0x20000000 else 5  # EWKB: the SRID follows the type word
    kind = code & 0x0FFFFFFF
    if kind % 1000 != 1 or kind > 3001 or len(wkb) < offset + 16:
        return None
    x, y = struct.unpack_from(order + "dd", wkb, offset)
    if math.isnan(x) or math.isnan(y):  # POINT EMPTY
        return None
    return x, y


class MajorTOM(CentroidExtension):
    """``majortom:code``: the MajorTOM grid cell holding each sample's ``stac:centroid``, as
    tacotoolbox's ``MajorTOM`` names it: ``[DIST]km_[ROW]_[COL]`` (``0100km_0003U_0005R``: 100 km
    spacing, 3 rows north of the equator, 5 columns east of Greenwich). Rows are rings of equal
    latitude ~``dist_km`` apart, each cut into columns ~``dist_km`` wide at its latitude; a sample
    belongs to the cell whose bottom-left corner is below and left of it. Samples without a point
    centroid get null."""

    _descriptions = {"majortom:code": "MajorTOM spherical grid cell identifier (e.g., 0100km_0003U_0005R) "
                                      "with ~dist_km spacing"}
    R_EQUATOR_KM = 6378.137

    def __init__(self, dist_km: float = 100, latitude_range: Tuple[float, float] = (-85.0, 85.0),
                 longitude_range: Tuple[float, float] = (-180.0, 180.0), sep: str = "_", **ignored: Any) -> None:
        _check_ignored(ignored, "MajorTOM")
        if isinstance(dist_km, bool) or not isinstance(dist_km, (int, float)) or not dist_km > 0:
            raise _core.TacoSchemaError(f"MajorTOM: dist_km must be a positive number of km, not {dist_km!r}")
        self.dist_km = float(dist_km)
        self.latitude_range = tuple(float(v) for v in latitude_range)
        self.longitude_range = tuple(float(v) for v in longitude_range)
        self.sep = sep
        self._build_grid()

    def _build_grid(self) -> None:
        import numpy as np
        # The rings: as tacotoolbox computes them, so that a point on a ring falls in the same row.
        rings = math.ceil(math.pi * self.R_EQUATOR_KM / self.dist_km)
        lats = np.sort(np.mod(np.linspace(-90, 90, rings + 1)[:-1], 180) - 90)
        equator = int(np.searchsorted(lats, 0.0, side="left"))
        labels = np.array([_signed_label(i - equator, "U", "D") for i in range(len(lats))], dtype=object)
        lo, hi = self.latitude_range
        keep = (lats >= lo) & (lats <= hi)
        self._lats, self._row_labels = lats[keep], labels[keep]
        self._row_lons, self._row_col_labels = [], []
        lon_lo, lon_hi = self.longitude_range
        for lat in self._lats:
            circumference = 2.0 * math.pi * self.R_EQUATOR_KM * math.cos(math.radians(lat))
            columns = max(1, math.ceil(circumference / self.dist_km))
            lons = np.sort(np.mod(np.linspace(-180.0, 180.0, columns + 1)[:-1], 360) - 180)
            hits = np.where(lons == 0.0)[0]
            greenwich = int(hits[0]) if hits.size else int(np.argmin(np.abs(lons)))
            col_labels = np.array([_signed_label(i - greenwich, "R", "L") for i in range(lons.size)], dtype=object)
            if lon_lo > -180.0 or lon_hi < 180.0:
                inside = (lons >= lon_lo) & (lons <= lon_hi)
                lons, col_labels = lons[inside], col_labels[inside]
            if lons.size == 0:
                lons, col_labels = np.array([-180.0]), np.array(["0000R"], dtype=object)
            self._row_lons.append(lons)
            self._row_col_labels.append(col_labels)

    def get_schema(self) -> Any:
        """The column's pyarrow schema: ``majortom:code`` string."""
        import pyarrow as pa
        return pa.schema([pa.field("majortom:code", pa.string())])

    def _indices(self, lats: Any, lons: Any) -> Tuple[Any, Any]:
        import numpy as np
        lats = np.atleast_1d(np.asarray(lats, dtype=np.float64))
        lons = np.atleast_1d(np.asarray(lons, dtype=np.float64))
        if lats.shape != lons.shape:
            raise ValueError("lats and lons must have the same shape")
        rows = np.clip(np.searchsorted(self._lats, lats, side="left") - 1, 0, len(self._lats) - 1).astype(np.int64)
        cols = np.empty_like(rows)
        for r in np.unique(rows):
            at = rows == r
            ring = self._row_lons[int(r)]
            c = np.searchsorted(ring, lons[at], side="left") - 1
            c[c < 0] = ring.size - 1  # west of the first column: the ring's last one (it wraps)
            cols[at] = c
        return rows, cols

    def latlon2rowcol(self, lats: Any, lons: Any, *, return_idx: bool = False, integer: bool = False) -> Any:
        """The (row, column) labels of the cells holding the points (scalars for one point, arrays
        otherwise); ``integer=True`` gives signed numbers (``0003U`` → 3, ``0002D`` → -2);
        ``return_idx=True`` adds the row and column indices."""
        import numpy as np
        ri, ci = self._indices(lats, lons)
        rows = np.array([self._row_labels[int(r)] for r in ri], dtype=object)
        cols = np.array([self._row_col_labels[int(r)][int(c)] for r, c in zip(ri, ci)], dtype=object)
        if integer:
            rows = np.array([_label_value(v) for v in rows], dtype=int)
            cols = np.array([_label_value(v) for v in cols], dtype=int)
        out = (rows, cols, ri.astype(int), ci.astype(int)) if return_idx else (rows, cols)
        if rows.size == 1:
            return tuple(v.item() if i < 2 else int(v.item()) for i, v in enumerate(out))
        return out

    def rowcol2latlon(self, rows: Any, cols: Any) -> Any:
        """The (lat, lon) of the bottom-left corners of cells given by labels or signed numbers."""
        import numpy as np
        rows_in, cols_in = _objects(rows), _objects(cols)
        if rows_in.shape != cols_in.shape:
            raise ValueError("rows and cols must have the same shape")
        lats, lons = [], []
        for row, col in zip(rows_in, cols_in):
            row_label = _signed_label(int(row), "U", "D") if _is_int(row) else str(row)
            hits = np.where(self._row_labels == row_label)[0]
            if hits.size == 0:
                raise ValueError(f"Row label {row_label!r} not found in grid.")
            r = int(hits[0])
            col_label = _signed_label(int(col), "R", "L") if _is_int(col) else str(col)
            hits = np.where(self._row_col_labels[r] == col_label)[0]
            if hits.size == 0:
                raise ValueError(f"Col label {col_label!r} not found in row {self._row_labels[r]}.")
            lats.append(float(self._lats[r]))
            lons.append(float(self._row_lons[r][int(hits[0])]))
        if len(lats) == 1:
            return lats[0], lons[0]
        return np.array(lats, dtype=float), np.array(lons, dtype=float)

    def _compute(self, table: Any, sizes: Sequence[int]) -> list:
        rows, lons, lats = point_centroids(table)
        codes: list = [None] * table.num_rows
        if rows:
            ri, ci = self._indices(lats, lons)
            prefix = f"{int(self.dist_km):04d}km"
            for i, r, c in zip(rows, ri, ci):
                codes[i] = self.sep.join((prefix, self._row_labels[int(r)], self._row_col_labels[int(r)][int(c)]))
        return codes


def _signed_label(k: int, positive: str, negative: str) -> str:
    return f"{abs(k):04d}{positive if k >= 0 else negative}"


def _label_value(label: str) -> int:
    return int(label[:-1]) * (1 if label[-1] in "UR" else -1)


def _is_int(v: Any) -> bool:
    import numpy as np
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _objects(v: Any) -> Any:
    import numpy as np
    items = list(v) if hasattr(v, "__iter__") and not isinstance(v, (str, bytes)) else [v]
    return np.atleast_1d(np.array(items, dtype=object))


class SpatialGrouping(CentroidExtension):
    """``spatialgroup:code``: ``sg0000``, ``sg0001``, … for runs of samples that lie close
    together, as tacotoolbox's ``SpatialGrouping`` makes them: the samples are ordered along a
    Z-order (Morton) curve of their ``stac:centroid`` and cut into consecutive groups of at most
    ``target_count`` samples and/or ``target_size`` bytes ("512MB"; a sample larger than that
    gets a group of its own). Samples without a point centroid get null. Give at least one
    limit."""

    _descriptions = {"spatialgroup:code": "Spatial group identifier using Z-order curve for compact bounding boxes."}

    def __init__(self, target_count: Optional[int] = None, target_size: Union[str, int, None] = None,
                 **ignored: Any) -> None:
        _check_ignored(ignored, "SpatialGrouping")
        if target_count is None and target_size is None:
            raise _core.TacoSchemaError("SpatialGrouping: give target_count (samples per group), target_size "
                                        "(bytes per group, e.g. '512MB') or both")
        if target_count is not None and (isinstance(target_count, bool) or not isinstance(target_count, int)
                                         or target_count < 1):
            raise _core.TacoSchemaError(
                f"SpatialGrouping: target_count must be a positive integer, not {target_count!r}")
        self.target_count = target_count
        self.target_size = target_size
        self._size_limit = None if target_size is None else _core.parse_size(str(target_size))

    def get_schema(self) -> Any:
        """The column's pyarrow schema: ``spatialgroup:code`` string."""
        import pyarrow as pa
        return pa.schema([pa.field("spatialgroup:code", pa.string())])

    def _needs_sizes(self) -> bool:
        return self._size_limit is not None

    def _compute(self, table: Any, sizes: Sequence[int]) -> list:
        import numpy as np
        rows, lons, lats = point_centroids(table)
        if not rows:
            raise _core.TacoSchemaError(f"SpatialGrouping: no sample has a point in '{_CENTROID}'")
        # tacotoolbox's sort (numpy's default, not stable): ties between equal codes land as its do.
        order = np.argsort(np.array([morton_code(lon, lat) for lon, lat in zip(lons, lats)]))
        codes: list = [None] * table.num_rows
        group, count, size = 0, 0, 0
        for k in order:
            row = rows[int(k)]
            sample_size = sizes[row] if sizes else 0
            full = count > 0 and (
                (self.target_count is not None and count >= self.target_count)
                or (self._size_limit is not None and size + sample_size > self._size_limit))
            if full:
                group, count, size = group + 1, 0, 0
            codes[row] = f"sg{group:04d}"
            count += 1
            size += sample_size
        return codes


def morton_code(lon: float, lat: float) -> int:
    """The Z-order code of a point: longitude and latitude scaled to 21-bit integers over
    [-180, 180] x [-90, 90] and their bits interleaved (longitude in the even bits)."""
    scale = (1 << 21) - 1
    x = int((lon + 180.0) / 360.0 * scale)
    y = int((lat + 90.0) / 180.0 * scale)
    code = 0
    for bit in range(21):
        code |= ((x >> bit) & 1) << (2 * bit) | ((y >> bit) & 1) << (2 * bit + 1)
    return code
