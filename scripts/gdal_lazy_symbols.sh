#!/usr/bin/env bash
# Writes src/gdal_lazy/gdal_symbols.def from what the built library calls: every symbol that
# libtacocore.a needs and libgdal defines as a function. Run it after a `taco` link fails with
# "undefined reference" to a GDAL function (make build first builds libtacocore.a), then rebuild.
# Fails naming any GDAL *data* symbol the library refers to: those cannot be forwarded
# (docs/READER.md §7.1), so the code must not use them.
set -euo pipefail
export LC_ALL=C  # one collation for sort and join
cd "$(dirname "$0")/.."
archive="${1:-build/libtacocore.a}"
gdal="$(readlink -f "$(c++ -print-file-name=libgdal.so)")"
[ -f "$archive" ] || { echo "gdal_lazy_symbols: $archive not built (make build)" >&2; exit 2; }
defs=$(mktemp) && needed=$(mktemp)
trap 'rm -f "$defs" "$needed"' EXIT
nm -D --defined-only "$gdal" | awk '{print $3, $2}' | sort -u > "$defs"
nm -u "$archive" 2>/dev/null | awk 'NF == 2 {print $2}' | sort -u | join - "$defs" > "$needed"
data=$(awk '$2 != "T" && $2 != "W" {print $1}' "$needed")
if [ -n "$data" ]; then
    echo "gdal_lazy_symbols: the library refers to GDAL data, which cannot be loaded on first use:" >&2
    echo "$data" | c++filt >&2
    exit 1
fi
out=src/gdal_lazy/gdal_symbols.def
{
    grep "^//" "$out"
    awk '{print "TACO_GDAL_SYMBOL(" $1 ")"}' "$needed"
} > "$out.new"
mv "$out.new" "$out"
echo "gdal_lazy_symbols: $(grep -c '^TACO_GDAL_SYMBOL' "$out") functions in $out"
