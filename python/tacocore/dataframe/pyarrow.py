"""``tacoreader.dataframe.pyarrow``: the pyarrow-backed frame."""

from .._backends import TacoDataFrame, TacoDataFrameArrow

__all__ = ["TacoDataFrameArrow"]
