"""tacotoolbox.taco.extensions.split under tacocore (implemented in tacocore._extensions)."""

from ..._extensions import SplitStrategy, SplitStrategyType, TacoExtension

__all__ = ["SplitStrategy", "SplitStrategyType", "TacoExtension"]
