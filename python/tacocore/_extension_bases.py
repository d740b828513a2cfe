"""tacotoolbox's base classes for a user's own extensions: ``SampleExtension``,
``TortillaExtension`` and ``TacoExtension``, pydantic models as tacotoolbox's are, so that an
extension written against tacotoolbox (fields declared as pydantic fields, ``get_schema()``,
``get_field_descriptions()``, ``_compute(target)`` returning a pyarrow Table) runs unchanged
with tacocore installed under that name. ``extend_with`` calls it and takes the Table; the
descriptions go into taco:field_schema.

pydantic is needed for these classes only (tacocore does not depend on it); tacocore's own
extensions (STAC, MajorTOM, ...) are plain classes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

try:
    import pydantic
except ImportError as error:  # pragma: no cover - pydantic is installed wherever tests run
    raise ImportError("tacocore's SampleExtension / TortillaExtension / TacoExtension base classes are "
                      "pydantic models, as tacotoolbox's: pip install pydantic") from error


class _Computed(ABC, pydantic.BaseModel):
    """An extension computed from what it is added to: ``ext(target)`` gives its pyarrow Table."""

    @abstractmethod
    def get_schema(self) -> Any:
        """The pyarrow Schema of the columns (or keys) this extension adds."""

    @abstractmethod
    def get_field_descriptions(self) -> dict:
        """{column: description} for taco:field_schema."""

    @abstractmethod
    def _compute(self, target: Any) -> Any:
        """The extension's pyarrow Table for `target`."""

    def __call__(self, target: Any) -> Any:
        return self._compute(target)


class _Nullable(_Computed):
    """``schema_only=True`` (tacotoolbox's ``return_none``) gives one row of nulls, typed."""

    schema_only: bool = pydantic.Field(False, description="If True, return None values while preserving schema",
                                       validation_alias=pydantic.AliasChoices("return_none", "schema_only"))

    def __call__(self, target: Any) -> Any:
        if self.schema_only:
            import pyarrow as pa
            schema = self.get_schema()
            return pa.Table.from_pydict({name: [None] for name in schema.names}, schema=schema)
        return self._compute(target)


class SampleExtension(_Nullable):
    """Base of a sample extension: ``_compute(sample)`` returns a 1-row pyarrow Table."""


class TortillaExtension(_Nullable):
    """Base of a tortilla extension: ``_compute(tortilla)`` returns a pyarrow Table with one row
    per sample (``tortilla._metadata_table`` holds their metadata)."""


class TacoExtension(_Computed):
    """Base of a TACO-level extension: ``_compute(taco)`` returns a 1-row pyarrow Table whose
    columns become COLLECTION.json keys."""
