"""``PITSchema``: the tree structure of a dataset (``taco:pit_schema``), as tacoreader's class.

Validates its input on construction (TacoSchemaError, with tacoreader's messages), and checks a
little more than tacoreader: counts ``n`` must be non-negative integers and ``hierarchy`` a dict
of lists of dicts. ``to_dict``, ``with_n``, ``max_depth`` and ``is_compatible`` behave as the
reference's. Keys other than ``root`` and ``hierarchy`` (newer writers add ``shape``) are accepted
and left out of ``to_dict()``, as the reference does.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List

from ._exceptions import TacoSchemaError

VALID_SAMPLE_TYPES = ("FILE", "FOLDER")


def _check_count(where: str, n: Any) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise TacoSchemaError(f"{where}: invalid count n={n!r}\nCounts must be non-negative integers")


class PITSchema:
    """PIT schema validator and compatibility checker.

    ``PITSchema({"root": {"n": 3, "type": "FOLDER"}, "hierarchy": {"1": [{"n": 9,
    "type": ["FILE", "FILE", "FILE"], "id": ["red", "green", "blue"]}]}})``

    Two datasets can be concatenated only if their schemas are structurally identical (the
    counts ``n`` are ignored): :meth:`is_compatible`.
    """

    def __init__(self, schema_dict: Dict[str, Any]) -> None:
        if not isinstance(schema_dict, dict):
            raise TacoSchemaError(f"PIT schema must be a dict, got {type(schema_dict).__name__}")
        for key in ("root", "hierarchy"):
            if key not in schema_dict:
                raise TacoSchemaError(f"PIT schema is missing required key '{key}'")
        self.root = schema_dict["root"]
        self.hierarchy = schema_dict["hierarchy"]
        self._validate()

    def _validate_pattern(self, depth_str: str, pattern_idx: int, pattern: Any) -> None:
        where = f"Depth {depth_str}, pattern {pattern_idx}"
        if not isinstance(pattern, dict) or "type" not in pattern or "id" not in pattern:
            raise TacoSchemaError(f"{where}: missing required field\nPatterns must have both 'type' and 'id'")
        types, ids = pattern["type"], pattern["id"]
        if not isinstance(types, list) or not isinstance(ids, list):
            raise TacoSchemaError(f"{where}: 'type' and 'id' must be lists")
        if not types:
            raise TacoSchemaError(f"{where}: type array empty")
        if not ids:
            raise TacoSchemaError(f"{where}: id array empty")
        if len(types) != len(ids):
            raise TacoSchemaError(f"{where}: type and id arrays differ\nType: {len(types)}, ID: {len(ids)}")
        for child_type in types:
            if child_type not in VALID_SAMPLE_TYPES:
                raise TacoSchemaError(f"{where}: invalid type '{child_type}'")
        if "n" in pattern:
            _check_count(where, pattern["n"])

    def _validate(self) -> None:
        if not isinstance(self.root, dict) or self.root.get("type") not in VALID_SAMPLE_TYPES:
            got = self.root.get("type") if isinstance(self.root, dict) else self.root
            raise TacoSchemaError(f"Invalid root type: {got}\nMust be 'FILE' or 'FOLDER'")
        if "n" in self.root:
            _check_count("root", self.root["n"])
        if not isinstance(self.hierarchy, dict):
            raise TacoSchemaError(f"hierarchy must be a dict of depth -> patterns, got {type(self.hierarchy).__name__}")
        for depth_str, patterns in self.hierarchy.items():
            if not isinstance(depth_str, str) or not depth_str.isdigit():
                raise TacoSchemaError(f"Invalid depth key: {depth_str}\nDepth keys must be numeric strings")
            if not isinstance(patterns, list):
                raise TacoSchemaError(f"Depth {depth_str}: patterns must be a list")
            for i, pattern in enumerate(patterns):
                self._validate_pattern(depth_str, i, pattern)

    def is_compatible(self, other: "PITSchema") -> bool:
        """True when ``other`` has the same structure: root type, depths, and per depth the same
        patterns (child types and ids, in order). Counts are ignored."""
        if not isinstance(other, PITSchema):
            raise TypeError(f"is_compatible(): expected a PITSchema, not {type(other).__name__}")
        if self.root["type"] != other.root["type"]:
            return False
        if set(self.hierarchy) != set(other.hierarchy):
            return False
        for depth, mine in self.hierarchy.items():
            theirs = other.hierarchy[depth]
            if len(mine) != len(theirs):
                return False
            for a, b in zip(mine, theirs):
                if a["type"] != b["type"] or a["id"] != b["id"]:
                    return False
        return True

    def to_dict(self) -> Dict[str, Any]:
        """{"root": ..., "hierarchy": ...} as a deep copy (as tacoreader's, other keys of the input,
        such as ``shape``, are left out; they stay in ``dataset.collection["taco:pit_schema"]``)."""
        return copy.deepcopy({"root": self.root, "hierarchy": self.hierarchy})

    def with_n(self, new_n: int) -> "PITSchema":
        """A new schema with root count ``new_n``; the original is unchanged."""
        doc = self.to_dict()
        doc["root"]["n"] = new_n
        return PITSchema(doc)

    def _scaled(self, kept: int) -> "PITSchema":
        """The schema of a view keeping ``kept`` of the root samples: every count scaled by
        kept / root n (exact for a PIT, where every root sample has the same subtree)."""
        doc = self.to_dict()
        total = doc["root"].get("n") or 0
        doc["root"]["n"] = kept
        for patterns in doc["hierarchy"].values():
            for p in patterns:
                if "n" in p:
                    p["n"] = (p["n"] * kept) // total if total else 0
        return PITSchema(doc)

    def max_depth(self) -> int:
        """Deepest hierarchy level; the root level is not counted (2 means levels 0, 1, 2)."""
        return max((int(k) for k in self.hierarchy), default=0)

    def __repr__(self) -> str:
        return f"PITSchema(root={self.root['type']}, max_depth={self.max_depth()})"


__all__: List[str] = ["PITSchema"]
