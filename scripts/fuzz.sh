#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ with clang (ASan + UBSan) and runs each for a bounded
# time: first over its kept regression inputs (tests/fuzz/regressions/<target>/, every crash ever
# found), then fuzzing from a seed corpus made from a dataset written by `taco create`.
# The small targets compile their few sources directly; the targets in `library_targets` link the
# whole library (instrumented) instead, because the code they reach pulls in most of src/ and a
# hand-kept source list drifts (fuzz_collection broke CI that way when src/ext/ appeared).
#   scripts/fuzz.sh [SECONDS]        (default 60 per target; FUZZ_TARGETS="a b" to choose)
# Needs clang and libclang-rt-14-dev (scripts/setup.sh installs them). Prints executions per target;
# exits non-zero when a target crashes (the crash input is left in build-fuzz/<target>/crash-*).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
out=build-fuzz
mkdir -p "$out"
CXX="${FUZZ_CXX:-clang++}"
if ! command -v "$CXX" >/dev/null; then
    echo "fuzz: $CXX not found; run scripts/setup.sh (installs clang and libclang-rt-14-dev)" >&2
    exit 2
fi
[ -x build/bin/taco ] || { echo "fuzz: build/bin/taco missing; run make build first" >&2; exit 2; }

flags=(-std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -Iinclude -Isrc -I/usr/include)
declare -A sources=(
    [fuzz_taco_header]="src/format/taco_header.cpp"
    [fuzz_zip_directory]="src/format/zip_reader.cpp src/io/file.cpp src/io/crc32.cpp"
    [fuzz_tacocat_header]="src/collection/tacocat_file.cpp src/io/byte_source.cpp src/io/file.cpp"
    [fuzz_v1_header]="src/legacy/v1_header.cpp src/io/byte_source.cpp src/io/file.cpp"
    [fuzz_parquet_footer]="src/format/parquet_footer.cpp"
    [fuzz_tacotiff_header]="src/raster/tacotiff_header.cpp src/io/byte_source.cpp src/io/file.cpp"
)
libs=(-ldeflate)
library_targets="fuzz_collection fuzz_load fuzz_tacozip_update"
targets="${FUZZ_TARGETS:-fuzz_taco_header fuzz_zip_directory fuzz_tacocat_header fuzz_collection fuzz_v1_header fuzz_load fuzz_parquet_footer fuzz_tacotiff_header fuzz_tacozip_update}"

# Seeds: a small nested dataset as ZIP, its header, its COLLECTION.json.
seeds="$out/seed-src"
if [ ! -f "$out/seed.tacozip" ] || [ ! -f "$out/seed-cat/__TACOCAT__" ]; then
    rm -rf "$seeds" && mkdir -p "$seeds/s1" "$seeds/s2"
    for s in s1 s2; do printf 'a' > "$seeds/$s/a.bin"; printf 'bb' > "$seeds/$s/b.bin"; done
    build/bin/taco create --from "$seeds" "$out/seed.tacozip" --overwrite >/dev/null
    rm -rf "$out/seed-folder"
    build/bin/taco create --from "$seeds" "$out/seed-folder" >/dev/null
    rm -rf "$out/seed-cat" && mkdir -p "$out/seed-cat"
    build/bin/taco tacocat "$out/seed.tacozip" -o "$out/seed-cat" --format file >/dev/null
fi

status=0
for t in $targets; do
    bin="$out/$t"
    if [[ " $library_targets " == *" $t "* ]]; then
        # The whole reader: every source of the library compiled by clang with coverage
        # instrumentation and ASan + UBSan (build-fuzz/lib, the tacocore target only, ccache'd), so
        # libFuzzer is steered by what the container, COLLECTION.json and metadata code does with
        # each input. DuckDB and GDAL stay the prebuilt, uninstrumented libraries.
        lib="$out/lib"
        if [ ! -f "$lib/build.ninja" ]; then
            cmake -S . -B "$lib" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                -DCMAKE_CXX_COMPILER="$CXX" -DTACO_BUILD_TESTS=OFF -DTACO_BUILD_BENCH=OFF \
                -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
                -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined \
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer" >/dev/null
        fi
        echo "fuzz: building the instrumented library for $t"
        cmake --build "$lib" --target tacocore -j "${JOBS:-2}" | grep -v '^\[' || true
        if [ ! -x "$bin" ] || [ -n "$(find tests/fuzz/$t.cpp "$lib/libtacocore.a" -newer "$bin")" ]; then
            echo "fuzz: building $t"
            "$CXX" "${flags[@]}" "tests/fuzz/$t.cpp" "$lib/libtacocore.a" \
                -Lthird_party/duckdb/lib -Wl,-rpath,"$PWD/third_party/duckdb/lib" \
                -lduckdb $(pkg-config --libs gdal) -ldeflate -lpthread -o "$bin"
        fi
    elif [ ! -x "$bin" ] || [ -n "$(find tests/fuzz/$t.cpp ${sources[$t]} -newer "$bin" 2>/dev/null)" ]; then
        echo "fuzz: building $t"
        # shellcheck disable=SC2086
        "$CXX" "${flags[@]}" "tests/fuzz/$t.cpp" ${sources[$t]} "${libs[@]}" -o "$bin"
    fi
    corpus="$out/corpus-$t"
    mkdir -p "$corpus"
    case "$t" in
        fuzz_taco_header) head -c 157 "$out/seed.tacozip" > "$corpus/seed-header" ;;
        fuzz_zip_directory) cp "$out/seed.tacozip" "$corpus/seed-zip" ;;
        fuzz_collection) cp "$out/seed-folder/COLLECTION.json" "$corpus/seed-collection" ;;
        fuzz_load|fuzz_tacozip_update) cp "$out/seed.tacozip" "$corpus/seed-zip" ;;
        fuzz_parquet_footer)  # a level table and a __meta__ of the seed FOLDER dataset
            cp "$out/seed-folder/METADATA/level0.parquet" "$corpus/seed-level0"
            cp "$out/seed-folder/DATA/s1/__meta__" "$corpus/seed-meta" ;;
        fuzz_v1_header)  # files of the legacy writers, when tests/legacy has made them
            for f in build/test-cache/legacy-v1/*/out/*.t*; do
                [ -f "$f" ] && head -c 65536 "$f" > "$corpus/seed-$(basename "$f")"
            done ;;
        fuzz_tacotiff_header)  # two tiled TIFFs: classic little-endian, BigTIFF big-endian
            .venv/bin/python - "$corpus" <<'PY'
import sys
from osgeo import gdal
gdal.UseExceptions()
for name, opts in (("le", ["TILED=YES", "COMPRESS=ZSTD", "PREDICTOR=2", "BLOCKXSIZE=16", "BLOCKYSIZE=16"]),
                   ("be", ["TILED=YES", "BIGTIFF=YES", "ENDIANNESS=BIG", "COMPRESS=DEFLATE", "PREDICTOR=1",
                           "INTERLEAVE=BAND", "BLOCKXSIZE=16", "BLOCKYSIZE=16"])):
    gdal.GetDriverByName("GTiff").Create(f"{sys.argv[1]}/seed-{name}.tif", 40, 24, 2, gdal.GDT_UInt16, opts)
PY
            ;;
        fuzz_tacocat_header)  # the target reads 8 bytes of file size, then the header
            python3 -c 'import os,struct,sys; p=sys.argv[1]; sys.stdout.buffer.write(struct.pack("<Q", os.path.getsize(p)) + open(p,"rb").read(128))' \
                "$out/seed-cat/__TACOCAT__" > "$corpus/seed-tacocat" ;;
    esac
    regressions="tests/fuzz/regressions/$t"
    if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
        "$bin" "$regressions"/* >/dev/null 2>&1 || { echo "fuzz: $t fails a kept regression input"; status=1; }
    fi
    log="$out/$t.log"
    if (cd "$out" && "./$t" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=4096 -timeout=30 \
            -print_final_stats=1 "corpus-$t" >"$t.log" 2>&1); then
        execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
        echo "fuzz: $t ok, $execs executions in ${seconds} s"
    else
        echo "fuzz: $t CRASHED; see $log and keep the input in $regressions/"
        tail -30 "$log"
        status=1
    fi
done
exit $status
