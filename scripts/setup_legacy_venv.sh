#!/usr/bin/env bash
# Creates .venv-legacy with the legacy v1 writers (pinned, scripts/python-requirements-legacy.txt):
# the tests of src/legacy/ run them to make their `.tortilla` / `.taco` inputs at test time. Kept
# apart from .venv because they need older pandas/pyarrow than the reference tools. Idempotent.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="$here/.venv-legacy"
req="$here/scripts/python-requirements-legacy.txt"
stamp="$venv/.installed"
want="$(sha256sum < "$req" | cut -c1-16)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
echo "setup: preparing the legacy v1 writers' virtualenv .venv-legacy"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
"$venv/bin/python" -c "import pytortilla, tacotoolbox"
echo "$want" > "$stamp"
