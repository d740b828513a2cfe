"""tacotoolbox.taco.datamodel under tacocore: ``Taco`` and the ``TacoExtension`` base class for
your own extensions (a pydantic model, as tacotoolbox's; needs pydantic)."""

from .._extension_bases import TacoExtension
from .._toolbox import Taco

__all__ = ["Taco", "TacoExtension"]
