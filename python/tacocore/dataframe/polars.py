"""``tacoreader.dataframe.polars``: the polars-backed frame."""

from .._exceptions import TacoBackendError  # noqa: F401  (tacoreader re-exports it here)
from .._backends import TacoDataFrame, TacoDataFramePolars

__all__ = ["TacoDataFramePolars"]
