"""tacotoolbox.taco.extensions.scientific under tacocore (implemented in tacocore._extensions)."""

from ..._extensions import Publication, Publications, TacoExtension

__all__ = ["Publications", "Publication", "TacoExtension"]
