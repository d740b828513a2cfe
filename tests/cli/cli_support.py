"""What the CLI test modules share: the `taco` binary under test (every module imports it from
here, so an unbuilt `taco` fails the run saying how to build it) and a way to run it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"

# make test builds it first: a missing binary is an error that says how to get one, not a skip.
if not TACO.is_file():
    raise RuntimeError(f"{TACO} is not built; run `make build` (or point TACO_BUILD_DIR at a build)")


def taco(*args, timeout: float = 300) -> subprocess.CompletedProcess:
    """Runs `taco ARGS...` and returns the finished process (text output)."""
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=timeout)
