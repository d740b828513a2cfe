"""Export of a subset and zip2folder / folder2zip (spec §7.3-§7.4), done in the C++ core: sample
bytes are copied range to range, metadata is rewritten by DuckDB with every column kept."""

from __future__ import annotations

import os
from typing import Any, Dict, Union

from . import _core

PathLike = Union[str, "os.PathLike[str]"]


def export(dataset: Any, output: PathLike, format: str = "auto", overwrite: bool = False,
           compression_level: int = 3) -> Dict[str, Any]:
    """Writes the rows of ``dataset`` (a level-0 view: ``load(...)``, ``.sql(...)``, a
    ``concat``, a collection) and every sample below them as a new dataset at ``output``.

    ``format``: ``"zip"``, ``"folder"`` or ``"auto"`` (a ``.zip``/``.tacozip`` name means ZIP).
    Returns ``{"path", "format", "files", "sample_bytes", "level_rows"}``. Raises TacoQueryError
    when the view keeps nothing (nothing is written) and TacoIOError when ``output`` exists
    without ``overwrite=True``.
    """
    native = getattr(dataset, "_native", dataset)
    return _core.export_dataset(native, os.fspath(output), format, overwrite, compression_level)


def convert(input: PathLike, output: PathLike, format: str = "auto",
            overwrite: bool = False) -> Dict[str, Any]:
    """The dataset at ``input`` written at ``output`` in the other container (ZIP <-> FOLDER),
    every sample, byte and metadata value kept; ``format`` forces one."""
    return _core.convert_dataset(os.fspath(input), os.fspath(output), format, overwrite)


def zip2folder(input: PathLike, output: PathLike, overwrite: bool = False) -> Dict[str, Any]:
    """A ZIP dataset as a FOLDER dataset (tacotoolbox <= 0.24's ``zip2folder``)."""
    return convert(input, output, "folder", overwrite)


def folder2zip(input: PathLike, output: PathLike, overwrite: bool = False) -> Dict[str, Any]:
    """A FOLDER dataset as a ZIP dataset (tacotoolbox <= 0.24's ``folder2zip``)."""
    return convert(input, output, "zip", overwrite)
