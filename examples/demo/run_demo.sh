#!/usr/bin/env bash
# `make demo`: packs the bundled example (3 scenes x 2 GeoTIFFs + metadata.csv) into a TACO ZIP
# and a TACO FOLDER, then shows what was made.
set -euo pipefail
taco="${1:-build/bin/taco}"
here="$(cd "$(dirname "$0")" && pwd)"
out="${DEMO_OUT:-demo-out}"
mkdir -p "$out"
set -x
"$taco" create --from "$here/input" "$out/demo.tacozip" --metadata "$here/metadata.csv" \
    --id tacocore-demo --title "tacocore demo: three scenes" \
    --description "Three small scenes, each an image and a mask, packed by tacocore" \
    --license CC-BY-4.0 --provider "tacocore" --task semantic-segmentation --overwrite
"$taco" create --from "$here/input" "$out/demo-folder" --metadata "$here/metadata.csv" \
    --id tacocore-demo --license CC-BY-4.0 --provider "tacocore" --task semantic-segmentation --overwrite
{ set +x; } 2>/dev/null
if "$taco" info --help >/dev/null 2>&1; then
    "$taco" info "$out/demo.tacozip"
    "$taco" ls "$out/demo.tacozip" valencia
    "$taco" sql "$out/demo.tacozip" "SELECT id, cloud_cover, split FROM data ORDER BY cloud_cover"
fi
