"""tacotoolbox.taco.datamodel under tacocore: ``Taco``, the COLLECTION models (``Provider``,
``Curator``, ``Extent``) and the ``TacoExtension`` base class for your own extensions (a
pydantic model, as tacotoolbox's: it needs pydantic, imported when the name is first used)."""

from typing import Any

from .._collection_models import Curator, Extent, Provider
from .._toolbox import Taco

__all__ = ["Taco", "TacoExtension", "Provider", "Curator", "Extent"]


def __getattr__(name: str) -> Any:
    if name == "TacoExtension":
        from .._extension_bases import TacoExtension
        return TacoExtension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
