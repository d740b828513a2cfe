"""tacotoolbox.sample.extensions.istac under tacocore: ``ISTAC``, implemented in tacocore._extensions."""

from ..._extensions import ISTAC, SampleExtension

__all__ = ["ISTAC", "SampleExtension"]
