"""tacotoolbox.datamodel.sample under tacocore: the sample extensions."""

from .._extensions import ISTAC, STAC, Scaling, Split
from .._geostats import GeotiffStats
from .._tacotiff import TACOTIFFHeader

__all__ = ["GeotiffStats", "ISTAC", "Scaling", "Split", "STAC", "TACOTIFFHeader"]
