"""tacotoolbox.taco.extensions.split under tacocore (implemented in tacocore._extensions)."""

from ..._extensions import SplitStrategy, TacoExtension

__all__ = ["SplitStrategy", "TacoExtension"]
