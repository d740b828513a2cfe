"""Legacy v1 inputs for tests/legacy, written at test time by the legacy writers themselves.

    v1      session fixture: a directory of v1 files made by tests/legacy/make_v1.py running in
            .venv-legacy (pytortilla 0.5.1, tacotoolbox 0.5.2; scripts/setup_legacy_venv.sh),
            from GeoTIFFs written here with GDAL. Cached under build/test-cache/legacy-v1/<key>,
            the key hashing the writer script, its pinned requirements and this file, so a
            second session reuses them; never hand-made bytes.
    taco    run `taco ARGS` (the build's CLI); returns the CompletedProcess
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"
LEGACY_PY = REPO_ROOT / ".venv-legacy" / "bin" / "python"
HERE = Path(__file__).resolve().parent
WRITER = HERE / "make_v1.py"
REQUIREMENTS = REPO_ROOT / "scripts" / "python-requirements-legacy.txt"


@dataclass
class V1Files:
    root: Path       # the writer's output directory
    inputs: Path     # the sample files it packed
    manifest: dict   # make_v1.py's manifest: files and rows of each output

    def path(self, name: str) -> Path:
        return self.root / name

    def source_bytes(self, path: str) -> bytes:
        return Path(path).read_bytes()


def write_geotiffs(directory: Path) -> None:
    """Six 8x8 UInt16 GeoTIFFs (values differ per tile) and one opaque blob, with GDAL."""
    from osgeo import gdal

    gdal.UseExceptions()
    for i in range(6):
        ds = gdal.GetDriverByName("GTiff").Create(str(directory / f"tile_{i}.tif"), 8, 8, 1,
                                                  gdal.GDT_UInt16)
        ds.SetGeoTransform((500000.0 + 100 * i, 10, 0, 4500000.0, 0, -10))
        values = struct.pack("<64H", *[v + 100 * i for v in range(64)])
        ds.GetRasterBand(1).WriteRaster(0, 0, 8, 8, values, buf_type=gdal.GDT_UInt16)
        ds = None
    (directory / "blob_0.bin").write_bytes(b"legacy notes \x00\x01\x02" * 10)
    for i in range(3):  # 1 MiB each, distinct and reproducible
        seed = hashlib.sha256(f"big_{i}".encode()).digest()
        (directory / f"big_{i}.bin").write_bytes(seed * (1 << 15))


def cache_key() -> str:
    h = hashlib.sha256()
    for f in (WRITER, REQUIREMENTS, Path(__file__)):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


@pytest.fixture(scope="session")
def v1() -> V1Files:
    if not LEGACY_PY.is_file():
        raise RuntimeError(f"{LEGACY_PY} is missing: run scripts/setup_legacy_venv.sh "
                           "(make setup does) to install the legacy v1 writers")
    cache = REPO_ROOT / "build" / "test-cache" / "legacy-v1" / cache_key()
    manifest_file = cache / "manifest.json"
    if not manifest_file.is_file():
        staging = cache.with_name(cache.name + f".tmp{os.getpid()}")
        shutil.rmtree(staging, ignore_errors=True)
        (staging / "inputs").mkdir(parents=True)
        write_geotiffs(staging / "inputs")
        # The writer records absolute paths: it writes into its final place's layout, then the
        # whole directory is renamed (relative layout kept, paths rewritten below).
        proc = subprocess.run([str(LEGACY_PY), str(WRITER), str(staging / "inputs"),
                               str(staging / "out")], capture_output=True, text=True,
                              timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"the legacy writer failed:\n{proc.stderr}")
        text = proc.stdout.strip().splitlines()[-1].replace(str(staging), str(cache))
        (staging / "manifest.json").write_text(text)
        shutil.rmtree(cache, ignore_errors=True)
        staging.rename(cache)
        for old in cache.parent.iterdir():  # fixtures of older writer scripts
            if old != cache and "." not in old.name:
                shutil.rmtree(old, ignore_errors=True)
    return V1Files(cache / "out", cache / "inputs", json.loads(manifest_file.read_text()))


def run_taco(*args, env=None) -> subprocess.CompletedProcess:
    if not TACO.is_file():
        raise RuntimeError(f"{TACO} is not built; run `make build`")
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, timeout=300,
                          env=full_env)


@pytest.fixture
def taco():
    return run_taco
