"""tacotoolbox.sample.extensions.tacotiff under tacocore: ``Header`` (``TACOTIFFHeader``)."""

from ..._tacotiff import Header, TACOTIFFHeader

__all__ = ["Header", "TACOTIFFHeader"]
