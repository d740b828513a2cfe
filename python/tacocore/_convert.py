"""Export of a subset and zip2folder / folder2zip (spec §7.3-§7.4), done in the C++ core: sample
bytes are copied range to range, metadata is rewritten by DuckDB with every column kept."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional, Union

from . import _core

PathLike = Union[str, "os.PathLike[str]"]


def export(dataset: Any, output: PathLike, format: str = "auto", overwrite: bool = False,
           compression_level: int = 3, level_codec: str = "lz4_raw") -> Dict[str, Any]:
    """Writes the rows of ``dataset`` (a level-0 view: ``load(...)``, ``.sql(...)``, a
    ``concat``, a collection) and every sample below them as a new dataset at ``output``.

    ``format``: ``"zip"``, ``"folder"`` or ``"auto"`` (a ``.zip``/``.tacozip`` name means ZIP).
    Returns ``{"path", "format", "files", "sample_bytes", "level_rows"}``. Raises TacoQueryError
    when the view keeps nothing (nothing is written) and TacoIOError when ``output`` exists
    without ``overwrite=True``. ``level_codec``: ``"lz4_raw"`` (default) or ``"zstd"``, as
    ``create``.
    """
    native = getattr(dataset, "_native", dataset)
    return _core.export_dataset(native, os.fspath(output), format, overwrite, compression_level,
                                level_codec)


def convert(input: PathLike, output: PathLike, format: str = "auto",
            overwrite: bool = False, level_codec: str = "lz4_raw") -> Dict[str, Any]:
    """The dataset at ``input`` written at ``output`` in the other container (ZIP <-> FOLDER),
    every sample, byte and metadata value kept; ``format`` forces one. ``level_codec``: the
    compression of the rewritten level tables, ``"lz4_raw"`` (default), ``"lz4"`` or ``"zstd"``
    (``taco convert --level-codec``); anything else is a ValueError naming the choices."""
    return _core.convert_dataset(os.fspath(input), os.fspath(output), format, overwrite,
                                 level_codec)


def zip2folder(input: PathLike, output: PathLike, overwrite: bool = False) -> Dict[str, Any]:
    """A ZIP dataset as a FOLDER dataset (tacotoolbox <= 0.24's ``zip2folder``)."""
    return convert(input, output, "folder", overwrite)


def folder2zip(input: PathLike, output: PathLike, overwrite: bool = False) -> Dict[str, Any]:
    """A FOLDER dataset as a ZIP dataset (tacotoolbox <= 0.24's ``folder2zip``)."""
    return convert(input, output, "zip", overwrite)


def _card(input: Any, fmt: str, output: Optional[PathLike],
          dataset_example_path: Optional[str]) -> Union[str, "os.PathLike[str]"]:
    from ._reader import load
    dataset = input if hasattr(input, "_native") else load(os.fspath(input))
    text = _core.dataset_card(dataset._native, fmt, dataset_example_path or "")
    if output is None:
        return text
    path = os.fspath(output)
    # An existing file is replaced, as tacotoolbox does (README.md by default), but never one of
    # a dataset's files; the card appears whole or not at all.
    _core.check_replaceable_document(path, dataset._native, f"generate_{'markdown' if fmt == 'md' else fmt}")
    staging = f"{path}.tmp-{os.getpid()}"
    try:
        with open(staging, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(staging, path)
    except BaseException:
        if os.path.exists(staging):
            os.remove(staging)
        raise
    return path


def generate_markdown(input: Any, output: Optional[PathLike] = "README.md",
                      dataset_example_path: Optional[str] = None):
    """A Markdown dataset card of ``input`` (a path or a loaded dataset), written to ``output``
    (tacotoolbox's name and defaults); ``output=None`` returns the text instead."""
    return _card(input, "md", output, dataset_example_path)


def generate_html(input: Any, output: Optional[PathLike] = "index.html",
                  dataset_example_path: Optional[str] = None):
    """A self-contained HTML dataset card (inline CSS and SVG map, no script, no network) of
    ``input``, written to ``output``; ``output=None`` returns the text instead."""
    return _card(input, "html", output, dataset_example_path)
