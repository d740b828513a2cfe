"""tacoreader's ``tacoreader.loader`` layout: ``from tacocore.loader import load``."""

from ._exceptions import TacoQueryError  # noqa: F401  (tacoreader re-exports it here)
from ._reader import TacoDataset, load

__all__ = ["load", "TacoDataset"]
