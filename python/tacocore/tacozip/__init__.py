"""tacozip's API on tacocore: ``import tacocore.tacozip as tacozip`` runs a script written for
tacozip (the reference's low-level writer of STORE ZIPs with a TACO_HEADER at byte 0).

    create(zip_path, src_files, arc_files=None, entries=None)   a new archive
    read_header(path | bytes)                                   -> [(offset, length), ...]
    update_header(zip_path, entries)                            the header patched in place

The bytes written are tacozip's (libzip's framing, FORMAT.md §2.2-§2.6), so its readers and
tacoreader read them; the differences, all refusals where tacozip would write a file that loses
or hides something, are listed in docs/USER-GUIDE.md, "tacozip":

- a header entry must be exactly the data (offset of the first byte, length) of one of the
  archive's entries, and the entries must be packed from the first; offsets and lengths must fit
  in 64 bits (tacozip stores whatever it is given, wrapping negative numbers);
- archive names must be unique, relative, without ``..`` parts (tacozip keeps one of two
  files given the same name and silently drops the other);
- ``create`` writes beside the target and renames when complete, and replaces only an existing
  TACO ZIP or an empty file, keeping its permissions (tacozip rewrites any file at that path).
"""

from __future__ import annotations

import operator
import os
import pathlib
from typing import List, Optional, Tuple, Union

from .. import __version__
from .. import _core
from .config import (
    TACO_HEADER_MAX_ENTRIES,
    TACO_HEADER_SIZE,
    TACOZ_ERR_EXISTS,
    TACOZ_ERR_INVALID_HEADER,
    TACOZ_ERR_IO,
    TACOZ_ERR_LIBZIP,
    TACOZ_ERR_NOT_FOUND,
    TACOZ_ERR_PARAM,
    TACOZ_ERR_TOO_LARGE,
    TACOZ_OK,
)
from .exceptions import (
    TacozipError,
    TacozipIOError,
    TacozipLibraryError,
    TacozipValidationError,
)

__tacozip_version__ = __version__

_U64_MAX = (1 << 64) - 1
Entries = List[Tuple[int, int]]


def _pairs(entries, what: str) -> list[tuple[int, int]]:
    """tacozip's (offset, length) pairs, checked: ctypes would wrap a negative number or cut one
    past 64 bits into a different offset without a word."""
    entries = list(entries)
    if len(entries) > TACO_HEADER_MAX_ENTRIES:
        raise ValueError(f"Too many entries: {len(entries)} > {TACO_HEADER_MAX_ENTRIES}")
    pairs = []
    for i, entry in enumerate(entries):
        try:
            offset, length = entry
        except (TypeError, ValueError):
            raise ValueError(f"{what}[{i}] = {entry!r}: expected an (offset, length) pair") from None
        pair = []
        for value in (offset, length):
            # numpy/pandas integers count (tacozip's ctypes takes anything with __index__).
            try:
                number = None if isinstance(value, bool) else operator.index(value)
            except TypeError:
                number = None
            if number is None:
                raise TypeError(f"{what}[{i}] = {entry!r}: offset and length must be integers, "
                                f"got {type(value).__name__}")
            if not 0 <= number <= _U64_MAX:
                raise ValueError(f"{what}[{i}] = {entry!r}: offset and length are unsigned 64-bit "
                                 "integers (0 .. 2**64 - 1)")
            pair.append(number)
        pairs.append((pair[0], pair[1]))
    return pairs


def _native(call, *args):
    """Runs a native operation, raising its I/O and format failures as tacozip's errors (with
    tacocore's message, which names the file and what was expected)."""
    try:
        return call(*args)
    except _core.TacoFormatError as exc:
        raise TacozipValidationError(TACOZ_ERR_INVALID_HEADER, str(exc)) from None
    except _core.TacoIOError as exc:
        raise TacozipIOError(TACOZ_ERR_IO, str(exc)) from None


def create(
    zip_path: Union[str, os.PathLike],
    src_files: List[Union[str, os.PathLike]],
    arc_files: List[str] | None = None,
    entries: Entries | None = None,
) -> None:
    """Writes ``zip_path``: TACO_HEADER holding ``entries`` (default: none), then each source
    file stored under its archive name (default: the resolved file's name), in order."""
    pairs = _pairs([(0, 0)] if entries is None else entries, "entries")
    sources = [os.fspath(f) for f in src_files]
    if arc_files is None:
        names = [pathlib.Path(f).resolve().name for f in sources]
    else:
        names = list(arc_files)
        if len(names) != len(sources):
            raise ValueError(f"Archive names count ({len(names)}) must match source files count "
                             f"({len(sources)})")
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise TypeError(f"arc_files[{i}] = {name!r}: archive names are str")
    for i, name in enumerate(names):
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            # A file name that is not UTF-8 comes from the OS as surrogate escapes; ZIP names
            # here are UTF-8 (tacozip raises UnicodeEncodeError, a ValueError, too).
            given = "arc_files" if arc_files is not None else f"the name of src_files[{i}]"
            raise ValueError(f"{given} {name!r}: an archive name must be valid UTF-8 text; this one "
                             "holds bytes that are not (pass arc_files with a UTF-8 name)") from None
    if not sources:
        raise TacozipValidationError(
            TACOZ_ERR_PARAM, f"no files to store in {os.fspath(zip_path)}: create needs at least one")
    # tacozip's C library (libzip) fails these with TACOZ_ERR_LIBZIP, and creates nothing.
    for src in sources:
        if os.path.isdir(src):
            raise TacozipIOError(TACOZ_ERR_LIBZIP, f"{src} is a directory; create stores files")
    parent = os.path.dirname(os.path.abspath(os.fspath(zip_path)))
    if not os.path.isdir(parent):
        raise TacozipIOError(TACOZ_ERR_LIBZIP, f"cannot create {os.fspath(zip_path)}: the directory "
                             f"{os.fsdecode(parent)} does not exist (create makes no directories)")
    _native(_core.tacozip_create, os.fspath(zip_path), list(zip(sources, names)), pairs)


def read_header(source: Union[str, os.PathLike, bytes, bytearray, memoryview]) -> Entries:
    """The (offset, length) pairs of a TACO ZIP's header, from its path or its first
    ``TACO_HEADER_SIZE`` (157) or more bytes (what a reader fetches from a remote file)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        head = bytes(source)
        if len(head) < TACO_HEADER_SIZE:
            raise ValueError(f"Buffer too small: {len(head)} < {TACO_HEADER_SIZE}")
        return _native(_core.tacozip_parse_header, head)
    path = os.fspath(source)
    if os.path.isfile(path) and os.path.getsize(path) < TACO_HEADER_SIZE:
        # tacozip reads 157 bytes: a shorter file is its I/O error (TACOZ_ERR_IO).
        raise TacozipIOError(TACOZ_ERR_IO, f"{os.fsdecode(path)}: {os.path.getsize(path)} bytes, shorter than "
                             f"a TACO_HEADER ({TACO_HEADER_SIZE} bytes)")
    return _native(_core.tacozip_read_header, path)


def update_header(zip_path: Union[str, os.PathLike], entries: Entries) -> None:
    """Replaces the header's entries in place (and its CRC in the local header and the central
    directory); no other byte of the archive changes."""
    pairs = _pairs(entries, "entries")
    try:
        _native(_core.tacozip_update_header, os.fspath(zip_path), pairs)
    except TacozipValidationError as exc:
        # A ZIP without TACO_HEADER is tacozip's "file not found in archive" (TACOZ_ERR_NOT_FOUND).
        if _first_entry_name(os.fspath(zip_path)) not in (None, b"TACO_HEADER"):
            raise TacozipValidationError(TACOZ_ERR_NOT_FOUND, exc.message) from None
        raise


def _first_entry_name(path) -> Optional[bytes]:
    """The name in the ZIP's first local header; None when the file does not start with one."""
    with open(path, "rb") as f:
        head = f.read(30 + 64)
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        return None
    length = int.from_bytes(head[26:28], "little")
    return head[30:30 + length]


def get_library_version() -> str:
    """tacocore's version: tacozip's C library is not used."""
    return __version__


def self_check() -> None:
    """Raises TacozipLibraryError when the native core lacks an operation this module calls."""
    needed = ("tacozip_create", "tacozip_read_header", "tacozip_parse_header",
              "tacozip_update_header")
    missing = [name for name in needed if not hasattr(_core, name)]
    if missing:
        raise TacozipLibraryError(-1, f"Missing functions in native library: {missing}")


__all__ = [
    "__version__",
    "__tacozip_version__",
    "self_check",
    "TACOZ_OK",
    "TACOZ_ERR_IO",
    "TACOZ_ERR_LIBZIP",
    "TACOZ_ERR_INVALID_HEADER",
    "TACOZ_ERR_PARAM",
    "TACOZ_ERR_NOT_FOUND",
    "TACOZ_ERR_EXISTS",
    "TACOZ_ERR_TOO_LARGE",
    "TACO_HEADER_MAX_ENTRIES",
    "TacozipError",
    "create",
    "update_header",
    "read_header",
    "get_library_version",
]
