"""tacoreader.v1's load() and load_metadata() on tacocore's core."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any, List, Union

import pandas as pd

from .. import _core
from .._exceptions import TacoPathNotFoundError
from ._frame import TortillaDataFrame, footer_frame

PathLike = Union[str, Path]

# tacoreader.v1 resolves "tacofoundation:NAME" through this catalog ({name: [file URLs]}).
# TACOCORE_TACOFOUNDATION_CATALOG points elsewhere (a mirror, or a local file:// copy).
TACOFOUNDATION_CATALOG = "https://huggingface.co/datasets/tacofoundation/main/raw/main/tacos.json"


def _location(path: PathLike) -> str:
    """The location tacocore opens: ``hf://datasets/NS/DS/FILE`` as its HTTPS URL (tacoreader
    maps it the same way for GDAL), anything else as given."""
    text = os.fspath(path)
    if text.startswith("hf://datasets/"):
        parts = text[len("hf://datasets/"):].split("/")
        if len(parts) < 3:
            raise ValueError("Hugging Face path must include namespace, dataset, and file.")
        return f"https://huggingface.co/datasets/{parts[0]}/{parts[1]}/resolve/main/{'/'.join(parts[2:])}"
    return text


class V1FileNotFoundError(TacoPathNotFoundError, FileNotFoundError, ValueError):
    """A local v1 file that does not exist: tacocore's TacoPathNotFoundError, and what
    tacoreader.v1 raises there (``load``: ValueError, ``load_metadata``: FileNotFoundError), so
    handlers written for either catch it."""


def _open_v1(location: str) -> "_core.V1File":
    if not _core.is_remote(location) and not os.path.lexists(location):
        raise V1FileNotFoundError(errno.ENOENT, "No such file or directory", location)
    return _core.V1File.open(location)


def load_file(path: PathLike, **storage_options: Any) -> TortillaDataFrame:
    """The top-level samples of one v1 file (one part of a split dataset is one file)."""
    del storage_options
    location = _location(path)
    f = _open_v1(location)
    t = f.tortilla(0, 0, location, False)
    return footer_frame(t["footer"], 0, f.gdal_path)


def load_files(files: List[PathLike], **storage_options: Any) -> TortillaDataFrame:
    """Several v1 files (the parts of a split dataset) as one frame, sorted by ``tortilla:id``.
    Unlike tacoreader.v1, a file that fails to load raises instead of being left out."""
    if not files:
        raise ValueError("load: the list of files is empty")
    frames = [load_file(f, **storage_options) for f in files]
    return TortillaDataFrame(pd.concat(frames, ignore_index=True).sort_values(by=["tortilla:id"]))


def _tacofoundation_files(name: str) -> List[str]:
    import urllib.request

    url = os.environ.get("TACOCORE_TACOFOUNDATION_CATALOG", TACOFOUNDATION_CATALOG)
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            catalog = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise _core.TacoIOError(f"tacofoundation:{name}: cannot read the TACO Foundation catalog "
                                f"{url}: {exc}") from exc
    if not isinstance(catalog, dict) or name not in catalog:
        known = ", ".join(sorted(catalog)) if isinstance(catalog, dict) else "none"
        raise ValueError(f"tacofoundation:{name}: not in the catalog {url} (known: {known})")
    files = catalog[name]
    return [files] if isinstance(files, str) else list(files)


def load(file: Union[PathLike, List[PathLike]], **storage_options: Any) -> TortillaDataFrame:
    """The samples of a v1 file (``.tortilla`` or TACO 0.2 ``.taco``), of a list of files (the
    parts of a split dataset, sorted by ``tortilla:id``), or of ``tacofoundation:NAME``.

    Local paths, ``https://``, ``s3://``, ``gs://``, ``az://`` and ``hf://datasets/`` locations
    are read by tacocore's core; ``storage_options`` are accepted and not used (configure remote
    access as for ``tacocore.load``).
    """
    if isinstance(file, (str, Path)):
        text = os.fspath(file)
        if text.startswith("tacofoundation:"):
            return load_files(_tacofoundation_files(text[len("tacofoundation:"):]))
        return load_file(file, **storage_options)
    if isinstance(file, list):
        return load_files(file, **storage_options)
    raise ValueError("Invalid file type: must be a string or a list of strings.")


def load_metadata(file: Union[PathLike, List[PathLike]], **storage_options: Any) -> dict:
    """The COLLECTION of a TACO 0.2 file as a dict (of the first file of a list). A Tortilla 0.5
    file has none: TacoFormatError naming it."""
    del storage_options
    if isinstance(file, list):
        if not file:
            raise ValueError("load_metadata: the list of files is empty")
        file = file[0]
    if not isinstance(file, (str, Path)):
        raise ValueError("Invalid file type: must be a string or a list of strings.")
    location = _location(file)
    t = _open_v1(location).tortilla(0, 0, location, False, footer=False)
    if "collection" not in t:
        raise _core.TacoFormatError(f"{location}: a {t['kind']} file has no COLLECTION "
                                    "(only TACO 0.2 files have one)")
    text = t["collection"].decode("utf-8", errors="replace")
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _core.TacoFormatError(f"{location}: the COLLECTION is not JSON: {exc}") from exc
