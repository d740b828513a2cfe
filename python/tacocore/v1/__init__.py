"""tacoreader's v1 API on tacocore: ``import tacocore.v1 as tacoreader`` runs a script written for
tacoreader.v1 (tacoreader 0.x) over legacy v1 files, Tortilla 0.5 ``.tortilla`` and TACO 0.2
``.taco``, local or remote.

    load(file | [files] | "tacofoundation:NAME")   -> TortillaDataFrame (pandas)
    TortillaDataFrame.read(i)                       -> GDAL path, bytes, or a nested frame
    load_metadata(file)                             -> the TACO 0.2 COLLECTION as a dict
    compile(frame, output)                          -> a subset written as a new .tortilla
    sanity_check(frame, read_function)              -> ids of the samples that fail to read

Needs pandas (as tacoreader.v1 does). The differences from tacoreader.v1 are listed in
docs/USER-GUIDE.md, "Legacy v1 datasets". ``tacocore.load`` opens the same files with the TACO 2.0
surface, and ``tacocore.migrate`` rewrites them as TACO 2.0.
"""

try:
    import pandas as _pandas  # noqa: F401
except ImportError as _exc:  # pragma: no cover - pandas is in the test environment
    raise ImportError("tacocore.v1 needs pandas, as tacoreader.v1 does: pip install pandas") from _exc

from ._compile import compile, human2bytes
from ._frame import TortillaDataFrame, TortillaDataSeries, partial_load_file
from ._load import load, load_file, load_files, load_metadata
from ._sanity import sanity_check

__all__ = ["load", "load_metadata", "compile", "sanity_check", "TortillaDataFrame"]
