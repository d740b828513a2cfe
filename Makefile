# tacocore — the two commands a newcomer needs are `make demo` and `make test`.
# Every target installs what is missing first (make setup is idempotent and fast when done).

PRESET ?= release
BUILD_DIR := build
TACO := $(BUILD_DIR)/bin/taco
PY := .venv/bin/python
JOBS ?= 2
# ccache keys on paths relative to the checkout, so a fresh clone (CI) reuses earlier objects.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all setup configure build demo test test-unit test-cli test-interop test-bench-harness \
        asan asan-python fuzz bench format format-check clean

all: build

setup:
	@./scripts/setup.sh

$(BUILD_DIR)/build.ninja: CMakeLists.txt CMakePresets.json
	@cmake --preset $(PRESET) >/dev/null

configure: setup $(BUILD_DIR)/build.ninja

build: configure
	@cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@./examples/demo/run_demo.sh $(TACO)

test: build
	@./scripts/run_tests.sh

asan: setup
	@cmake --preset debug-asan >/dev/null
	@cmake --build build-asan -j $(JOBS) --target taco_unit_tests taco
	@ASAN_OPTIONS=detect_leaks=1 ./build-asan/bin/taco_unit_tests --gtest_brief=1

# The Python suite with the native extension under ASan + UBSan (scripts/asan_python.sh).
asan-python: build
	@./scripts/asan_python.sh

# libFuzzer targets (tests/fuzz/) under ASan+UBSan, FUZZ_SECONDS each (default 60).
fuzz: build
	@./scripts/fuzz.sh $(or $(FUZZ_SECONDS),60)

bench: build
	@./scripts/install_python.sh   # the Python package is one of the measured tools
	@$(PY) bench/run.py --profile $(if $(FULL),full,quick)

# clang-format over src/ include/ tools/ python/src/ bench/micro tests/unit (scripts/format.sh):
# format reformats the files that need it, format-check lists them and fails.
format:
	@./scripts/format.sh

format-check:
	@./scripts/format.sh --check

clean:
	rm -rf $(BUILD_DIR) build-asan build-fuzz
