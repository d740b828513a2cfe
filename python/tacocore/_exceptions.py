"""tacoreader's exception layout: ``from tacocore._exceptions import TacoError, ...``.

The classes are created in the extension (so C++ errors arrive as them); this module gives them
the module path tacoreader users import from (``tacoreader._exceptions``) and adds
``TacoBackendError``, the one error that belongs to the Python layer alone. All of them are also
importable from ``tacocore`` itself.

Hierarchy (as tacoreader 2.4, plus ``TacoPitError`` under ``TacoSchemaError``)::

    TacoError
    ├── TacoFormatError       not a valid TACO container (bad ZIP, missing COLLECTION.json, v1 file)
    ├── TacoSchemaError       incompatible or invalid schema (PITSchema, concat); also a ValueError
    │   └── TacoPitError      the sample tree breaks PIT-1 or PIT-2 (tacocore only)
    ├── TacoIOError           reading bytes failed (missing file, permission)
    ├── TacoQueryError        bad SQL, unknown level or column, invalid filter
    ├── TacoNavigationError   read(key) with a position or id that does not exist
    ├── TacoBackendError      unknown or unavailable DataFrame backend
    └── TacoMemoryError       out of memory (also a MemoryError)
    TacoPathNotFoundError     load() of a missing local path: both TacoIOError and TacoFormatError
"""

from ._core import (
    TacoError,
    TacoFormatError,
    TacoIOError,
    TacoMemoryError,
    TacoNavigationError,
    TacoPitError,
    TacoQueryError,
    TacoSchemaError,
)


from . import _core
from ._native_errors import guard_module

# Argument errors of every native function in Python's words, not nanobind's signature listing.
guard_module(_core)


class TacoBackendError(TacoError):
    """DataFrame backend error: unknown backend name, or its package is not installed."""


class TacoSampleFileError(TacoIOError, ValueError):
    """A Sample's file cannot be used (missing, not a regular file, unreadable). A TacoIOError
    (what it is) and also a ValueError, which tacotoolbox's Sample raises for it (pydantic's
    validation), so ``except ValueError`` in a script written for tacotoolbox still catches it."""


class TacoPathNotFoundError(TacoIOError, TacoFormatError, FileNotFoundError):
    """A local path that does not exist: ``load()``'s, or an input of ``create_tacocat`` /
    ``create_tacollection``. A TacoIOError (what it is), a TacoFormatError, which tacoreader
    raises for a missing directory ("COLLECTION.json not found"), and a FileNotFoundError, which
    tacotoolbox's collection functions raise for a missing part, so handlers written for any of
    them catch it."""


__all__ = [
    "TacoError",
    "TacoFormatError",
    "TacoSchemaError",
    "TacoPitError",
    "TacoIOError",
    "TacoQueryError",
    "TacoNavigationError",
    "TacoMemoryError",
    "TacoBackendError",
    "TacoSampleFileError",
    "TacoPathNotFoundError",
]
