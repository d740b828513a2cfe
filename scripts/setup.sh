#!/usr/bin/env bash
# Installs everything tacocore needs to build, test and benchmark, idempotently.
#   1. Debian packages (compilers' helpers, GDAL, JSON, CLI, CRC, test frameworks, nginx)
#   2. DuckDB 1.4.4 (library + header) from npm tarballs, checksums verified, into third_party/
#   3. A Python virtualenv (.venv) with the reference tools for interop tests and benchmarks
#   3b. .venv-legacy with the legacy v1 writers (pytortilla, old tacotoolbox) for tests/legacy
#   4. Azurite (npm) into third_party/azurite, the Azure blob emulator of the remote tests
# A second run only checks and returns in about a second.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"

need_sudo=""
if [ "$(id -u)" != 0 ]; then need_sudo="sudo"; fi

debs=(cmake ninja-build ccache g++ pkg-config libgdal-dev gdal-bin nlohmann-json3-dev libcli11-dev
      libdeflate-dev libgtest-dev libgmock-dev libbenchmark-dev clang-format nginx openssl python3-venv
      time clang libclang-rt-14-dev chromium)  # chromium: headless check of dataset cards (issue 16)
missing=()
for p in "${debs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    $need_sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $need_sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

"$here/scripts/fetch_duckdb.sh"
"$here/scripts/setup_python.sh"
"$here/scripts/setup_legacy_venv.sh"  # legacy v1 writers for tests/legacy (issue 16)
"$here/scripts/fetch_azurite.sh"
"$here/scripts/fetch_duckdb_spatial.sh"
echo "setup: ok"
