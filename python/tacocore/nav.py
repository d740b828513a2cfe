"""tacoreader's ``tacoreader.nav`` layout: the space and time filters as functions of a dataset
(the same as ``ds.filter_bbox`` / ``ds.filter_datetime``)."""

from typing import Any


def apply_bbox_filter(dataset: Any, minx: float, miny: float, maxx: float, maxy: float,
                      geometry_col: str = "auto", level: int = 0) -> Any:
    """``dataset.filter_bbox(minx, miny, maxx, maxy, geometry_col, level)``."""
    return dataset.filter_bbox(minx, miny, maxx, maxy, geometry_col=geometry_col, level=level)


def apply_datetime_filter(dataset: Any, datetime_range: Any, time_col: str = "auto", level: int = 0) -> Any:
    """``dataset.filter_datetime(datetime_range, time_col, level)``."""
    return dataset.filter_datetime(datetime_range, time_col=time_col, level=level)


__all__ = ["apply_bbox_filter", "apply_datetime_filter"]
