#!/usr/bin/env bash
# Every test suite, fastest first: C++ unit tests, then the Python package (built and installed
# into .venv like `pip install .`), then pytest over the CLI, interop (against the reference tools
# from PyPI) and Python suites, then a tiny run of the benchmark harness so it cannot rot.
# tests/python comes last: its modules import names from its conftest, which must be the one
# loaded last. Prints a closing 'N passed, N failed' line over the suites; exits non-zero if anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
passed=0
failed=()
run_suite() {
    local name="$1"; shift
    echo "=== $name"
    local start=$SECONDS
    if "$@"; then
        echo "=== $name: ok ($((SECONDS - start)) s)"
        passed=$((passed + 1))
    else
        echo "=== $name: FAILED ($((SECONDS - start)) s)"
        failed+=("$name")
    fi
}
run_suite unit ./build/bin/taco_unit_tests --gtest_brief=1
run_suite readme-example ./build/bin/example_quickstart build/example-quickstart
run_suite python-package ./scripts/install_python.sh
run_suite pytest "$PY" -m pytest -q -p no:cacheprovider tests/cli tests/interop tests/remote tests/python
if [ -f bench/run.py ]; then
    run_suite bench-harness "$PY" bench/run.py --profile tiny --out build/bench-tiny --no-report
fi
[ ${#failed[@]} -eq 0 ] || echo "failed suites: ${failed[*]}"
echo "suites: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
