#!/usr/bin/env bash
# clang-format (the repo's .clang-format) over the C++ sources: src/ include/ tools/ python/src/
# bench/micro tests/unit, the files git tracks or would track (third_party and build trees are
# not among them).
#   scripts/format.sh --check   lists the files that fail `clang-format --dry-run -Werror` and
#                               exits 1 when there is any (make format-check); changes nothing
#   scripts/format.sh           reformats those files in place
# CLANG_FORMAT picks the binary (default: clang-format).
set -euo pipefail
cd "$(dirname "$0")/.."
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: scripts/format.sh [--check]" >&2; exit 2 ;;
esac
if ! command -v "$CLANG_FORMAT" >/dev/null; then
    echo "format.sh: $CLANG_FORMAT not found (apt-get install clang-format)" >&2
    exit 2
fi
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- \
    src include tools python/src bench/micro tests/unit |
    grep -E '\.(c|cc|cpp|cxx|h|hh|hpp|hxx)$' | sort -u)
# One clang-format run over every file (a process per file is slow on a busy machine); each
# violation is reported as "path:line:col: error: ...", so the failing files are those paths.
mapfile -t failing < <(printf '%s\0' "${files[@]}" |
    xargs -0 -r "$CLANG_FORMAT" --dry-run -Werror 2>&1 |
    sed -nE 's/^(.+):[0-9]+:[0-9]+: error: .*/\1/p' | sort -u)
if [ "$check" = 1 ]; then
    if [ ${#failing[@]} -eq 0 ]; then
        echo "format.sh: all ${#files[@]} files are clang-formatted"
        exit 0
    fi
    printf '%s\n' "${failing[@]}"
    echo "format.sh: ${#failing[@]} of ${#files[@]} files need clang-format (scripts/format.sh fixes them)" >&2
    exit 1
fi
if [ ${#failing[@]} -gt 0 ]; then
    "$CLANG_FORMAT" -i "${failing[@]}"
    printf 'reformatted %s\n' "${failing[@]}"
fi
echo "format.sh: ${#failing[@]} of ${#files[@]} files reformatted"
