"""tacoreader's ``tacoreader.dataset`` layout: ``from tacocore.dataset import TacoDataset``."""

from ._exceptions import TacoQueryError  # noqa: F401  (tacoreader re-exports these here)
from ._pit_schema import PITSchema  # noqa: F401
from ._reader import TacoDataset

__all__ = ["TacoDataset"]
