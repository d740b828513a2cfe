#!/usr/bin/env bash
# Builds and installs the tacocore Python package into .venv exactly as `pip install .` does,
# reusing build/python between runs (scikit-build-core + ccache keep the second run fast).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/pip install -q --disable-pip-version-check --no-build-isolation --no-deps .
