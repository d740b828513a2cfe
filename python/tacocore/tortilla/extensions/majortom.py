"""tacotoolbox.tortilla.extensions.majortom under tacocore: ``MajorTOM``, implemented in
tacocore._tortilla_extensions."""

from ..._tortilla_extensions import MajorTOM

__all__ = ["MajorTOM"]
