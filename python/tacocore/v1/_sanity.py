"""tacoreader.v1's sanity_check(): every sample handed to a user's read function."""

from __future__ import annotations

import logging
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, List, Optional, Union

import pandas as pd

from ._frame import TortillaDataFrame

_log = logging.getLogger("tacocore")


def sanity_check(sample_metadata: pd.DataFrame, read_function: Callable[[Union[str, bytes]], None],
                 batch_size: int = 400, max_workers: Optional[int] = 4, **kwargs: Any) -> List[str]:
    """Calls ``read_function`` on every sample of ``sample_metadata`` (a frame from
    ``tacocore.v1.load``): the GDAL path of a raster, the bytes of a ``BYTES`` sample; nested
    tortillas are walked. Returns the ids of the samples for which reading or ``read_function``
    raised (nested ones as ``parent_id`` + ``child_id``, as tacoreader.v1 names them).

    ``max_workers`` processes check each batch of ``batch_size`` rows (``None``: this process);
    ``read_function`` must then be picklable (a module-level function, not a lambda). Unlike
    tacoreader.v1, a sample whose bytes cannot be read counts as failed instead of stopping the
    check, and nothing is configured on the root logger (messages go to the ``tacocore`` logger).
    """
    super_name = kwargs.get("super_name", "")
    if batch_size < 1:
        raise ValueError(f"sanity_check: batch_size must be at least 1, got {batch_size}")
    if super_name == "":
        _log.info("The sanity check is starting for %d items.", len(sample_metadata))
    failed: List[str] = []
    for start in range(0, len(sample_metadata), batch_size):
        batch = TortillaDataFrame(sample_metadata.iloc[start:start + batch_size])
        failed += sanity_check_batch(batch, read_function, max_workers=max_workers, super_name=super_name)
    if failed:
        _log.warning("Sanity check failed for %d items.", len(failed))
    elif super_name == "":
        _log.info("All items passed the sanity check.")
    return failed


def sanity_check_batch(sample_metadata: pd.DataFrame, read_function: Callable[[Union[str, bytes]], None],
                       max_workers: Optional[int] = 4, **kwargs: Any) -> List[str]:
    """The failed ids of one batch (see sanity_check)."""
    super_name = kwargs.get("super_name", "")
    sample_metadata = _as_frame(sample_metadata)  # once per batch, not per row
    if max_workers is None:
        results = [process_entry(i, sample_metadata, read_function, super_name)
                   for i in range(len(sample_metadata))]
    else:
        with ProcessPoolExecutor(max_workers=max_workers) as pool:
            futures = [pool.submit(process_entry, i, sample_metadata, read_function, super_name)
                       for i in range(len(sample_metadata))]
            results = [f.result() for f in as_completed(futures)]
    failed: List[str] = []
    for r in results:
        if isinstance(r, list):
            failed += r
        elif r:
            failed.append(r)
    return failed


def _as_frame(frame: pd.DataFrame) -> TortillaDataFrame:
    """``frame`` as a TortillaDataFrame, converted only when it is not one (the constructor
    reorders, hence copies, the columns)."""
    return frame if isinstance(frame, TortillaDataFrame) else TortillaDataFrame(frame)


def process_entry(idx: int, sample_metadata: pd.DataFrame, read_function: Callable[[Any], None],
                  super_name: str) -> Union[str, List[str], None]:
    """Checks one row: None when it passes, its id when it fails, the failed ids below it for a
    nested tortilla."""
    sample_id = super_name + str(sample_metadata.iloc[idx]["tortilla:id"])
    try:
        result = _as_frame(sample_metadata).read(idx)
        if isinstance(result, (str, bytes)):
            read_function(result)
            return None
        if isinstance(result, pd.DataFrame):
            return sanity_check(result, read_function, max_workers=None, super_name=sample_id)
        raise ValueError(f"Unsupported return type for entry {sample_id}.")
    except Exception:
        return sample_id
