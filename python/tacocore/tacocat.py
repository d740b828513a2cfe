"""tacotoolbox.tacocat under tacocore: ``create_tacocat`` (implemented in tacocore._collection)."""

from ._collection import create_tacocat

__all__ = ["create_tacocat"]
