#!/usr/bin/env bash
# Every test suite, fastest first: C++ unit tests, then the Python package (built and installed
# into .venv like `pip install .`), then pytest over the CLI, interop (against the reference tools
# from PyPI), remote (nginx, moto, a GCS emulator and Azurite on loopback), training (torch, Dask)
# and Python suites, then the unit tests and CLI suite under ASan + UBSan, then a tiny run of the
# benchmark harness so it cannot rot.
# tests/python comes last among the pytest directories: its modules import names from its
# conftest, which must be the one loaded last.
# pytest runs with TACO_STRICT_SKIPS=1: everything is installed and built here, so a skipped test
# fails (tests/conftest.py) unless it is marked allowed_skip with a reason; -rs lists those that
# did skip, and a module that skips at import fails the run without stopping the other modules.
# Prints a closing 'N passed, N failed' line over the suites; exits non-zero if anything failed.
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
run_suite guide-example ./build/bin/example_user_guide build/example-user-guide
run_suite python-package ./scripts/install_python.sh
PYTEST_STRICT=(env TACO_STRICT_SKIPS=1 "$PY" -m pytest -q -rs -p no:cacheprovider --continue-on-collection-errors)
# On both cores (pytest-xdist): each worker starts its own servers on free ports. 730-780 s
# serial, 470 s with -n 2 on a slow day of the 2-core machine.
run_suite pytest "${PYTEST_STRICT[@]}" -n 2 tests/meta tests/cli tests/interop tests/remote tests/legacy tests/training tests/python
# The same C++ unit tests and CLI suite again under ASan + UBSan (build-asan, the debug-asan
# preset; ccache makes the rebuild cheap). The kill loop is timing, not memory: left to the
# release run above. The CLI suite runs on both cores (pytest-xdist): its time is the sanitized
# `taco` processes it starts, 952 -> 477 s on a slow day of the 2-core machine.
asan_build() {
    cmake --preset debug-asan >/dev/null && cmake --build build-asan -j "${JOBS:-2}" --target taco_unit_tests taco
}
run_suite asan-build asan_build
run_suite asan-unit env ASAN_OPTIONS=detect_leaks=1 ./build-asan/bin/taco_unit_tests --gtest_brief=1
run_suite asan-cli env TACO_SANITIZED=1 TACO_BUILD_DIR=build-asan "${PYTEST_STRICT[@]}" -n 2 \
    tests/cli --deselect tests/cli/test_cli_faults.py::test_sigkill_during_overwrite_keeps_a_complete_dataset
if [ -f bench/run.py ]; then
    run_suite bench-harness "$PY" bench/run.py --profile tiny --out build/bench-tiny --no-report
fi
[ ${#failed[@]} -eq 0 ] || echo "failed suites: ${failed[*]}"
echo "suites: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
