"""tacotoolbox.datamodel.taco under tacocore: the COLLECTION models and the TACO-level
extensions."""

from .._collection_models import Curator, Extent, Provider
from .._extensions import (SUPPORTED_SENSORS, LabelClass, Labels, OpticalData, Publication, Publications,
                           SpectralBand, SplitStrategy, SplitStrategyType)

__all__ = ["Extent", "Provider", "Curator", "LabelClass", "Labels", "SUPPORTED_SENSORS", "OpticalData",
           "SpectralBand", "Publication", "Publications", "SplitStrategy", "SplitStrategyType"]
