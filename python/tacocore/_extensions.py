"""The writing extensions with tacotoolbox's names, arguments and columns.

Sample level (``sample.extend_with(...)``): ``STAC``, ``ISTAC``, ``Scaling``, ``Split`` — the
columns are made and checked in C++ (``taco::ext``): centroids in EPSG:4326 with PROJ through
GDAL's OSR, antimeridian-aware. TACO level (``taco.extend_with(...)``): ``OpticalData`` (with
tacotoolbox's sensor band tables), ``Labels``, ``Publications``, ``SplitStrategy`` — keys of
COLLECTION.json exactly as tacotoolbox writes them, made and checked in C++
(``taco::ext::collection_fields``; the band tables are the library's one copy).

Differences from tacotoolbox (USER-GUIDE "Writing space/time extensions"):

- Sample extensions are checked when added to a sample, so every error is a ``TacoSchemaError``
  naming the sample and the field (tacotoolbox raises pydantic errors at construction that name
  neither). Reading ``.centroid``/``.time_middle`` before that computes them on the spot.
- Times may be ``int`` microseconds (as tacotoolbox) or ``datetime`` (naive = UTC).
- ISTAC centroids are always antimeridian-aware (tacotoolbox only with
  ``check_antimeridian=True`` and the ``antimeridian`` package); the argument is accepted.
- STAC centroids use the full affine transform (rotation terms too).
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any, Literal, Optional, Sequence, Union

from . import _core

__all__ = [
    "SampleExtension", "STAC", "ISTAC", "Scaling", "Split",
    "TacoExtension", "SpectralBand", "OpticalData", "LabelClass", "Labels",
    "Publication", "Publications", "SplitStrategy", "SplitStrategyType", "SUPPORTED_SENSORS", "get_sensor_bands",
]

Time = Union[int, _dt.datetime, None]


def _micros(value: Time, field: str, owner: str) -> Optional[int]:
    """int microseconds since the epoch from an int or a datetime (naive = UTC)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise _core.TacoSchemaError(f"{owner}: field '{field}': expected int microseconds or a datetime, not bool")
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    try:
        import numpy as np
        if isinstance(value, np.datetime64):
            return int(value.astype("datetime64[us]").astype("int64"))
        if isinstance(value, np.integer):
            return int(value)
    except ImportError:  # numpy is a dependency; this is only defensive
        pass
    if isinstance(value, int):
        return value
    raise _core.TacoSchemaError(
        f"{owner}: field '{field}': expected int microseconds or a datetime, not {type(value).__name__}")


class SampleExtension:
    """Base of the sample extensions: ``sample.extend_with(ext)`` adds ``ext``'s columns.

    Like tacotoolbox's, an extension is callable (``ext(sample)`` returns its one-row pyarrow
    Table) and has ``get_schema()`` / ``get_field_descriptions()``.
    """

    _descriptions: dict = {}

    def __init__(self) -> None:
        self._cache: Optional[tuple] = None

    def _native(self, sample_id: str) -> "_core.ExtensionFields":
        raise NotImplementedError  # every subclass defines it

    def _fields(self, sample_id: str = "") -> "_core.ExtensionFields":
        if self._cache is None or self._cache[0] != sample_id:
            self._cache = (sample_id, self._native(sample_id))
        return self._cache[1]

    def _default_id(self) -> str:
        return getattr(self, "sample_id", None) or ""

    def _apply(self, native_sample: Any) -> None:
        self._fields(native_sample.id).apply(native_sample)

    def to_dict(self) -> dict:
        """{column: value} as they will be stored (timestamps as naive UTC datetimes)."""
        return self._fields(self._default_id()).to_dict()

    def get_schema(self):
        """The columns' pyarrow schema (names, order and types as they will be stored)."""
        import pyarrow as pa
        f = self._fields(self._default_id())
        return pa.schema([pa.field(n, _arrow_type(t)) for n, t in zip(f.names, f.arrow_types)])

    def get_field_descriptions(self) -> dict:
        """{column: description}, as tacotoolbox's (and taco:field_schema's) text."""
        return dict(self._descriptions)

    def __call__(self, sample: Any = None):
        """The columns as a one-row pyarrow Table (tacotoolbox's SampleExtension protocol)."""
        import pyarrow as pa
        sid = getattr(sample, "id", None) or self._default_id()
        f = self._fields(sid)
        values = f.to_dict()
        return pa.Table.from_pydict({n: [values[n]] for n in f.names}, schema=self.get_schema())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({args})"


def _arrow_type(name: str):
    import pyarrow as pa
    if name.startswith("list<item: ") and name.endswith(">"):
        return pa.list_(_arrow_type(name[len("list<item: "):-1]))
    return {"string": pa.string(), "binary": pa.binary(), "double": pa.float64(), "float": pa.float32(),
            "int64": pa.int64(), "int32": pa.int32(), "bool": pa.bool_(),
            "timestamp[us]": pa.timestamp("us")}[name]


_TIME_DESC = "timestamp (\u03bcs since Unix epoch, UTC)"


class STAC(SampleExtension):
    """Regular raster metadata, the ``stac:*`` columns (tacotoolbox ``STAC``).

    ``STAC(crs, tensor_shape, geotransform, time_start, time_end=None, time_middle=None,
    centroid=None)``: ``crs`` any form PROJ reads ("EPSG:32633", WKT2, PROJ string);
    ``tensor_shape`` (bands, rows, cols) or (rows, cols); ``geotransform`` GDAL's 6 numbers;
    times int microseconds since the epoch (or datetimes, naive = UTC). ``time_middle`` defaults
    to ``(time_start + time_end) // 2``, ``centroid`` to the grid centre as a WKB point in
    EPSG:4326.
    """

    _descriptions = {
        "stac:crs": "Coordinate reference system (WKT2, EPSG, or PROJ)",
        "stac:tensor_shape": "Raster dimensions [bands, height, width]",
        "stac:geotransform": "GDAL affine transform",
        "stac:time_start": "Start " + _TIME_DESC,
        "stac:centroid": "Center point in EPSG:4326 (WKB)",
        "stac:time_end": "End " + _TIME_DESC,
        "stac:time_middle": "Middle " + _TIME_DESC,
    }

    def __init__(self, crs: str, tensor_shape: Sequence[int], geotransform: Sequence[float], time_start: Time,
                 time_end: Time = None, time_middle: Time = None, centroid: Optional[bytes] = None,
                 sample_id: Optional[str] = None, **ignored: Any) -> None:
        super().__init__()
        _check_ignored(ignored, "STAC")
        owner = f"STAC for sample '{sample_id}'" if sample_id else "STAC"
        self.sample_id = sample_id
        self.crs = crs if isinstance(crs, str) else _bad(owner, "stac:crs", "a CRS string", crs)
        self.tensor_shape = tuple(_ints(tensor_shape, owner, "stac:tensor_shape"))
        self.geotransform = tuple(_floats(geotransform, owner, "stac:geotransform"))
        if time_start is None:
            _bad(owner, "stac:time_start", "a time", time_start)
        self.time_start = _micros(time_start, "stac:time_start", owner)
        self.time_end = _micros(time_end, "stac:time_end", owner)
        self._time_middle = _micros(time_middle, "stac:time_middle", owner)
        self._centroid = None if centroid is None else bytes(centroid)

    def _native(self, sample_id: str):
        return _core.ext_stac(sample_id, self.crs, list(self.tensor_shape), list(self.geotransform),
                              self.time_start, self.time_end, self._time_middle, self._centroid)

    @property
    def centroid(self) -> bytes:
        """WKB point in EPSG:4326 (given, or computed from the grid)."""
        return self.to_dict()["stac:centroid"]

    @property
    def time_middle(self) -> Optional[int]:
        """Microseconds since the epoch (given, or the floor of the midpoint; None without an end)."""
        v = self.to_dict()["stac:time_middle"]
        return None if v is None else _micros(v, "stac:time_middle", "STAC")


class ISTAC(SampleExtension):
    """Irregular footprint metadata, the ``istac:*`` columns (tacotoolbox ``ISTAC``).

    ``ISTAC(crs, geometry, time_start, time_end=None, time_middle=None, centroid=None,
    check_antimeridian=False)``: ``geometry`` WKB bytes in ``crs`` (a shapely geometry is taken
    too and written as WKB). The centroid is always antimeridian-aware.
    """

    _descriptions = {
        "istac:crs": "Coordinate reference system (WKT2, EPSG, or PROJ)",
        "istac:geometry": "Spatial footprint in source CRS (WKB)",
        "istac:time_start": "Start " + _TIME_DESC,
        "istac:time_end": "End " + _TIME_DESC,
        "istac:time_middle": "Middle " + _TIME_DESC,
        "istac:centroid": "Center point in EPSG:4326 (WKB)",
    }

    def __init__(self, crs: str, geometry: Any, time_start: Time, time_end: Time = None,
                 time_middle: Time = None, centroid: Optional[bytes] = None, check_antimeridian: bool = False,
                 sample_id: Optional[str] = None, **ignored: Any) -> None:
        super().__init__()
        _check_ignored(ignored, "ISTAC")
        owner = f"ISTAC for sample '{sample_id}'" if sample_id else "ISTAC"
        self.sample_id = sample_id
        self.crs = crs if isinstance(crs, str) else _bad(owner, "istac:crs", "a CRS string", crs)
        if hasattr(geometry, "wkb") and not isinstance(geometry, (bytes, bytearray, memoryview)):
            geometry = geometry.wkb  # a shapely geometry
        if not isinstance(geometry, (bytes, bytearray, memoryview)):
            _bad(owner, "istac:geometry", "WKB bytes", geometry)
        self.geometry = bytes(geometry)
        if time_start is None:
            _bad(owner, "istac:time_start", "a time", time_start)
        self.time_start = _micros(time_start, "istac:time_start", owner)
        self.time_end = _micros(time_end, "istac:time_end", owner)
        self._time_middle = _micros(time_middle, "istac:time_middle", owner)
        self._centroid = None if centroid is None else bytes(centroid)
        self.check_antimeridian = bool(check_antimeridian)

    def _native(self, sample_id: str):
        return _core.ext_istac(sample_id, self.crs, self.geometry, self.time_start, self.time_end,
                               self._time_middle, self._centroid)

    @property
    def centroid(self) -> bytes:
        """WKB point in EPSG:4326 (given, or the footprint's centroid)."""
        return self.to_dict()["istac:centroid"]

    @property
    def time_middle(self) -> Optional[int]:
        """Microseconds since the epoch (given, or the floor of the midpoint; None without an end)."""
        v = self.to_dict()["istac:time_middle"]
        return None if v is None else _micros(v, "istac:time_middle", "ISTAC")


class Scaling(SampleExtension):
    """Packing metadata, the ``scaling:*`` columns (tacotoolbox ``Scaling``):
    ``unpacked = packed * scale_factor + scale_offset``. Scalars are float32 columns; when either
    is a list both are list<float32>. ``padding`` [top, right, bottom, left] pixels, list<int32>.
    """

    _descriptions = {
        "scaling:scale_factor": "Multiplicative scaling factor for unpacking data (Float32 or List[Float32])",
        "scaling:scale_offset": "Additive offset for unpacking data (Float32 or List[Float32])",
        "scaling:padding": "Spatial padding [top, right, bottom, left] in pixels (List[Int32])",
    }

    def __init__(self, scale_factor: Union[float, Sequence[float], None] = None,
                 scale_offset: Union[float, Sequence[float], None] = None,
                 padding: Optional[Sequence[int]] = None, **ignored: Any) -> None:
        super().__init__()
        _check_ignored(ignored, "Scaling")
        self.scale_factor = scale_factor
        self.scale_offset = scale_offset
        self.padding = padding

    def _native(self, sample_id: str):
        owner = f"sample '{sample_id}'" if sample_id else "Scaling"
        per_band = _is_seq(self.scale_factor) or _is_seq(self.scale_offset)

        def as_list(v, field):
            if v is None:
                return []
            return _floats(v, owner, field) if _is_seq(v) else _floats([v], owner, field)

        padding = None
        if self.padding is not None:
            padding = _ints(self.padding, owner, "scaling:padding")
            if len(padding) != 4:
                raise _core.TacoSchemaError(
                    f"{owner}: field 'scaling:padding': expected 4 integers [top, right, bottom, left], "
                    f"got {len(padding)}")
        return _core.ext_scaling(sample_id, per_band, as_list(self.scale_factor, "scaling:scale_factor"),
                                 as_list(self.scale_offset, "scaling:scale_offset"), padding)


class Split(SampleExtension):
    """The ``split`` column: "train", "test" or "validation" (tacotoolbox ``Split``)."""

    _descriptions = {"split": "Dataset partition identifier (train, test, or validation)"}

    def __init__(self, split: str, **ignored: Any) -> None:
        super().__init__()
        _check_ignored(ignored, "Split")
        self.split = split

    def _native(self, sample_id: str):
        if not isinstance(self.split, str):
            _bad(f"sample '{sample_id}'" if sample_id else "Split", "split", "a string", self.split)
        return _core.ext_split(sample_id, self.split)


def _check_ignored(ignored: dict, owner: str) -> None:
    # tacotoolbox's SampleExtension base takes schema_only/return_none; anything else is a typo.
    unknown = [k for k in ignored if k not in ("schema_only", "return_none")]
    if unknown:
        raise TypeError(f"{owner}() got unexpected keyword argument(s): {', '.join(unknown)}")
    if ignored.get("schema_only") or ignored.get("return_none"):
        raise _core.TacoSchemaError(
            f"{owner}: schema_only/return_none (all-null columns) is not supported; give real values")


def _bad(owner: str, field: str, expected: str, got: Any):
    raise _core.TacoSchemaError(f"{owner}: field '{field}': expected {expected}, not {type(got).__name__} {got!r}")


def _is_seq(v: Any) -> bool:
    return v is not None and not isinstance(v, (str, bytes)) and hasattr(v, "__len__")


def _ints(values: Any, owner: str, field: str) -> list:
    if not _is_seq(values):
        _bad(owner, field, "a sequence of integers", values)
    out = []
    for v in values:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            _bad(owner, field, "integers", v)
        out.append(int(v))
    return out


def _floats(values: Any, owner: str, field: str) -> list:
    if not _is_seq(values):
        _bad(owner, field, "a sequence of numbers", values)
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
            _bad(owner, field, "numbers", v)
        out.append(float(v))
    return out


# --------------------------------------------------------------------------------------------
# TACO-level extensions: keys of COLLECTION.json


class TacoExtension:
    """Base of the TACO-level extensions: ``taco.extend_with(ext)`` adds ``ext.to_dict()``'s keys
    to COLLECTION.json (in this order, after the core fields)."""

    _descriptions: dict = {}

    def to_dict(self) -> dict:
        """The COLLECTION.json keys this extension adds."""
        raise NotImplementedError  # every subclass defines it

    def get_field_descriptions(self) -> dict:
        """{key: description}, as tacotoolbox's get_field_descriptions()."""
        return dict(self._descriptions)

    def __call__(self, taco: Any = None):
        """The keys as a one-row pyarrow Table (tacotoolbox's TacoExtension protocol)."""
        import pyarrow as pa
        return pa.Table.from_pylist([self.to_dict()])

    def model_dump(self) -> dict:
        """Same as to_dict()."""
        return self.to_dict()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.to_dict()!r})"


def _band_tables() -> dict:
    # The one copy of tacotoolbox's tables, compiled into the native library (src/ext/sensor_bands.json).
    return json.loads(_core.sensor_bands_json())["sensors"]


def _native_keys(extension: str, arguments: dict) -> dict:
    """The COLLECTION.json keys of a TACO-level extension, made and checked in C++
    (taco::ext::collection_fields_from_json): Python only shapes the arguments."""
    return {k: json.loads(v) for k, v in _core.taco_extension_fields(extension, json.dumps(arguments))}


SUPPORTED_SENSORS = list(_core.supported_sensors())


def get_sensor_bands(sensor: str, bands: Union[str, Sequence[str]] = "all") -> dict:
    """{band name: {index, common_name, description, center_wavelength, full_width_half_max}}
    for a supported sensor (tacotoolbox's tables, src/ext/sensor_bands.json in the native library), all bands or
    the given ones in the given order. TacoSchemaError for an unknown sensor or band."""
    tables = _band_tables()
    table = tables.get(sensor.lower())
    if table is None:
        raise _core.TacoSchemaError(
            f"OpticalData: unsupported sensor {sensor!r} (supported: {', '.join(SUPPORTED_SENSORS)}); "
            "give bands=[SpectralBand(...)] for another sensor")
    if bands == "all":
        return dict(table)
    unknown = [b for b in bands if b not in table]
    if unknown:
        raise _core.TacoSchemaError(
            f"OpticalData: sensor {sensor!r} has no band(s) {', '.join(unknown)} (it has {', '.join(table)})")
    return {b: table[b] for b in bands}


class SpectralBand:
    """One band of ``OpticalData`` (tacotoolbox ``SpectralBand``)."""

    _FIELDS = ("name", "index", "common_name", "description", "unit", "center_wavelength", "full_width_half_max")

    def __init__(self, name: str, index: Optional[int] = None, common_name: Optional[str] = None,
                 description: Optional[str] = None, unit: Optional[str] = None,
                 center_wavelength: Optional[float] = None, full_width_half_max: Optional[float] = None) -> None:
        if not isinstance(name, str) or not name:
            raise _core.TacoSchemaError(f"SpectralBand: name must be a non-empty string, not {name!r}")
        self.name, self.index, self.common_name, self.description, self.unit = (
            name, None if index is None else int(index), common_name, description, unit)
        self.center_wavelength = None if center_wavelength is None else float(center_wavelength)
        self.full_width_half_max = None if full_width_half_max is None else float(full_width_half_max)

    def model_dump(self) -> dict:
        """The band as a dict, every field present (None when not given)."""
        return {f: getattr(self, f) for f in self._FIELDS}


class OpticalData(TacoExtension):
    """Spectral bands of the dataset: ``optical:sensor``, ``optical:bands``, ``optical:num_bands``.

    ``OpticalData(sensor="sentinel2msi")`` takes every band from tacotoolbox's table;
    ``"landsat8oli[B02,B03,B04]"`` a subset, in that order; ``OpticalData(sensor="custom",
    bands=[SpectralBand(...)])`` explicit bands. An unknown sensor without bands is an error
    (tacotoolbox writes an empty band list).
    """

    _descriptions = {
        "optical:sensor": "Sensor identifier (e.g., sentinel2msi, landsat8oli) for spectral characteristics",
        "optical:bands": "List of spectral band definitions with wavelength, name, and metadata",
        "optical:num_bands": "Total number of spectral bands in the dataset",
    }

    def __init__(self, sensor: Optional[str] = None, bands: Optional[Sequence[Any]] = None) -> None:
        if sensor is not None and not isinstance(sensor, str):
            raise _core.TacoSchemaError(f"OpticalData: sensor must be a string, not {sensor!r}")
        arguments: dict = {"sensor": sensor}
        if bands is not None:
            given = [b if isinstance(b, SpectralBand) else SpectralBand(**_plain(b)) for b in bands]
            arguments["bands"] = [b.model_dump() for b in given]
        self._keys = _native_keys("OpticalData", arguments)
        self.sensor = self._keys["optical:sensor"]
        self.bands = [SpectralBand(**b) for b in self._keys["optical:bands"]]

    def to_dict(self) -> dict:
        """The COLLECTION.json keys: optical:sensor, optical:bands, optical:num_bands."""
        return json.loads(json.dumps(self._keys))  # a copy the caller may change


class LabelClass:
    """One class of ``Labels``: name, category (int or str, stored as str), description."""

    def __init__(self, name: str, category: Union[int, str], description: Optional[str] = None) -> None:
        if not isinstance(name, str) or not name:
            raise _core.TacoSchemaError(f"LabelClass: name must be a non-empty string, not {name!r}")
        if isinstance(category, bool) or not isinstance(category, (int, str)):
            raise _core.TacoSchemaError(f"LabelClass {name!r}: category must be an int or a str, not {category!r}")
        self.name, self.category, self.description = name, category, description

    def model_dump(self) -> dict:
        """{name, category (as text, as tacotoolbox stores it), description}."""
        return {"name": self.name, "category": str(self.category), "description": self.description}


class Labels(TacoExtension):
    """Class definitions: ``labels:classes``, ``labels:description``, ``labels:num_classes``.
    Class names and categories must be unique (tacotoolbox does not check)."""

    _descriptions = {
        "labels:classes": "List of class definitions with name, category ID, and optional description",
        "labels:description": "Overall description of labeling scheme, methodology, or data source",
        "labels:num_classes": "Total number of classes in the dataset",
    }

    def __init__(self, label_classes: Sequence[Any], label_description: Optional[str] = None) -> None:
        classes = [c if isinstance(c, LabelClass) else LabelClass(**_plain(c)) for c in label_classes]
        self._keys = _native_keys("Labels", {"label_classes": [c.model_dump() for c in classes],
                                             "label_description": label_description})
        self.label_classes, self.label_description = classes, label_description

    def to_dict(self) -> dict:
        """The COLLECTION.json keys: labels:classes, labels:description, labels:num_classes."""
        return json.loads(json.dumps(self._keys))


class Publication:
    """One entry of ``Publications``: doi, citation, summary."""

    def __init__(self, doi: str, citation: str, summary: Optional[str] = None) -> None:
        for field, v in (("doi", doi), ("citation", citation)):
            if not isinstance(v, str) or not v:
                raise _core.TacoSchemaError(f"Publication: {field} must be a non-empty string, not {v!r}")
        self.doi, self.citation, self.summary = doi, citation, summary

    def model_dump(self) -> dict:
        """{doi, citation, summary}."""
        return {"doi": self.doi, "citation": self.citation, "summary": self.summary}


class Publications(TacoExtension):
    """The ``publications`` key: a list of {doi, citation, summary}."""

    _descriptions = {
        "publications": "List of academic publications with DOI, citation, and optional summary describing "
                        "dataset methodology or applications"
    }

    def __init__(self, publications: Sequence[Any]) -> None:
        self.publications = [p if isinstance(p, Publication) else Publication(**_plain(p)) for p in publications]
        self._keys = _native_keys("Publications", {"publications": [p.model_dump() for p in self.publications]})

    def to_dict(self) -> dict:
        """The COLLECTION.json key: publications."""
        return json.loads(json.dumps(self._keys))


# tacotoolbox's name for the strategies SplitStrategy takes.
SplitStrategyType = Literal["random", "stratified", "manual", "other", "none", "unknown"]


class SplitStrategy(TacoExtension):
    """The ``split:strategy`` key: random, stratified, manual, other, none or unknown."""

    _descriptions = {
        "split:strategy": "Dataset partitioning method (random, stratified, manual, other, none, or unknown)"
    }
    _VALUES = SplitStrategyType.__args__

    def __init__(self, strategy: str) -> None:
        if not isinstance(strategy, str):
            raise _core.TacoSchemaError(
                f"SplitStrategy: strategy {strategy!r} is not one of {', '.join(self._VALUES)}")
        self._keys = _native_keys("SplitStrategy", {"strategy": strategy})
        self.strategy = strategy

    def to_dict(self) -> dict:
        """The COLLECTION.json key: split:strategy."""
        return dict(self._keys)


def _plain(obj: Any) -> dict:
    """A dict from a dict or a pydantic model (tacotoolbox's own SpectralBand, LabelClass, ...)."""
    if isinstance(obj, dict):
        return obj
    if hasattr(obj, "model_dump"):
        return obj.model_dump()
    raise _core.TacoSchemaError(f"expected a dict or a model, not {type(obj).__name__}")
