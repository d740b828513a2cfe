"""Legacy v1 datasets (Tortilla 0.5 ``.tortilla``, TACO 0.2 ``.taco``, single or multi-part).

``tacocore.load`` opens them read-only like any dataset (the core recognises them); ``migrate``
rewrites one as a TACO 2.0 ZIP or FOLDER with every sample's bytes unchanged. The mapping of v1
fields is in docs/USER-GUIDE.md, "Legacy v1 datasets".
"""

from __future__ import annotations

import os
from typing import Any, Dict, Union

from . import _core

PathLike = Union[str, "os.PathLike[str]"]


def migrate(input: PathLike, output: PathLike, format: str = "auto",
            overwrite: bool = False, level_codec: str = "lz4_raw") -> Dict[str, Any]:
    """Writes the v1 file ``input`` (any part of a multi-part one) as a TACO 2.0 dataset at
    ``output``: ZIP for a ``.zip``/``.tacozip`` name or ``format="zip"``, FOLDER otherwise.

    Returns ``{"path", "format", "files", "sample_bytes", "level_rows"}``. Raises TacoFormatError
    for a truncated or corrupt v1 file, an unknown v1 version, or nested tortillas whose children
    differ (TACO 2.0 trees are position-isomorphic); TacoIOError when ``output`` exists without
    ``overwrite=True``. Nothing is left behind on error. ``level_codec``: the compression of the
    level tables written, ``"lz4_raw"`` (default), ``"lz4"`` or ``"zstd"`` (``taco migrate
    --level-codec``); anything else is a ValueError naming the choices.
    """
    return _core.migrate_v1(os.fspath(input), os.fspath(output), format, overwrite, level_codec)


def is_legacy_v1(path: PathLike) -> bool:
    """True when ``path`` names (``.tortilla``/``.taco``) or holds (magic bytes) a v1 file."""
    return _core.is_legacy_v1(os.fspath(path))
