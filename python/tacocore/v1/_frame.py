"""TortillaDataFrame: tacoreader.v1's pandas frame of one tortilla's FOOTER.

Each row is a sample as the v1 FOOTER stores it (``tortilla:id``, ``tortilla:file_format``,
``tortilla:offset`` absolute in the file, ``tortilla:length``, ``stac:*``, ``rai:*``, user
columns) plus ``internal:subfile``, the ``/vsisubfile/OFFSET_LENGTH,FILE`` path GDAL opens.
``read(i)`` returns that path, the bytes of a ``BYTES`` sample, or the frame of a nested
tortilla. The bytes are read by tacocore's core (local files, HTTP, S3, GCS, Azure), never by
fsspec; the frame itself is built from the FOOTER's Parquet bytes with pyarrow, as tacoreader
builds it, so both give equal frames.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Tuple

import numpy as np
import pandas as pd

from .. import _core

_SUBFILE = re.compile(r"/vsisubfile/(\d+)_(\d+),(.+)", re.DOTALL)

# tacoreader's get_internal_path: the GDAL prefixes it strips to give back a plain location.
_VSI_PREFIXES = ("/vsicurl/", "/vsis3/", "/vsigs/", "/vsifs/", "/vsiaz/", "/vsioss/", "/vsiswift/")


def _split_subfile(subfile: str) -> Tuple[int, int, str]:
    """(offset, length, file as GDAL names it) of an ``internal:subfile`` value."""
    m = _SUBFILE.match(subfile) if isinstance(subfile, str) else None
    if m is None:
        raise ValueError(f"internal:subfile {subfile!r} is not a '/vsisubfile/OFFSET_LENGTH,FILE' path")
    return int(m.group(1)), int(m.group(2)), m.group(3)


def footer_frame(footer: bytes, base: int, gdal_path: str) -> "TortillaDataFrame":
    """The FOOTER's Parquet bytes as tacoreader.v1 shows them: offsets made absolute (a nested
    tortilla's are relative to its own first byte, ``base``) and ``internal:subfile`` added."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    frame = pq.read_table(pa.BufferReader(footer)).to_pandas()
    missing = [c for c in ("tortilla:offset", "tortilla:length") if c not in frame.columns]
    if missing:
        raise _core.TacoFormatError(f"{gdal_path}: the FOOTER of the tortilla at byte {base} lacks "
                                    f"the column(s) {missing} every v1 FOOTER has")
    if base:
        frame["tortilla:offset"] = frame["tortilla:offset"] + base
    frame["internal:subfile"] = ("/vsisubfile/" + frame["tortilla:offset"].astype(str) + "_" +
                                 frame["tortilla:length"].astype(str) + "," + gdal_path)
    return TortillaDataFrame(frame)


def partial_load_file(offset: int, path: str, length: int = 0, **storage_options: Any) -> "TortillaDataFrame":
    """The nested tortilla whose bytes start at ``offset`` of ``path`` (``length`` 0: up to the
    end of the file), as tacoreader.v1's function of this name. ``storage_options`` are accepted
    and not used: remote access is configured as for ``tacocore.load``."""
    del storage_options
    f = _core.V1File.open(str(path))
    t = f.tortilla(int(offset), int(length), f"{path}: nested tortilla at byte {offset}", True)
    return footer_frame(t["footer"], int(offset), f.gdal_path)


def _read_sample(kind: Any, subfile: Any, sample_id: Callable[[], Any]) -> Any:
    """tacoreader.v1's read() of one row, from its file format and internal:subfile (the id,
    asked only for a nested tortilla's messages, may be missing from a user's frame)."""
    if kind == "TORTILLA":
        offset, length, path = _split_subfile(subfile)
        f = _core.V1File.open(path)
        t = f.tortilla(offset, length, f"{path}: nested tortilla '{sample_id()}'", True)
        return footer_frame(t["footer"], offset, f.gdal_path)
    if kind == "BYTES":
        offset, length, path = _split_subfile(subfile)
        return _core.V1File.open(path).read(offset, length)
    return subfile


def _read_row(row: Any) -> Any:
    return _read_sample(row["tortilla:file_format"], row["internal:subfile"],
                        lambda: row.get("tortilla:id", "?"))


def get_internal_path(row: Any) -> Tuple[int, int, str]:
    """(offset, length, path) of a row's ``internal:subfile``, the path without its GDAL prefix
    (``/vsicurl/https://h/x`` -> ``https://h/x``), as tacoreader.v1 returns them."""
    offset, length, path = _split_subfile(row["internal:subfile"])
    if not Path(path).is_file():
        for prefix in _VSI_PREFIXES:
            if path.startswith(prefix):
                return offset, length, path[len(prefix):]
        raise ValueError(f"Unsupported GDAL VFS prefix: {path}")
    return offset, length, path


class TortillaDataSeries(pd.Series):
    """One row of a TortillaDataFrame; ``read()`` reads its sample."""

    @property
    def _constructor(self):
        return TortillaDataSeries

    get_internal_path = staticmethod(get_internal_path)

    def read(self) -> Any:
        """The sample of this row: its GDAL path, its bytes (``BYTES``) or the frame of a nested
        tortilla (``TORTILLA``)."""
        return _read_row(self)


def sort_columns_add_geometry(metadata: pd.DataFrame) -> pd.DataFrame:
    """The columns in tacoreader.v1's order: ``internal:*``, ``tortilla:*``, ``stac:*``,
    ``rai:*``, then the rest, each group in its stored order."""
    columns = list(metadata.columns)
    prefixes = ["internal:", "tortilla:", "stac:", "rai:"]
    ordered = [c for p in prefixes for c in columns if isinstance(c, str) and c.startswith(p)]
    rest = [c for c in columns if c not in ordered]
    return metadata[ordered + rest]


class TortillaDataFrame(pd.DataFrame):
    """The samples of one tortilla (tacoreader.v1's class of this name)."""

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        kind = type(data).__name__
        if kind == "GeoDataFrame":
            data = sort_columns_add_geometry(data.drop("geometry", axis=1))
        elif isinstance(data, pd.DataFrame) and not isinstance(data, TortillaDataFrame):
            data = sort_columns_add_geometry(data)
        elif not isinstance(data, TortillaDataFrame) and not _is_pandas_internal(data):
            raise ValueError(f"Unsupported data type: {kind}. Only GeoDataFrame, DataFrame, "
                             "and TortillaDataFrame are supported.")
        super().__init__(data, *args, **kwargs)

    @property
    def _constructor(self):
        return TortillaDataFrame

    @property
    def _constructor_sliced(self):
        return TortillaDataSeries

    get_internal_path = staticmethod(get_internal_path)

    def read(self, idx: int) -> Any:
        """The sample at position ``idx``: its GDAL path (``/vsisubfile/...``), its bytes for a
        ``BYTES`` sample, or a TortillaDataFrame of a nested tortilla (``TORTILLA``)."""
        if isinstance(idx, (int, np.integer)):
            # Three cells, not the row: building a row Series of a subclass costs ~75 us, more
            # than reading the sample (tacoreader.v1 builds it).
            at = self.columns.get_loc
            return _read_sample(self.iat[idx, at("tortilla:file_format")],
                                self.iat[idx, at("internal:subfile")],
                                lambda: self.iat[idx, at("tortilla:id")] if "tortilla:id" in self.columns else "?")
        return _read_row(self.iloc[idx])

    def to_geodataframe(self, inplace: bool = False):
        """A GeoDataFrame with a point geometry from ``stac:centroid`` (needs geopandas)."""
        try:
            from geopandas import GeoDataFrame, points_from_xy
        except ImportError:
            raise ImportError("geopandas is required to convert to GeoDataFrame") from None
        if inplace:
            return GeoDataFrame(data=self, crs="EPSG:4326")
        return GeoDataFrame(data=self, geometry=points_from_xy(*parse_wkt_bulk(self["stac:centroid"])),
                            crs="EPSG:4326")

    def plot(self, *args: Any, **kwargs: Any) -> None:
        """Plots the samples' centroids (needs geopandas and matplotlib)."""
        self.to_geodataframe(inplace=False).plot(*args, **kwargs)


def _is_pandas_internal(data: Any) -> bool:
    """pandas may build a subclass's results from its own block managers; those pass (anything
    else that is not a frame is refused, as tacoreader refuses it)."""
    return type(data).__module__.startswith("pandas.")


def parse_wkt_bulk(wkt_series: Any) -> np.ndarray:
    """x and y of ``POINT (x y)`` texts, as a 2 x n array."""
    points = " ".join(wkt_series).replace("POINT (", "").replace(")", "").split()
    return np.array(points, dtype=float).reshape(-1, 2).T
