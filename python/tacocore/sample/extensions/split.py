"""tacotoolbox.sample.extensions.split under tacocore: ``Split``, implemented in tacocore._extensions."""

from ..._extensions import Split, SampleExtension

__all__ = ["Split", "SampleExtension"]
