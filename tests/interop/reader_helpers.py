"""Helpers of the reader interop suite (test_reader_vs_tacoreader.py).

The datasets compared: every reference fixture, and every case of the writer interop matrix
(tests/tools/taco_make_dataset.cpp) written as ZIP and as FOLDER. Values are compared in one
canonical Python form, computed from each side's own representation and the column's Arrow type:

    binary -> lowercase hex        timestamp -> ISO-8601 + "Z" (microseconds only when non-zero)
    float32 -> numpy.float32       NaN -> None          list -> list of canonical elements

`taco ... --json` prints exactly these forms (tools/taco/output.hpp), tacoreader returns pyarrow
values; both go through canonical().
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

PADDING_PREFIX = "__TACOPAD__"

# Cases of tests/tools/taco_make_dataset.cpp that produce a readable dataset. big-4g (a 4 GiB
# sample) is included only when TACO_INTEROP_BIG=1.
MATRIX_CASES = [
    "flat",
    "every-types",
    "nested-2",
    "nested-3",
    "nested-4",
    "padding",
    "padding-flat",
    "unicode",
    "zero-bytes",
    "stac",
    "stac-antimeridian",
    "many-70000",
]
if os.environ.get("TACO_INTEROP_BIG") == "1":
    MATRIX_CASES.append("big-4g")

FIXTURES = [
    "tacoreader/zip/flat/flat.tacozip",
    "tacoreader/zip/nested/nested.tacozip",
    "tacoreader/folder/flat",
    "tacoreader/folder/nested",
    "tacotoolbox/zip/simple/simple.tacozip",
    "tacotoolbox/folder/simple",
    "tacotoolbox/zip/nested_a/nested_a.tacozip",
    "tacotoolbox/zip/nested_b/nested_b.tacozip",
]


def run_taco(taco_bin: Path, *args, check: bool = True) -> subprocess.CompletedProcess:
    """Runs `taco ARGS` capturing bytes; a non-zero exit raises with stderr when `check`."""
    proc = subprocess.run([str(taco_bin), *map(str, args)], capture_output=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"taco {' '.join(map(str, args))} exited {proc.returncode}: {proc.stderr.decode(errors='replace')}"
        )
    return proc


def taco_json(taco_bin: Path, *args) -> Any:
    return json.loads(run_taco(taco_bin, *args).stdout)


# ---- canonical values ----------------------------------------------------------------------------


def _unwrap(t: pa.DataType) -> pa.DataType:
    return t.value_type if pa.types.is_dictionary(t) else t


def canonical(value: Any, t: pa.DataType, ours: bool) -> Any:
    """`value` as the comparable form described in the module docstring.

    ours=True: value as decoded from `taco --json`; ours=False: a pyarrow .as_py() value.
    """
    t = _unwrap(t)
    if value is None:
        return None
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return [canonical(v, t.value_type, ours) for v in value]
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return value if ours else bytes(value).hex()
    if pa.types.is_timestamp(t):
        if ours:
            return value
        return value.replace(tzinfo=None).isoformat() + "Z"
    if pa.types.is_float32(t):
        f = np.float32(value)
        return None if np.isnan(f) else f
    if pa.types.is_floating(t):
        f = float(value)
        return None if math.isnan(f) else f
    return value


def table_rows(table: pa.Table) -> list[list[Any]]:
    """Rows of a pyarrow table in canonical form, columns by position."""
    cols = [[canonical(v, table.schema.field(i).type, ours=False) for v in table.column(i).to_pylist()]
            for i in range(table.num_columns)]
    return [list(r) for r in zip(*cols)] if cols else []


def json_rows(rows: list[dict], schema: pa.Schema) -> list[list[Any]]:
    """Rows printed by `taco sql --json` in canonical form, typed by the reference's schema."""
    out = []
    for row in rows:
        values = list(row.values())
        assert len(values) == len(schema), f"{len(values)} columns, the reference has {len(schema)}"
        out.append([canonical(v, schema.field(i).type, ours=True) for i, v in enumerate(values)])
    return out


def arrow_type_name(t: pa.DataType) -> str:
    """pyarrow's type name with the spellings tacocore does not distinguish folded together."""
    s = str(_unwrap(t))
    for long, short in (("large_string", "string"), ("large_binary", "binary"), ("large_list", "list")):
        s = s.replace(long, short)
    # The list child's name is not part of the type (DuckDB calls it "l", pyarrow "item").
    return re.sub(r"list<[^:<>]+:", "list<item:", s)


# ---- the reference side --------------------------------------------------------------------------


def without_padding(table: pa.Table) -> pa.Table:
    """tacoreader 2.4.21 keeps padding in its views and in __meta__ children; tacocore hides it."""
    if "id" not in table.column_names:
        return table
    keep = [not (v or "").startswith(PADDING_PREFIX) for v in table.column("id").to_pylist()]
    return table.filter(pa.array(keep, type=pa.bool_()))


def reference_levels(ds) -> list[int]:
    names = ds.sql(
        "SELECT table_name FROM information_schema.tables WHERE regexp_full_match(table_name, 'level[0-9]+')"
    ).column("table_name").to_pylist()
    return sorted(int(n[len("level"):]) for n in names)


def sample_size(row: dict, fmt: str) -> int | None:
    """What `taco ls` reports as size: FILE bytes (ZIP: internal:size; FOLDER: the file's size)."""
    if row["type"] != "FILE":
        return None
    if fmt == "zip":
        return row["internal:size"]
    return os.path.getsize(row["internal:gdal_vsi"])


def vsi_read(path: str) -> bytes:
    """Reads a whole file through GDAL's virtual file system (e.g. /vsisubfile/...)."""
    from osgeo import gdal

    f = gdal.VSIFOpenL(path, "rb")
    assert f is not None, f"GDAL cannot open {path}"
    try:
        gdal.VSIFSeekL(f, 0, 2)
        size = gdal.VSIFTellL(f)
        gdal.VSIFSeekL(f, 0, 0)
        data = gdal.VSIFReadL(1, size, f) if size else b""
        return bytes(data or b"")
    finally:
        gdal.VSIFCloseL(f)


def read_vsi(path: str) -> bytes:
    """The bytes GDAL returns for a path tacoreader handed out (what its users would read)."""
    # GDAL reads "/vsisubfile/{offset}_0,{file}" as "from offset to the end of the file", so a
    # zero-byte sample's path yields the rest of the archive. The sample itself has no bytes.
    match = re.match(r"/vsisubfile/\d+_(\d+),", path)
    if match and int(match.group(1)) == 0:
        return b""
    return vsi_read(path)


def reference_files(ds, limit: int) -> list[tuple[str, str]]:
    """(ROWPATH, GDAL path) of up to `limit` FILE samples, breadth-first through tacoreader's
    navigation (padding skipped), spread over the whole tree."""
    found: list[tuple[str, str]] = []
    queue = [("", ds.data)]
    while queue and len(found) < 20 * limit:
        prefix, frame = queue.pop(0)
        table = frame.to_arrow()
        for i, row in enumerate(table.select(["id", "type", "internal:gdal_vsi"]).to_pylist()):
            if row["id"].startswith(PADDING_PREFIX):
                continue
            path = prefix + row["id"]
            if row["type"] == "FILE":
                found.append((path, row["internal:gdal_vsi"]))
            elif len(queue) < 50:
                queue.append((path + "/", frame.read(i)))
    if len(found) <= limit:
        return found
    step = len(found) / limit
    return [found[int(k * step)] for k in range(limit)]


def reference_folders(ds, limit: int) -> list[tuple[str, Any]]:
    """(ROWPATH, children table without padding) of up to `limit` FOLDER samples, level 0 first."""
    out: list[tuple[str, Any]] = []
    queue = [("", ds.data)]
    while queue and len(out) < limit:
        prefix, frame = queue.pop(0)
        table = frame.to_arrow()
        for i, row in enumerate(table.select(["id", "type"]).to_pylist()):
            if row["type"] != "FOLDER" or row["id"].startswith(PADDING_PREFIX) or len(out) >= limit:
                continue
            child = frame.read(i)
            out.append((prefix + row["id"], without_padding(child.to_arrow())))
            queue.append((prefix + row["id"] + "/", child))
    return out
