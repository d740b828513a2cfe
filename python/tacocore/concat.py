"""tacoreader's ``tacoreader.concat`` layout: ``from tacocore.concat import concat``.

``tacocore.concat`` itself stays the function: the package imports this module before binding
the name, as tacoreader does."""

from ._reader import concat

__all__ = ["concat"]
