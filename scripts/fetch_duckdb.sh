#!/usr/bin/env bash
# Fetches the official DuckDB 1.4.4 Linux x86-64 library and its C header from the npm registry
# (DESIGN.md §2), verifies the published tarballs' sha256 and unpacks them under third_party/duckdb.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/third_party/duckdb"
if [ -f "$dest/lib/libduckdb.so" ] && [ -f "$dest/include/duckdb.h" ] && [ -f "$dest/.verified" ]; then
    exit 0
fi
lib_pkg="@duckdb/node-bindings-linux-x64@1.4.4-r.4"
lib_tgz="duckdb-node-bindings-linux-x64-1.4.4-r.4.tgz"
lib_sha="732fac4dc6b8f198870b9c4bb6ddf13544466daca00ad28ba2f1d80de5d7aa4b"
hdr_pkg="duckdb@1.4.4"
hdr_tgz="duckdb-1.4.4.tgz"
hdr_sha="5bb967dcbcd517670ba5f169f238fb9d6787e53752c60ebe24386169d76941ed"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "setup: fetching DuckDB 1.4.4 from npm"
(cd "$work" && npm pack --silent "$lib_pkg" "$hdr_pkg" >/dev/null)
echo "$lib_sha  $work/$lib_tgz" | sha256sum -c --quiet -
echo "$hdr_sha  $work/$hdr_tgz" | sha256sum -c --quiet -
mkdir -p "$work/lib" "$work/hdr"
tar -xzf "$work/$lib_tgz" -C "$work/lib" package/libduckdb.so
tar -xzf "$work/$hdr_tgz" -C "$work/hdr" package/src/duckdb/src/include/duckdb.h
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/include"
cp "$work/lib/package/libduckdb.so" "$dest/lib/"
cp "$work/hdr/package/src/duckdb/src/include/duckdb.h" "$dest/include/"
touch "$dest/.verified"
