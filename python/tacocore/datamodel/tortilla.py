"""tacotoolbox.datamodel.tortilla under tacocore: ``MajorTOM``. (tacotoolbox's ``GeoEnrich``
reads Google Earth Engine and is not provided.)"""

from .._tortilla_extensions import MajorTOM

__all__ = ["MajorTOM"]
