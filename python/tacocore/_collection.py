"""Collection indexes over TACO ZIP parts: ``.tacocat/`` (what tacoreader reads), the spec's single
file ``__TACOCAT__``, and ``TACOLLECTION.json`` (spec §6.5, §6.6)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Sequence, Union

from . import _core

PathLike = Union[str, os.PathLike]

__all__ = ["create_tacocat", "create_tacollection"]


def create_tacocat(parts: Sequence[PathLike], output: PathLike, format: str = "folder") -> Path:
    """Writes the index of ``parts`` (``.tacozip`` files, in order) into the directory ``output``:
    ``output/.tacocat/`` (``format="folder"``) or ``output/__TACOCAT__`` (``format="file"``).

    The parts must agree in PIT structure, field schema and level columns (TacoSchemaError naming
    the part and the difference); an existing index is never overwritten (TacoIOError); nothing
    half-written remains on failure. Returns the path written.
    """
    if isinstance(parts, (str, os.PathLike)):
        parts = [parts]
    return Path(_core.create_tacocat([os.fspath(p) for p in parts], os.fspath(output), format))


def create_tacollection(parts: Sequence[PathLike], output: PathLike) -> Path:
    """Writes ``output/TACOLLECTION.json``: the first part's COLLECTION.json with the counts summed,
    the extents merged and ``taco:sources`` listing every part. Returns its path."""
    if isinstance(parts, (str, os.PathLike)):
        parts = [parts]
    return Path(_core.create_tacollection([os.fspath(p) for p in parts], os.fspath(output)))
