"""tacozip's exceptions (``tacozip.exceptions``), placed in tacocore's hierarchy.

``TacozipError`` keeps tacozip's constructor (``code``, optional message) and its text
("tacozip error -1: ..."), so handlers written for tacozip work unchanged; tacocore's messages
name the file and what was expected instead of the code's generic wording. The subclasses are
what tacocore raises: an I/O failure is also a ``TacoIOError``, a malformed header or a refused
argument also a ``TacoFormatError``, so tacocore's own handlers catch them too.
"""

from __future__ import annotations

from .._core import TacoError, TacoFormatError, TacoIOError
from .config import ERROR_MESSAGES


class TacozipError(TacoError):
    """An error of a tacozip operation; ``code`` is tacozip's (``TACOZ_ERR_*``)."""

    def __init__(self, code: int, message: str | None = None):
        self.code = code
        if message is None:
            message = ERROR_MESSAGES.get(code, f"Unknown error code: {code}")
        self.message = message  # without the "tacozip error N: " prefix
        super().__init__(f"tacozip error {code}: {message}")


class TacozipIOError(TacozipError, TacoIOError):
    """Reading a source or the archive, or writing the archive, failed (``TACOZ_ERR_IO``)."""


class TacozipValidationError(TacozipError, TacoFormatError):
    """Header bytes that are not a TACO_HEADER (``TACOZ_ERR_INVALID_HEADER``), or arguments
    tacozip's C library refuses (``TACOZ_ERR_PARAM``)."""


class TacozipLibraryError(TacozipError):
    """tacozip raises it when its native library is missing a function; tacocore's native core
    is one extension module, so ``self_check`` raises it only when that cannot be imported."""
