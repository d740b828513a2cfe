"""tacotoolbox.tortilla.datamodel under tacocore: ``Tortilla`` and the ``TortillaExtension`` base."""

from .._toolbox import Tortilla
from .._tortilla_extensions import TortillaExtension

__all__ = ["Tortilla", "TortillaExtension"]
