"""tacotoolbox.taco.extensions.opticaldata under tacocore (implemented in tacocore._extensions)."""

from ..._extensions import SUPPORTED_SENSORS, OpticalData, SpectralBand, TacoExtension

__all__ = ["OpticalData", "SpectralBand", "SUPPORTED_SENSORS", "TacoExtension"]
