"""Points the native core at DuckDB's spatial extension when the ``duckdb-ext-spatial`` wheel is
installed (``pip install tacocore[spatial]``; ``make setup`` installs it), so ``ST_*`` functions
work in ``sql()`` offline. Without it only ``ST_*`` fails, with a message saying what to install;
``filter_bbox`` never needs it."""
from __future__ import annotations

import importlib.util
import os

from . import _core

_RELATIVE = os.path.join("extensions", "v1.4.4", "linux_amd64", "spatial.duckdb_extension")


def register_installed_extension() -> None:
    spec = importlib.util.find_spec("duckdb_ext")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(root, _RELATIVE)
        if os.path.isfile(path):
            _core.set_spatial_extension_path(path)
            return
