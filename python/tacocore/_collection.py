"""Collection indexes over TACO ZIP parts: ``.tacocat/`` (what tacoreader reads), the spec's single
file ``__TACOCAT__``, and ``TACOLLECTION.json`` (spec §6.5, §6.6)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any, Optional, Sequence, Union

from . import _core
from ._exceptions import TacoPathNotFoundError

PathLike = Union[str, os.PathLike]

__all__ = ["create_tacocat", "create_tacollection"]


def create_tacocat(inputs: Sequence[PathLike], output: Optional[PathLike] = None,
                   parquet_kwargs: Optional[dict] = None, validate_schema: bool = True, *,
                   format: str = "folder") -> Path:
    """Writes the index of ``inputs`` (``.tacozip`` files, in order) into the directory ``output``:
    ``output/.tacocat/`` (``format="folder"``) or ``output/__TACOCAT__`` (``format="file"``).
    ``output=None`` is the directory the inputs share (TacoIOError when they are in several), as
    in tacotoolbox.

    The parts must agree in PIT structure, field schema and level columns (TacoSchemaError naming
    the part and the difference); an existing index is never overwritten (TacoIOError); nothing
    half-written remains on failure. Returns the path written.
    tacotoolbox's ``parquet_kwargs`` and ``validate_schema=False`` are accepted with a
    UserWarning: tacocore writes the index tables its own way (the reader's layout), and always
    checks that the parts agree, since an index of parts that differ cannot be read.
    """
    paths = _inputs(inputs)
    _toolbox_only_options(parquet_kwargs, validate_schema)
    target = _common_directory(paths) if output is None else os.fspath(output)
    return Path(_core.create_tacocat(paths, target, format))


def create_tacollection(inputs: Sequence[PathLike], output: Optional[PathLike] = None,
                        validate_schema: bool = True) -> Path:
    """Writes the first part's COLLECTION.json with the counts summed, the extents merged and
    ``taco:sources`` listing every part, and returns its path.

    ``output``, as tacotoolbox takes it, is the file to write (``"TACOLLECTION.json"``,
    ``".tacocat/COLLECTION.json"``; missing directories are made); an existing directory gets
    ``TACOLLECTION.json`` inside it; ``None`` is ``COLLECTION.json`` in the directory the inputs
    share. An existing file is never overwritten (TacoIOError). ``validate_schema=False`` is
    accepted with a UserWarning: the parts are always checked to agree."""
    paths = _inputs(inputs)
    _toolbox_only_options(None, validate_schema)
    if output is None:
        target = os.path.join(_common_directory(paths), "COLLECTION.json")
    elif os.path.isdir(output):
        target = os.path.join(os.fspath(output), "TACOLLECTION.json")
    else:
        target = os.fspath(output)
    return Path(_core.create_tacollection_file(paths, target))


def _inputs(inputs: Any) -> list:
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    paths = [os.fspath(p) for p in inputs]
    for i, path in enumerate(paths):
        if not _core.is_remote(os.fsdecode(path)) and not os.path.lexists(path):
            raise TacoPathNotFoundError(f"{os.fsdecode(path)}: no such file (input {i} of the "
                                        "collection)")
    return paths


def _common_directory(paths: list) -> str:
    """The directory every input is in (tacotoolbox's default output)."""
    if not paths:
        raise _core.TacoIOError("no inputs given")
    directories = {os.path.dirname(os.path.abspath(p)) for p in paths}
    if len(directories) > 1:
        raise _core.TacoIOError("the inputs are in different directories "
                                f"({', '.join(sorted(directories))}): give output=")
    return directories.pop()


def _toolbox_only_options(parquet_kwargs: Optional[dict], validate_schema: bool) -> None:
    if parquet_kwargs:
        warnings.warn("parquet_kwargs ignored: tacocore writes the index tables in the layout its "
                      "reader and tacoreader read", UserWarning, stacklevel=3)
    if validate_schema is False:
        warnings.warn("validate_schema=False ignored: the parts are always checked to agree (an "
                      "index of parts that differ cannot be read)", UserWarning, stacklevel=3)
