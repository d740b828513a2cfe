"""tacotoolbox.datamodel.sample under tacocore: the sample extensions. (tacotoolbox's
``TACOTIFFHeader`` needs its ``tacotiff`` package and is not provided.)"""

from .._extensions import ISTAC, STAC, Scaling, Split
from .._geostats import GeotiffStats

__all__ = ["GeotiffStats", "ISTAC", "Scaling", "Split", "STAC"]
