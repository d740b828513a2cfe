"""tacocore: TACO 2.0 datasets for Earth Observation machine learning, on a native core.

Reading mirrors tacoreader (``load``, ``concat``, ``TacoDataset``, ``TacoDataFrame``, ``.sql``, ``.data``,
``.read``) and creating mirrors tacotoolbox (``Sample``, ``Tortilla``, ``Taco``, ``create``), so
switching is a change of import. Results are pyarrow tables; sample pixels decode to numpy.
"""

from ._core import (
    TacoError,
    TacoFormatError,
    TacoIOError,
    TacoNavigationError,
    TacoPitError,
    TacoQueryError,
    TacoSchemaError,
)
from ._reader import TacoDataFrame, TacoDataset, clear_cache, concat, load, validate
from ._toolbox import Sample, Taco, Tortilla, create
from ._collection import create_tacocat, create_tacollection
from . import datamodel  # tacotoolbox's layout: tacocore.datamodel.Sample is tacocore.Sample

# The exceptions are created in the extension; users import (and tracebacks show) them here.
for _exc in (TacoError, TacoFormatError, TacoSchemaError, TacoPitError, TacoQueryError, TacoIOError,
             TacoNavigationError):
    _exc.__module__ = __name__
del _exc

__version__ = "0.1.0"

__all__ = [
    "load",
    "clear_cache",
    "concat",
    "validate",
    "TacoDataset",
    "TacoDataFrame",
    "Sample",
    "Tortilla",
    "Taco",
    "create",
    "create_tacocat",
    "create_tacollection",
    "datamodel",
    "TacoError",
    "TacoFormatError",
    "TacoSchemaError",
    "TacoPitError",
    "TacoQueryError",
    "TacoIOError",
    "TacoNavigationError",
    "__version__",
]
