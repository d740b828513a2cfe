"""tacotoolbox's ``TACOTIFFHeader`` sample extension (``tacotoolbox.sample.extensions.tacotiff.
Header``): the ``taco:header`` column, the binary header the tacotiff GDAL driver reads a tiled
GeoTIFF from without parsing its IFD. tacotoolbox computes it with the ``tacotiff`` package (and
tifffile); tacocore's core reads the TIFF's first IFD itself (src/raster/tacotiff_header.cpp) and
packs the same bytes.
"""

from __future__ import annotations

import os
from typing import Any

from . import _core

_COLUMN = "taco:header"
_DESCRIPTION = "Binary TACOTIFF header (35 bytes + tile counts) for fast reading without IFD parsing"


class TACOTIFFHeader:
    """The ``taco:header`` of a FILE sample holding a tiled TIFF (a 1-row pyarrow Table when
    called on a sample, as tacotoolbox's extension returns; ``Sample.extend_with`` calls it).
    TacoSchemaError naming the sample for a TIFF that is not tiled or lacks BitsPerSample,
    SampleFormat or Predictor, and for a sample that is not a file on disk."""

    def get_schema(self) -> Any:
        """``taco:header: binary``."""
        import pyarrow as pa
        return pa.schema([pa.field(_COLUMN, pa.binary())])

    def get_field_descriptions(self) -> dict:
        """``{"taco:header": description}``, tacotoolbox's text."""
        return {_COLUMN: _DESCRIPTION}

    def model_dump(self) -> dict:
        """No options (tacotoolbox's model has no fields)."""
        return {}

    def compute(self, sample: Any) -> bytes:
        """The header bytes of ``sample`` (tacocore's Sample, or tacotoolbox's with a ``path``)."""
        path = getattr(sample, "path", None)
        sample_id = getattr(sample, "id", "?")
        # a FOLDER's path is its Tortilla, an in-memory sample's None
        if not isinstance(path, (str, os.PathLike)) or getattr(sample, "type", "FILE") != "FILE":
            raise _core.TacoSchemaError(
                f"sample '{sample_id}': TACOTIFFHeader needs a FILE sample with a path on disk")
        return _core.tacotiff_header(os.fspath(path), f"sample '{sample_id}' ({os.fspath(path)})")

    def _compute(self, sample: Any) -> Any:
        import pyarrow as pa
        return pa.Table.from_pydict({_COLUMN: [self.compute(sample)]}, schema=self.get_schema())

    def __call__(self, sample: Any) -> Any:
        """A 1-row pyarrow Table with ``taco:header`` of ``sample``."""
        return self._compute(sample)

    def __repr__(self) -> str:
        return "TACOTIFFHeader()"


Header = TACOTIFFHeader  # its name in tacotoolbox.sample.extensions.tacotiff
