"""tacotoolbox.sample.extensions.stac under tacocore: ``STAC``, implemented in tacocore._extensions."""

from ..._extensions import STAC, SampleExtension

__all__ = ["STAC", "SampleExtension"]
