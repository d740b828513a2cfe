"""Catalog exports (issue 16), done in the C++ core like `taco export-stac`, `taco
export-croissant` and `taco export-datacite`: a static STAC catalog, Croissant 1.0 JSON-LD and
DataCite 4.5 JSON. Each takes a path/URL or a loaded dataset, writes a new output (never over an
existing one unless ``overwrite=True``) and returns ``{"path", "items", "warnings"}``; each
warning (a field left out because the dataset has no geometry, time or checksum) is also issued
as a Python ``UserWarning``."""

from __future__ import annotations

import operator
import os
import warnings
from typing import Any, Dict, Optional, Union

from . import _core

PathLike = Union[str, "os.PathLike[str]"]


def _native(dataset: Any):
    if hasattr(dataset, "_native"):
        dataset._check_open()
        return dataset._native
    from ._reader import load
    return load(os.fspath(dataset))._native


def _warn(result: Dict[str, Any]) -> Dict[str, Any]:
    for w in result["warnings"]:
        warnings.warn(w, UserWarning, stacklevel=3)
    return result


def export_stac(dataset: Any, output: PathLike, where: Optional[str] = None,
                overwrite: bool = False) -> Dict[str, Any]:
    """A STAC 1.0 Collection (``output/collection.json``) and one Item per level-0 sample
    (``output/items/<id>.json``) whose asset href is GDAL-readable (``/vsisubfile/`` inside a
    ZIP). ``dataset`` may be a filtered view (``ds.sql(...)``); ``where`` adds a condition as
    the CLI's ``--where``. ``items`` in the result counts the Items."""
    native = _native(dataset)
    if where:
        native = native.sql(f"SELECT * FROM data WHERE {where}")
    return _warn(_core.export_stac(native, os.fspath(output), overwrite))


def export_croissant(dataset: Any, output: PathLike, checksum: str = "auto",
                     base_url: Optional[str] = None, overwrite: bool = False) -> Dict[str, Any]:
    """Croissant 1.0 JSON-LD of the whole dataset: its files (``distribution``, with sha256 when
    ``checksum`` is "yes", or "auto" and the dataset is local) and one RecordSet per level table,
    readable with ``mlcroissant.Dataset(output).records("level0")``. ``base_url``: where the
    dataset will be published (default: paths relative to ``output``). ``items`` counts the
    RecordSets."""
    if checksum not in ("auto", "yes", "no"):
        raise ValueError(f"checksum must be 'auto', 'yes' or 'no', not {checksum!r}")
    return _warn(_core.export_croissant(_native(dataset), os.fspath(output), checksum,
                                        base_url or "", overwrite))


def export_datacite(dataset: Any, output: PathLike, publisher: Optional[str] = None,
                    year: Optional[int] = None, doi: Optional[str] = None,
                    overwrite: bool = False) -> Dict[str, Any]:
    """DataCite Metadata Schema 4.5 JSON (creators from providers, titles, descriptions,
    rightsList from licenses, subjects from keywords and tasks, dates from the temporal extent,
    geoLocations, version). ``publisher`` defaults to the provider with role "host", else the
    first; ``year`` (four digits) to this year."""
    if year is not None:
        try:  # any integer (numpy's too), never a bool or a float
            if isinstance(year, bool):
                raise TypeError
            year = operator.index(year)
        except TypeError:
            raise TypeError(f"year must be an int, not {type(year).__name__}") from None
        if not 1000 <= year <= 9999:
            raise ValueError(f"year must have four digits, not {year}")
    return _warn(_core.export_datacite(_native(dataset), os.fspath(output), publisher or "",
                                       year or 0, doi or "", overwrite))
