#!/usr/bin/env bash
# Installs Azurite (Microsoft's Azure Storage emulator, npm `azurite`, pinned) under
# third_party/azurite for the remote tests (tests/remote: az:// against a real blob service on
# loopback). Idempotent: returns at once when the pinned version is there.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/third_party/azurite"
version="3.37.0"
installed="$dest/node_modules/azurite/package.json"
if [ -x "$dest/node_modules/.bin/azurite-blob" ] && [ -f "$installed" ] &&
   grep -q "\"version\": \"$version\"" "$installed"; then
    exit 0
fi
if ! command -v npm >/dev/null; then
    echo "setup: npm is missing; install nodejs/npm to run the Azure tests" >&2
    exit 1
fi
echo "setup: installing azurite $version from npm"
mkdir -p "$dest"
(cd "$dest" && npm install --no-audit --no-fund --silent --save-exact "azurite@$version" >/dev/null)
