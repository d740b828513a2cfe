"""tacotoolbox.taco.extensions.opticaldata_utils under tacocore: the sensor band tables, kept as
data in tacocore/data/sensor_bands.json (copied from tacotoolbox 0.26.9)."""

from ..._extensions import get_sensor_bands

__all__ = ["get_sensor_bands"]
