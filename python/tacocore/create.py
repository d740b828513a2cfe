"""tacotoolbox's ``tacotoolbox.create`` layout: ``from tacocore.create import create``.

``tacocore.create`` itself stays the function: the package imports this module before binding
the name, as tacotoolbox does."""

from ._toolbox import create

__all__ = ["create"]
