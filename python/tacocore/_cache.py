"""``clear_cache()``: forget what tacocore keeps in memory between calls.

Today that is each open dataset's cached results (its row count and the table ``sql()`` results
answer with), so the next use reads the files again. Caches added later (remote metadata) register
their own clearing function with :func:`on_clear`.
"""

from __future__ import annotations

import logging
import weakref
from typing import Any, Callable, List

_datasets: "weakref.WeakSet[Any]" = weakref.WeakSet()
_clearers: List[Callable[[], None]] = []


def track(dataset: Any) -> None:
    """Registers a dataset whose cached results clear_cache() drops."""
    _datasets.add(dataset)


def on_clear(function: Callable[[], None]) -> None:
    """Registers another cache's clearing function (called by clear_cache(), in order)."""
    _clearers.append(function)


def clear_cache() -> None:
    """Clears every in-memory cache of tacocore (as tacoreader's ``clear_cache``): cached row
    counts and result tables of open datasets, and any cache registered with on_clear()."""
    datasets = list(_datasets)
    for dataset in datasets:
        dataset._drop_cached()
    logging.getLogger("tacocore").debug("clear_cache: %d open dataset(s)", len(datasets))
    for function in _clearers:
        function()
