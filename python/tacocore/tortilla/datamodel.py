"""tacotoolbox.tortilla.datamodel under tacocore: ``Tortilla`` and the ``TortillaExtension`` base
class for your own extensions (a pydantic model, as tacotoolbox's; needs pydantic)."""

from .._extension_bases import TortillaExtension
from .._toolbox import Tortilla

__all__ = ["Tortilla", "TortillaExtension"]
