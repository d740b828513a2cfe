#!/usr/bin/env bash
# Every test suite, in order of speed: C++ unit tests, CLI tests, interop tests against the
# reference tools (pytest), and a tiny run of the benchmark harness so it cannot rot.
# Prints a closing 'N passed, N failed' line and exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
failed_suites=()
run_suite() {
    local name="$1"; shift
    echo "=== $name"
    if "$@"; then echo "=== $name: ok"; else echo "=== $name: FAILED"; failed_suites+=("$name"); fi
}
run_suite unit ./build/bin/taco_unit_tests --gtest_brief=1
run_suite cli-and-interop "$PY" -m pytest -q -p no:cacheprovider tests/cli tests/interop
if [ -f bench/run.py ]; then
    run_suite bench-harness "$PY" bench/run.py --profile tiny --out build/bench-tiny --no-report
fi
total=3
[ -f bench/run.py ] || total=2
echo "suites: $((total - ${#failed_suites[@]})) passed, ${#failed_suites[@]} failed"
[ ${#failed_suites[@]} -eq 0 ]
