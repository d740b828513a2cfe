"""tacotoolbox's module path: ``from tacotoolbox.sample.extensions.geotiff_stats import GeotiffStats``
keeps working with tacocore installed under that name."""

from tacocore._geostats import GeotiffStats

__all__ = ["GeotiffStats"]
