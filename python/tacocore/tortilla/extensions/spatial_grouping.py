"""tacotoolbox.tortilla.extensions.spatial_grouping under tacocore: ``SpatialGrouping``,
implemented in tacocore._tortilla_extensions."""

from ..._tortilla_extensions import SpatialGrouping, morton_code

__all__ = ["SpatialGrouping", "morton_code"]
