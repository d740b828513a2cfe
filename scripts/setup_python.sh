#!/usr/bin/env bash
# Creates .venv with the test tools and the reference implementation (pinned versions), plus GDAL's
# Python bindings built against the system libgdal so the interop tests can read /vsisubfile/ paths.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$here/.venv"
req="$here/scripts/python-requirements.txt"
# Optional extras for tests/training, kept apart: installing them is the slow part. Dask goes into
# .venv; torch (about 6 GB with its CUDA wheels) goes once per machine into a shared folder.
req_training="$here/scripts/python-requirements-training.txt"
req_torch="$here/scripts/python-requirements-torch.txt"
req_nodeps="$here/scripts/python-requirements-nodeps.txt"
gdal_version="$(gdal-config --version)"
stamp="$venv/.installed"
want="$(cat "$req" "$req_training" "$req_torch" "$req_nodeps" | sha256sum | cut -c1-16)-gdal$gdal_version"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tacocore"
# Whether every `name==version` pin of the given requirements files is installed, at that version,
# where .venv's Python finds it. The stamp alone is not trusted: a venv copied or half-repaired can
# carry a stamp for packages it lacks (mlcroissant and datacite were missing under a current stamp
# once, and make test only skipped the tests that need them), and the shared torch can be deleted.
pins_installed() {
    [ -x "$venv/bin/python" ] || return 1
    "$venv/bin/python" - "$@" <<'PY'
import sys
from importlib.metadata import version, PackageNotFoundError
for path in sys.argv[1:]:
    for line in open(path):
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
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && pins_installed "$req" "$req_training" "$req_torch" "$req_nodeps"
then exit 0; fi
echo "setup: preparing Python virtualenv .venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# The shared torch is hidden from pip while it installs into .venv: pip counts what it finds on
# sys.path as installed, and could uninstall a dependency of torch from the shared folder.
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
torch_pth="$site/tacocore-shared-torch.pth"
rm -f "$torch_pth"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
# The pinned dask already there (a venv set up before the file changed): no pip run at all.
if ! pins_installed "$req_training"; then
    echo "setup: installing dask"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$req_training"
fi
# torch once per machine and Python version: a fresh clone (CI) only writes the .pth file. It is
# installed into a temporary folder and renamed when complete, so an interrupted install is never
# used; --no-cache-dir because the folder itself is the cache (pip's would double the disk). A
# lock keeps two setups of the same machine (a session and a CI clone) from both installing it.
torch_dir="$cache/torch/$("$venv/bin/python" -c 'import sys; print("cp%d%d" % sys.version_info[:2])')-$(sha256sum < "$req_torch" | cut -c1-16)"
mkdir -p "$(dirname "$torch_dir")"
(
    flock 9
    if [ ! -f "$torch_dir/.complete" ]; then
        echo "setup: installing torch into $torch_dir (once per machine, about 5 GB, shared by every checkout)"
        rm -rf "$torch_dir" "$torch_dir.partial"
        "$venv/bin/pip" install -q --disable-pip-version-check --no-cache-dir \
            --target "$torch_dir.partial" -r "$req_torch"
        touch "$torch_dir.partial/.complete"
        mv -T "$torch_dir.partial" "$torch_dir"
    fi
) 9>"$torch_dir.lock"
# GDAL's sdist builds its numpy extension (gdal_array) only when numpy is importable at build
# time, so it is built without isolation against the venv's numpy, once per machine: the wheel is
# kept in a machine-wide cache so fresh clones (CI) install it in seconds.
wheels="$cache/wheels"
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
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$req_nodeps"
echo "$torch_dir" > "$torch_pth"
pins_installed "$req_torch" || { echo "setup: torch in $torch_dir is not the pinned version" >&2; exit 1; }
echo "$want" > "$stamp"
