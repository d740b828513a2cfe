"""tacoreader's ``tacoreader.dataframe`` layout: the TacoDataFrame classes for type hints and
``isinstance`` checks (``tacocore.dataframe.pyarrow.TacoDataFrameArrow`` ...).

tacoreader's ``register_backend``/``create_dataframe`` build frames from its own DuckDB
connection and are not provided: tacocore's frames come from ``load()`` and from
``TacoDataFrame.from_arrow``.
"""

from .._backends import AVAILABLE_BACKENDS, TacoDataFrame, check_backend
from .._exceptions import TacoBackendError, TacoNavigationError


def get_available_backends() -> list:
    """The backends whose package imports here, among "pyarrow", "polars" and "pandas"."""
    out = []
    for name in AVAILABLE_BACKENDS:
        try:
            out.append(check_backend(name))
        except TacoBackendError:
            continue
    return out


__all__ = ["TacoDataFrame", "get_available_backends"]
