"""tacoreader's module layout: ``from tacocore.schema import PITSchema``."""

from ._pit_schema import PITSchema

__all__ = ["PITSchema"]
