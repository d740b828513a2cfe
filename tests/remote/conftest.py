"""Fixtures of the remote suite (tests/remote): real servers on loopback, started and stopped here.

    served      a copy of the reference fixtures (writable, so tests can change a file) under
                `served.root`, behind nginx over plain http (`served.srv`)
    taco        run `taco ARGS` with a private TACOCORE_CACHE_DIR (a fresh one per test) and
                optional extra environment; returns the CompletedProcess
    cache_dir   that per-test cache directory
    moto        moto's S3 server with checked credentials and the fixtures uploaded under data/
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from remote_paths import FIXTURES, TACO  # noqa: E402
from servers import Moto, Nginx  # noqa: E402


class Served:
    def __init__(self, root: Path, srv: Nginx):
        self.root = root
        self.srv = srv

    def url(self, rel: str) -> str:
        return self.srv.url(rel)


@pytest.fixture(scope="session")
def served_root(tmp_path_factory) -> Path:
    if not TACO.is_file():
        raise RuntimeError(f"{TACO} is not built; run `make build`")
    root = tmp_path_factory.mktemp("served")
    shutil.copytree(FIXTURES, root / "ref", dirs_exist_ok=True)
    for p in (root / "ref").rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return root


@pytest.fixture(scope="session")
def served(served_root):
    with Nginx(served_root) as srv:
        yield Served(served_root, srv)


@pytest.fixture
def cache_dir(tmp_path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def taco(cache_dir):
    def run(*args, env: dict | None = None, timeout: float = 120, text: bool = True):
        full = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        full["TACOCORE_CACHE_DIR"] = str(cache_dir)
        full.update(env or {})
        return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=text,
                              env=full, timeout=timeout)

    return run


@pytest.fixture(scope="session")
def moto():
    with Moto() as server:
        server.put_tree(FIXTURES / "tacoreader/zip/nested/nested.tacozip", "data")
        server.put_tree(FIXTURES / "tacoreader/folder/nested", "data/nested")
        yield server
