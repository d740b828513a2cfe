"""tacotoolbox's ``datamodel`` namespace: ``Sample``, ``Tortilla`` and ``Taco``, and the
submodules ``sample``, ``taco`` and ``tortilla`` with the extensions and COLLECTION models
(``tacotoolbox.datamodel.taco.Provider``, ``tacotoolbox.datamodel.sample.STAC``...).

With ``import tacocore as tacotoolbox``, scripts that spell ``tacotoolbox.datamodel.Sample``
keep working unchanged.
"""

import importlib
from typing import Any

from .._toolbox import Sample, Taco, Tortilla

__all__ = ["Sample", "Tortilla", "Taco", "sample", "taco", "tortilla"]


def __getattr__(name: str) -> Any:
    # The submodules on first use, as attributes too (tacotoolbox imports them eagerly).
    if name in ("sample", "taco", "tortilla"):
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
