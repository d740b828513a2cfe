#!/usr/bin/env bash
# Creates .venv with the test tools and the reference implementation (pinned versions), plus GDAL's
# Python bindings built against the system libgdal so the interop tests can read /vsisubfile/ paths.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$here/.venv"
req="$here/scripts/python-requirements.txt"
gdal_version="$(gdal-config --version)"
stamp="$venv/.installed"
want="$(sha256sum "$req" | cut -c1-16)-gdal$gdal_version"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "setup: preparing Python virtualenv .venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
# GDAL's sdist builds its numpy extension (gdal_array) only when numpy is importable at build
# time, so build it without isolation, against the numpy already in the venv.
"$venv/bin/pip" install -q --disable-pip-version-check setuptools wheel
"$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation --no-cache-dir \
    --force-reinstall --no-deps "gdal==$gdal_version"
"$venv/bin/python" -c "from osgeo import gdal_array" 
echo "$want" > "$stamp"
