"""Where the remote suite finds things (imported by its tests; `conftest` is another suite's name
at import time, see scripts/run_tests.sh)."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
