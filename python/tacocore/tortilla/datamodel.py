"""tacotoolbox.tortilla.datamodel under tacocore: ``Tortilla`` and the ``TortillaExtension`` base
class for your own extensions (a pydantic model, as tacotoolbox's: it needs pydantic, imported
when the name is first used)."""

from typing import Any

from .._toolbox import Tortilla

__all__ = ["Tortilla", "TortillaExtension"]


def __getattr__(name: str) -> Any:
    if name == "TortillaExtension":
        from .._extension_bases import TortillaExtension
        return TortillaExtension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
