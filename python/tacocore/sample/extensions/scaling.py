"""tacotoolbox.sample.extensions.scaling under tacocore: ``Scaling``, implemented in tacocore._extensions."""

from ..._extensions import Scaling, SampleExtension

__all__ = ["Scaling", "SampleExtension"]
