#!/usr/bin/env bash
# Creates .venv with the test tools and the reference implementation (pinned versions), plus GDAL's
# Python bindings built against the system libgdal so the interop tests can read /vsisubfile/ paths.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$here/.venv"
req="$here/scripts/python-requirements.txt"
# Optional extras (torch, dask) for tests/training, kept apart: installing them is the slow part.
req_training="$here/scripts/python-requirements-training.txt"
gdal_version="$(gdal-config --version)"
stamp="$venv/.installed"
want="$(cat "$req" "$req_training" | sha256sum | cut -c1-16)-gdal$gdal_version"
# Whether every `name==version` pin of a requirements file is installed in .venv at that version.
# The stamp alone is not trusted: a venv copied or half-repaired can carry a stamp for packages it
# lacks (mlcroissant and datacite were missing under a current stamp once, and make test only
# skipped the tests that need them).
pins_installed() {
    [ -x "$venv/bin/python" ] || return 1
    "$venv/bin/python" - "$1" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if not line:
        continue
    name, pinned = line.split("==")
    try:
        if version(name.split("[")[0]) != pinned:
            sys.exit(1)
    except PackageNotFoundError:
        sys.exit(1)
PY
}
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && pins_installed "$req"; then exit 0; fi
echo "setup: preparing Python virtualenv .venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
# The pinned torch/dask already there (a venv set up before the file changed): no pip run at all.
if ! pins_installed "$req_training"; then
    echo "setup: installing torch and dask (large the first time on a machine; pip caches them)"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$req_training"
fi
# GDAL's sdist builds its numpy extension (gdal_array) only when numpy is importable at build
# time, so it is built without isolation against the venv's numpy, once per machine: the wheel is
# kept in a machine-wide cache so fresh clones (CI) install it in seconds.
wheels="${XDG_CACHE_HOME:-$HOME/.cache}/tacocore/wheels"
mkdir -p "$wheels"
"$venv/bin/pip" install -q --disable-pip-version-check setuptools wheel
if ! ls "$wheels"/[Gg][Dd][Aa][Ll]-"$gdal_version"-*.whl >/dev/null 2>&1; then
    echo "setup: building GDAL $gdal_version Python bindings (once per machine)"
    "$venv/bin/pip" wheel -q --disable-pip-version-check --no-build-isolation --no-deps --no-cache-dir \
        -w "$wheels" "gdal==$gdal_version"
fi
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps \
    "$wheels"/[Gg][Dd][Aa][Ll]-"$gdal_version"-*.whl
"$venv/bin/python" -c "from osgeo import gdal_array" || {
    rm -f "$wheels"/[Gg][Dd][Aa][Ll]-"$gdal_version"-*.whl
    echo "setup: GDAL bindings lack gdal_array; removed the cached wheel, run make setup again" >&2
    exit 1
}
echo "$want" > "$stamp"
