#!/usr/bin/env bash
# DuckDB's spatial extension for ST_* in user SQL, offline (DESIGN.md §2): the official build for
# DuckDB 1.4.4 published on PyPI as duckdb-ext-spatial, pinned by version and wheel sha256.
#  - the wheel is installed into .venv (tacocore finds it there at import: tacocore/_spatial.py);
#  - its spatial.duckdb_extension is copied under third_party/duckdb/extensions/ (the `taco` CLI
#    and C++ programs find it there, or through $TACO_DUCKDB_SPATIAL);
#  - the wheel's directory duckdb_ext/extensions/ has the layout DuckDB's `extension_directory`
#    expects, so tacoreader (whose duckdb runs `INSTALL spatial; LOAD spatial`) gets the same
#    extension offline when its connections point there (bench/bench_spacetime.py does). Nothing
#    is put in ~/.duckdb: tacoreader elsewhere (other benchmarks) keeps its usual behaviour.
# Runs after setup_python.sh; idempotent.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="1.4.4.20260205"
wheel="duckdb_ext_spatial-$version-py3-none-manylinux_2_28_x86_64.whl"
sha="0af59ac04cec52569c3cb9a88157b28ccf8b026eb49b11747a5dc9f0ab1e1583"
rel="v1.4.4/linux_amd64/spatial.duckdb_extension"
dest="$here/third_party/duckdb/extensions"
if [ -f "$dest/.verified-$version" ] && [ -f "$dest/$rel" ] &&
    "$here/.venv/bin/python" -c "import duckdb_ext" 2>/dev/null; then
    exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "setup: fetching DuckDB's spatial extension ($version) from PyPI"
"$here/.venv/bin/pip" download -q --disable-pip-version-check --no-deps \
    "duckdb-ext-spatial==$version" -d "$work"
echo "$sha  $work/$wheel" | sha256sum -c --quiet -
"$here/.venv/bin/pip" install -q --disable-pip-version-check --no-deps "$work/$wheel"
python3 -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('duckdb_ext/extensions/$rel', sys.argv[2])" \
    "$work/$wheel" "$work/x"
mkdir -p "$dest/$(dirname "$rel")"
cp "$work/x/duckdb_ext/extensions/$rel" "$dest/$rel"
touch "$dest/.verified-$version"
