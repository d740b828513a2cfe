"""tacotoolbox.tacocat under tacocore: ``create_tacocat`` and the ``create_tacollection`` it
imports (both implemented in tacocore._collection)."""

from ._collection import create_tacocat, create_tacollection

__all__ = ["create_tacocat", "create_tacollection"]
