"""tacoreader.v1's compile(): a subset of v1 samples written as a new Tortilla 0.5 file.

The FOOTER is built exactly as tacoreader.v1 builds it (the same pandas steps and pyarrow
options), so the same frame compiled by either tool gives the same bytes; the samples' bytes are
copied by tacocore's core (range to range, local or remote), into a staged file renamed into
place when complete.
"""

from __future__ import annotations

import pathlib
from typing import Any, Union

import pandas as pd

from .. import _core
from ._frame import _split_subfile

_UNITS = {"KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12, "PB": 10**15}
_NEEDED = ("tortilla:offset", "tortilla:length", "internal:subfile")


def human2bytes(size_str: str) -> int:
    """``"100MB"`` -> 100000000 (KB, MB, GB, TB, PB; powers of 1000)."""
    text = str(size_str).strip().upper()
    for unit, multiplier in _UNITS.items():
        if text.endswith(unit):
            try:
                return int(float(text[: -len(unit)].strip()) * multiplier)
            except ValueError:
                raise ValueError(f"Invalid size value in '{text}'.") from None
    raise ValueError(f"Unsupported unit in '{text}'. Supported units are: {', '.join(_UNITS)}.")


def _footer_bytes(frame: pd.DataFrame) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    footer = frame.drop(columns=["geometry", "internal:subfile", "tortilla:offset"], errors="ignore")
    footer = footer.rename(columns={"tortilla:new_offset": "tortilla:offset"})
    with pa.BufferOutputStream() as sink:
        pq.write_table(pa.Table.from_pandas(footer), sink, compression="zstd", compression_level=22,
                       use_dictionary=False)
        return sink.getvalue().to_pybytes()


def compile(dataframe: pd.DataFrame, output: Union[str, pathlib.Path], chunk_size_iter: str = "100MB",
            nworkers: int = 4, overwrite: bool = True, quiet: bool = False,
            **storage_options: Any) -> pathlib.Path:
    """Writes the samples of ``dataframe`` (rows of a frame from ``tacocore.v1.load``, any
    subset, from one or several files) as the Tortilla 0.5 file ``output`` and returns its path.

    As tacoreader.v1: samples ordered by ``tortilla:offset``, packed from byte 200, the FOOTER
    holding every column but ``geometry``/``internal:subfile`` with the new offsets; a nested
    tortilla (``TORTILLA``) is copied whole. Unlike it: nothing is left behind on error, an
    existing ``output`` is replaced only when ``overwrite`` and only if it is a v1 file (else
    TacoIOError), and an empty frame or one without the v1 columns is a ValueError.
    ``chunk_size_iter`` is checked but the copy needs no chunks of its own; ``nworkers``,
    ``quiet`` (there is no progress bar) and ``storage_options`` are accepted and not used.
    """
    del nworkers, quiet, storage_options
    human2bytes(chunk_size_iter)
    missing = [c for c in _NEEDED if c not in dataframe.columns]
    if missing:
        raise ValueError(f"compile: the frame lacks the v1 column(s) {missing}; pass rows of a "
                         "frame from tacocore.v1.load")
    if len(dataframe) == 0:
        raise ValueError(f"compile: the frame has no rows: nothing to write to {output}")
    output = pathlib.Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)

    frame = dataframe.sort_values("tortilla:offset").reset_index(drop=True)
    frame.loc[:, "tortilla:new_offset"] = frame["tortilla:length"].shift(1, fill_value=0).cumsum() + 200
    footer = _footer_bytes(frame)

    subfiles = frame["internal:subfile"].astype(str)
    if not subfiles.str.match(r"/vsisubfile/\d+_\d+,.").all():
        for subfile in subfiles:
            _split_subfile(subfile)  # raises, naming the first value that is not such a path
    sources = subfiles.str.partition(",")[2]
    pieces = list(zip(sources.tolist(), frame["tortilla:offset"].astype("int64").tolist(),
                      frame["tortilla:length"].astype("int64").tolist()))
    _core.write_tortilla(output, pieces, footer, bool(overwrite))
    return output
