"""``tacoreader.dataframe.pandas``: the pandas-backed frame."""

from .._exceptions import TacoBackendError  # noqa: F401  (tacoreader re-exports it here)
from .._backends import TacoDataFrame, TacoDataFramePandas

__all__ = ["TacoDataFramePandas"]
