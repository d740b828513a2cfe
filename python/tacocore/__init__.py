"""tacocore: TACO 2.0 datasets for Earth Observation machine learning, on a native core.

Reading mirrors tacoreader 2.4 (``load``, ``concat``, ``TacoDataset``, ``TacoDataFrame``, ``.sql``,
``.data``, ``.read``, ``use``/``get_backend``, ``verbose``, ``clear_cache``, the flat views
``l0``..``lN``, ``flatten``/``sort``/``limit``) and creating mirrors tacotoolbox (``Sample``,
``Tortilla``, ``Taco``, ``create``), so switching is a change of import. Results are pyarrow
tables (or pandas / polars with ``use()``); sample pixels decode to numpy.
"""

import typing as _typing

from ._exceptions import (
    TacoBackendError,
    TacoError,
    TacoFormatError,
    TacoIOError,
    TacoMemoryError,
    TacoNavigationError,
    TacoPathNotFoundError,
    TacoPitError,
    TacoQueryError,
    TacoSampleFileError,
    TacoSchemaError,
)
from ._backends import (
    TacoDataFrame,
    TacoDataFrameArrow,
    TacoDataFramePandas,
    TacoDataFramePolars,
    get_backend,
    use,
)
from ._cache import clear_cache
from ._logging import disable_logging, setup_basic_logging, verbose
from ._pit_schema import PITSchema
from . import concat as _concat_module  # noqa: F401  (first: the name below is the function)
from ._reader import TacoDataset, concat, load, validate
from . import create as _create_module  # noqa: F401  (first: the name below is the function)
from ._toolbox import Sample, Taco, Tortilla, create
from ._geostats import GeotiffStats, add_geotiff_stats
from ._collection import create_tacocat, create_tacollection
from ._convert import convert, export, folder2zip, generate_html, generate_markdown, zip2folder
from ._legacy import is_legacy_v1, migrate
from ._catalog import export_croissant, export_datacite, export_stac
from . import datamodel  # tacotoolbox's layout: tacocore.datamodel.Sample is tacocore.Sample
# tacoreader's layout (tacocore.dataset.TacoDataset, tacocore.dataframe.pandas...). Its v1 API is
# tacocore.v1, imported on demand as tacoreader.v1 is (it needs pandas).
from . import dataframe, dataset, loader, nav

#: tacoreader's names for the backends' type and the default one.
DataFrameBackend = _typing.Literal["pyarrow", "polars", "pandas"]
DataFrameBackend.__doc__ = 'The names use() and load(backend=) take: "pyarrow", "polars", "pandas".'
DEFAULT_DATAFRAME_BACKEND = "pyarrow"
from . import schema  # tacoreader's layout: tacocore.schema.PITSchema
from . import sample, taco, tortilla  # tacotoolbox's layout: tacocore.sample.extensions.stac.STAC, ...
from ._extensions import (ISTAC, STAC, LabelClass, Labels, OpticalData, Publication, Publications, Scaling,
                          SpectralBand, Split, SplitStrategy)
from ._tortilla_extensions import MajorTOM, SpatialGrouping
from ._spatial import register_installed_extension as _register_spatial

_register_spatial()  # ST_* in sql() when duckdb-ext-spatial is installed

# The exceptions are created in the extension; users import (and tracebacks show) them here.
for _exc in (TacoError, TacoFormatError, TacoSchemaError, TacoPitError, TacoQueryError, TacoIOError,
             TacoNavigationError, TacoBackendError, TacoPathNotFoundError, TacoMemoryError,
             TacoSampleFileError):
    _exc.__module__ = __name__
del _exc

__version__ = "0.1.0"

__all__ = [
    "load",
    "concat",
    "validate",
    "use",
    "get_backend",
    "verbose",
    "setup_basic_logging",  # tacotoolbox's names for the same switch
    "disable_logging",
    "clear_cache",
    "TacoDataset",
    "DataFrameBackend",
    "DEFAULT_DATAFRAME_BACKEND",
    "TacoDataFrame",
    "TacoDataFrameArrow",
    "TacoDataFramePandas",
    "TacoDataFramePolars",
    "PITSchema",
    "Sample",
    "Tortilla",
    "Taco",
    "create",
    "GeotiffStats",
    "add_geotiff_stats",
    "create_tacocat",
    "create_tacollection",
    "export",
    "convert",
    "is_legacy_v1",
    "migrate",
    "zip2folder",
    "folder2zip",
    "generate_markdown",
    "generate_html",
    "export_stac",
    "export_croissant",
    "export_datacite",
    "datamodel",
    "schema",
    "STAC", "ISTAC", "Scaling", "Split",
    "OpticalData", "SpectralBand", "Labels", "LabelClass", "Publications", "Publication", "SplitStrategy",
    "MajorTOM", "SpatialGrouping",
    "TacoError",
    "TacoFormatError",
    "TacoSchemaError",
    "TacoPitError",
    "TacoQueryError",
    "TacoIOError",
    "TacoNavigationError",
    "TacoMemoryError",
    "TacoBackendError",
    "TacoPathNotFoundError",
    "TacoSampleFileError",
    "__version__",
]
