"""tacoreader's module layout: ``from tacocore.schema import PITSchema`` (and the typed shapes of
the dictionary it takes, for type hints)."""

from typing import List, Literal, TypedDict

from ._exceptions import TacoSchemaError
from ._pit_schema import PITSchema

SAMPLE_TYPE_FILE = "FILE"
SAMPLE_TYPE_FOLDER = "FOLDER"
VALID_SAMPLE_TYPES = frozenset({SAMPLE_TYPE_FILE, SAMPLE_TYPE_FOLDER})


class PITRootLevel(TypedDict):
    """The root level of a PIT schema: how many samples, and their type."""

    n: int
    type: Literal["FOLDER", "FILE"]


class PITPattern(TypedDict):
    """The children every FOLDER of one level holds: their count, types and ids."""

    n: int
    type: List[str]
    id: List[str]


class PITSchemaDict(TypedDict):
    """A whole PIT schema (``taco:pit_schema`` of COLLECTION.json)."""

    root: PITRootLevel
    hierarchy: dict


__all__ = ["PITSchema", "PITSchemaDict", "PITRootLevel", "PITPattern", "TacoSchemaError",
           "SAMPLE_TYPE_FILE", "SAMPLE_TYPE_FOLDER", "VALID_SAMPLE_TYPES"]
