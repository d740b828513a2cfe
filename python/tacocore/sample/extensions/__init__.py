"""Sample extensions under tacotoolbox's module names (stac, istac, scaling, split, geotiff_stats,
tacotiff)."""
