"""tacotoolbox.sample.datamodel under tacocore: ``Sample`` and the ``SampleExtension`` base class
for your own extensions (a pydantic model, as tacotoolbox's; needs pydantic)."""

from .._extension_bases import SampleExtension
from .._toolbox import Sample

__all__ = ["Sample", "SampleExtension"]
