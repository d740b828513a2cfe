"""``tacoreader.dataframe.base``: the TacoDataFrame base class."""

from .._exceptions import TacoNavigationError  # noqa: F401  (tacoreader re-exports it here)
from .._backends import TacoDataFrame

__all__ = ["TacoDataFrame"]
