#!/usr/bin/env bash
# Builds and installs the tacocore Python package into .venv exactly as `pip install .` does,
# reusing build-python between runs (scikit-build-core + ccache keep the second run fast).
# The extension is compiled with the release build's compiler under the same name: ccache hashes
# the compiler's name (c++ vs g++) and the paths relative to the build directory (build-python
# sits beside build/ for that), so the core library's objects come from the release build's cache
# instead of a second full compile (~10 of CI's minutes on a slow host).
set -euo pipefail
cd "$(dirname "$0")/.."
args=()
if [ -f build/CMakeCache.txt ]; then
    cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:FILEPATH=//p' build/CMakeCache.txt)
    [ -n "$cxx" ] && args+=(-C "cmake.define.CMAKE_CXX_COMPILER=$cxx")
fi
.venv/bin/pip install -q --disable-pip-version-check --no-build-isolation --no-deps "${args[@]}" .
