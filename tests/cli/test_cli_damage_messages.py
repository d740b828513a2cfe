"""What `taco` says about damaged values: the value as stored, one finding per fault, the file named.

Each case is a damage a hostile-input hunt found reported in a confusing way: an offset of -5
printed as 18446744073709551611, a range whose end wrapped below its start, an empty
COLLECTION.json called "malformed JSON", one wrong `type` repeated as a finding on every other
root row, a string `internal:parent_id` failing in export with no file named, and a descriptor
path the user wrote in a query blamed on the dataset.
"""

from __future__ import annotations

import io
import shutil
import struct
import subprocess
import zipfile
import zlib
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference" / "tacoreader"
FLAT_ZIP = FIXTURES / "zip/flat/flat.tacozip"
NESTED_FOLDER = FIXTURES / "folder/nested"


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=120)


def _zip_with_level0(tmp_path: Path, change) -> Path:
    """flat.tacozip rebuilt with level 0 passed through `change` (a pyarrow Table -> Table), its
    TACO_HEADER slots pointing at the new tables."""
    import pyarrow.parquet as pq

    src = zipfile.ZipFile(FLAT_ZIP)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr("TACO_HEADER", b"\0" * 116)
        for name in src.namelist():
            if name.startswith("DATA/"):
                z.writestr(name, src.read(name))
        table = change(pq.read_table(io.BytesIO(src.read("METADATA/level0.parquet"))))
        out = io.BytesIO()
        pq.write_table(table, out)
        z.writestr("METADATA/level0.parquet", out.getvalue())
        z.writestr("COLLECTION.json", src.read("COLLECTION.json"))
    data = bytearray(buf.getvalue())
    check = zipfile.ZipFile(io.BytesIO(bytes(data)))

    def data_range(name):
        info = check.getinfo(name)
        name_len, extra_len = struct.unpack_from("<HH", data, info.header_offset + 26)
        return info.header_offset + 30 + name_len + extra_len, info.file_size

    data[41] = 2
    for k, name in enumerate(("METADATA/level0.parquet", "COLLECTION.json")):
        struct.pack_into("<QQ", data, 45 + 16 * k, *data_range(name))
    return _sealed(data, tmp_path / "damaged.tacozip")


def _sealed(data: bytearray, path: Path) -> Path:
    """Writes `data` to `path` with the TACO_HEADER's CRC-32 (local and central) made right."""
    crc = zlib.crc32(bytes(data[41:157]))
    struct.pack_into("<I", data, 14, crc)
    struct.pack_into("<I", data, data.find(b"PK\x01\x02") + 16, crc)
    path.write_bytes(bytes(data))
    return path


def _set_first(table, column: str, value):
    import pyarrow as pa

    i = table.schema.get_field_index(column)
    values = table.column(i).to_pylist()
    values[0] = value
    return table.set_column(i, column, pa.array(values, table.schema.field(i).type))


def test_a_negative_offset_is_printed_as_stored(tmp_path):
    bad = _zip_with_level0(tmp_path, lambda t: _set_first(t, "internal:offset", -5))
    proc = taco("validate", bad)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "internal:offset/size (-5, " in proc.stdout, proc.stdout
    assert "18446744073709551611" not in proc.stdout


def test_one_wrong_type_is_one_finding(tmp_path):
    bad = _zip_with_level0(tmp_path, lambda t: _set_first(t, "type", "file"))
    proc = taco("validate", bad)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "type is 'file', expected FILE or FOLDER" in proc.stdout, proc.stdout
    # Before, every other root row got "root sample is a FILE but ... is a file".
    assert "pit.root-type" not in proc.stdout, proc.stdout


def _with_slot(tmp_path: Path, slot: int, offset: int, size: int) -> Path:
    data = bytearray(FLAT_ZIP.read_bytes())
    struct.pack_into("<QQ", data, 45 + 16 * slot, offset, size)
    return _sealed(data, tmp_path / "slot.tacozip")


def test_a_range_past_2_to_the_64_is_not_wrapped(tmp_path):
    offset = (1 << 64) - 100
    proc = taco("info", _with_slot(tmp_path, 0, offset, 200))
    assert proc.returncode == 1, proc.stderr
    assert f"bytes [{offset}, {offset} + 200)" in proc.stderr, proc.stderr


def test_an_empty_collection_slot_says_empty(tmp_path):
    data = FLAT_ZIP.read_bytes()
    collection_offset = struct.unpack_from("<Q", data, 45 + 16)[0]
    bad = _with_slot(tmp_path, 1, collection_offset, 0)
    info = taco("info", bad)
    assert info.returncode == 1, info.stderr
    assert "COLLECTION.json: the JSON document is empty (0 bytes)" in info.stderr, info.stderr
    validate = taco("validate", bad)
    assert validate.returncode == 1
    assert "the JSON document is empty" in validate.stdout, validate.stdout
    assert "COLLECTION.json: COLLECTION.json" not in validate.stdout, validate.stdout


def test_a_string_parent_id_is_refused_at_load_naming_the_table(tmp_path):
    import duckdb

    ds = tmp_path / "nested"
    shutil.copytree(NESTED_FOLDER, ds)
    level1 = ds / "METADATA" / "level1.parquet"
    tmp = tmp_path / "level1.parquet"
    duckdb.sql(
        f"COPY (SELECT * REPLACE (CAST(\"internal:parent_id\" AS VARCHAR) AS \"internal:parent_id\")"
        f" FROM read_parquet('{level1}')) TO '{tmp}' (FORMAT parquet)"
    )
    tmp.replace(level1)
    for args in (("info", ds), ("export", ds, tmp_path / "out.tacozip")):
        proc = taco(*args)
        assert proc.returncode == 1, (args, proc.stderr)
        assert "METADATA/level1.parquet: column 'internal:parent_id' has type string, expected int64" in proc.stderr, proc.stderr
    assert not (tmp_path / "out.tacozip").exists()


@pytest.mark.parametrize("path", ["/proc/self/fd/1", "/proc/self/fd/987"])
def test_a_descriptor_path_the_user_wrote_is_a_query_error(path):
    proc = taco("sql", FLAT_ZIP, f"SELECT * FROM read_parquet('{path}')")
    # The user's own file failed, not the dataset's metadata: a query error (exit 2), with the
    # path as written where DuckDB names it.
    assert proc.returncode == 2, proc.stderr
    assert "query failed" in proc.stderr, proc.stderr
    assert "cannot read the metadata" not in proc.stderr
    assert "metadata table in memory" not in proc.stderr


def test_a_folder_dataset_as_a_collection_part_is_named_a_directory(tmp_path):
    # It was "part '...' is missing (no such file)" for a directory that is there.
    folder = FIXTURES / "folder/flat"
    proc = taco("tacocat", FLAT_ZIP, folder, "-o", tmp_path / "coll")
    assert proc.returncode == 1, proc.stderr
    assert "is a directory: the parts of a collection are TACO ZIP files" in proc.stderr, proc.stderr
    assert "missing" not in proc.stderr
    assert not (tmp_path / "coll").exists()


@pytest.mark.parametrize("command", [
    ("export", "{ds}", "{out}", "--where", "nope = 1"),
    ("export", "{ds}", "{out}", "--where", "CAST(id AS INTEGER) = 1"),
    ("export", "{ds}", "{out}", "--sql", "SELECT * FROM data WHERE nope = 1"),
    ("export-stac", "{ds}", "{out}", "--where", "nope = 1"),
    ("stats", "{ds}", "--band", "0", "--where", "nope = 1"),
])
def test_a_wrong_query_in_any_command_is_a_query_error(tmp_path, command):
    # export, export-stac and stats ran the view without the message cleaning of sql(): the
    # internal `WITH data AS` rewrite was shown, with exit 1 (invalid data) instead of 2.
    args = [a.format(ds=FLAT_ZIP, out=tmp_path / "out") for a in command]
    proc = taco(*args)
    assert proc.returncode == 2, proc.stderr
    assert f"{FLAT_ZIP}: query failed: " in proc.stderr, proc.stderr
    assert "WITH data AS" not in proc.stderr and "LINE " not in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
