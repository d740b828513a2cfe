"""tacotoolbox.taco.extensions.labels under tacocore (implemented in tacocore._extensions)."""

from ..._extensions import LabelClass, Labels, TacoExtension

__all__ = ["Labels", "LabelClass", "TacoExtension"]
