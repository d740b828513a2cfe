"""tacotoolbox.sample.datamodel under tacocore: ``Sample`` and the ``SampleExtension`` base class
for your own extensions (a pydantic model, as tacotoolbox's: it needs pydantic, imported when
the name is first used)."""

from typing import Any

from .._toolbox import Sample

__all__ = ["Sample", "SampleExtension"]


def __getattr__(name: str) -> Any:
    if name == "SampleExtension":
        from .._extension_bases import SampleExtension
        return SampleExtension
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
