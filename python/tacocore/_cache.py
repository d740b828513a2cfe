"""``clear_cache()``: forget what tacocore keeps in memory between calls.

That is each open dataset's cached results (its row count and the table ``sql()`` results answer
with), so the next use reads the files again, and every cache registered with :func:`on_clear` —
the on-disk metadata cache of remote datasets (TACOCORE_CACHE_DIR) registers itself below.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Callable, List

_datasets: "weakref.WeakSet[Any]" = weakref.WeakSet()
_clearers: List[Callable[[], Any]] = []


def track(dataset: Any) -> None:
    """Registers a dataset whose cached results clear_cache() drops."""
    _datasets.add(dataset)


def on_clear(function: Callable[[], Any]) -> None:
    """Registers another cache's clearing function (called by clear_cache(), in order); what it
    returns, if a number, counts as entries removed."""
    _clearers.append(function)


def clear_cache() -> int:
    """Clears every cache of tacocore (as tacoreader's ``clear_cache``): cached row counts and
    result tables of open datasets, and every cache registered with on_clear(), such as the
    on-disk metadata of remote datasets. Returns the number of cached remote files removed."""
    datasets = list(_datasets)
    for dataset in datasets:
        dataset._drop_cached()
    logging.getLogger("tacocore").debug("clear_cache: %d open dataset(s)", len(datasets))
    removed = 0
    for function in _clearers:
        count = function()
        if isinstance(count, int):
            removed += count
    return removed


def _clear_remote_metadata() -> int:
    from . import _core  # the extension; imported here so this module stays importable alone
    return _core.clear_cache()


on_clear(_clear_remote_metadata)
