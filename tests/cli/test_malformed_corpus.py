"""Malformed corpus (hardening issue): broken datasets generated from a good one — truncations at
every structural boundary, a flipped byte in every TACO_HEADER byte, offsets past EOF,
overlapping and negative, wrong types in metadata columns, bad UTF-8, duplicate and hostile ids,
broken COLLECTION.json. Each case names the error it must give (exit code and a message
fragment); none may crash (exit >= 128), hang (timeout) or print bytes from outside the dataset.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
SECRET = b"root:x:0:0"  # what /etc/passwd starts with: must never appear in any output


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, timeout=60)


@pytest.fixture(scope="session")
def base(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("corpus")
    src = root / "in"
    for s in ("s1", "s2", "s3"):
        for f in ("a.bin", "b.bin"):
            (src / s).mkdir(parents=True, exist_ok=True)
            (src / s / f).write_bytes(f"{s}/{f}".encode() * 10)
    zpath, fpath = root / "base.tacozip", root / "base"
    for out in (zpath, fpath):
        assert taco("create", "--from", src, out).returncode == 0
    return {"zip": zpath.read_bytes(), "folder": fpath}


def zip_boundaries(data: bytes) -> list[int]:
    """Every local header, data start, central record and end record offset, and their +1/-1."""
    points = {0, 1, 4, 26, 30, 41, 45, 100, 156, 157, len(data) - 22, len(data) - 1}
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        points.add(at)
        lfh = struct.unpack_from("<I", data, at + 42)[0]
        name_len = struct.unpack_from("<H", data, lfh + 26)[0]
        points.update({lfh, lfh + 30, lfh + 30 + name_len})
        at = data.find(b"PK\x01\x02", at + 4)
    return sorted(p for p in points if 0 <= p < len(data))


def check(proc: subprocess.CompletedProcess, codes: set[int], fragments: tuple[str, ...]) -> None:
    out = proc.stdout + proc.stderr
    assert proc.returncode < 128, f"crashed: exit {proc.returncode}\n{proc.stderr[-2000:]!r}"
    assert SECRET not in out
    assert proc.returncode in codes, (proc.returncode, proc.stderr[-500:])
    if proc.returncode != 0:
        text = out.decode(errors="replace")
        assert any(f in text for f in fragments), (fragments, text[-500:])
        assert len(proc.stderr) < 5000, "message too long"
        assert "/proc/self/fd" not in text and "WITH data AS" not in text


# --- ZIP: truncations at every structural boundary --------------------------------------------

TRUNCATION_FRAGMENTS = ("TACO_HEADER", "past", "outside", "Parquet", "truncated", "end of file", "bytes")


def _zip_case(tmp_path: Path, data: bytes) -> Path:
    p = tmp_path / "case.tacozip"
    p.write_bytes(data)
    return p


def test_zip_truncations(base, tmp_path):
    data = base["zip"]
    cases = zip_boundaries(data)
    assert len(cases) >= 40
    for cut in cases:
        p = _zip_case(tmp_path, data[:cut])
        # `info` reads only the header and the metadata it points at (FORMAT.md §2.3): a cut in
        # the central directory after them may still load; validate always reports it.
        after_metadata = cut >= max(o + n for o, n in struct.iter_unpack("<QQ", data[45:157]))
        check(taco("info", p), {0, 1, 2} if after_metadata else {1, 2}, TRUNCATION_FRAGMENTS)
        check(taco("validate", p), {1}, ("error",))


# --- ZIP: every byte of the TACO_HEADER flipped -----------------------------------------------

@pytest.mark.parametrize("byte", range(157))
def test_zip_header_byte_flipped(base, tmp_path, byte):
    data = bytearray(base["zip"])
    data[byte] ^= 0x5A
    p = _zip_case(tmp_path, bytes(data))
    # Version, flags and time fields (4-13) carry no meaning for readers: those may still load.
    harmless = 4 <= byte < 14
    check(taco("info", p), {0, 1} if harmless else {1},
          ("TACO_HEADER", "Parquet", "past", "not a TACO", "root.n", "COLLECTION.json"))
    check(taco("validate", p), {0, 1} if harmless else {1}, ("error",))


# --- ZIP: slot offsets past EOF, overlapping, negative ----------------------------------------

@pytest.mark.parametrize("slot,offset,size,fragment", [
    (0, 1 << 40, 100, "truncated file or wrong offset"),
    (0, 0, 1 << 62, "truncated file or wrong offset"),
    (0, (1 << 64) - 1, 10, "truncated file or wrong offset"),     # a negative int64
    (1, 0, 157, "not a Parquet file"),                            # overlaps the header
    (0, 41, 116, "not a Parquet file"),                           # the header's own payload
    (2, 0, 0, "COLLECTION.json"),                                 # empty document
])
def test_zip_bad_slots(base, tmp_path, slot, offset, size, fragment):
    data = bytearray(base["zip"])
    struct.pack_into("<QQ", data, 45 + 16 * slot, offset, size)
    struct.pack_into("<I", data, 14, zlib.crc32(bytes(data[41:157])))
    p = _zip_case(tmp_path, bytes(data))
    check(taco("info", p), {1}, (fragment,))


# --- FOLDER: wrong types in metadata columns, hostile ids, bad UTF-8 ---------------------------

def _folder_case(base, tmp_path) -> Path:
    p = tmp_path / "case"
    shutil.copytree(base["folder"], p)
    return p


def _rewrite_level(path: Path, level: int, select: str) -> None:
    import duckdb

    f = path / f"METADATA/level{level}.parquet"
    tmp = f.with_suffix(".new")
    duckdb.sql(f"COPY (SELECT {select} FROM read_parquet('{f}')) TO '{tmp}' (FORMAT parquet)")
    tmp.replace(f)


@pytest.mark.parametrize("column,expr,fragment", [
    ("id", "CAST(length(id) AS BIGINT)", "column 'id' has type"),
    ("type", "42", "column 'type' has type"),
    ("internal:relative_path", "CAST(1.5 AS DOUBLE)", "column 'internal:relative_path' has type"),
    ("id", "NULL::VARCHAR", "null"),
    ("type", "'SYMLINK'", "SYMLINK"),
])
def test_folder_wrong_column_types(base, tmp_path, column, expr, fragment):
    p = _folder_case(base, tmp_path)
    level = 1 if column == "internal:relative_path" else 0
    _rewrite_level(p, level, f'* REPLACE ({expr} AS "{column}")')
    info, validate = taco("info", p), taco("validate", p)
    check(validate, {1}, ("error",))
    check(info, {0, 1, 2}, (fragment, "column", "type"))


HOSTILE_IDS = ["../../../../../../etc/passwd", "..", ".", "/etc/passwd", "a/b", "a\\\\b", "x" * 100_000,
               "__meta__", "", "s1"]


@pytest.mark.parametrize("hostile", range(len(HOSTILE_IDS)))
def test_folder_hostile_and_duplicate_ids(base, tmp_path, hostile):
    p = _folder_case(base, tmp_path)
    value = HOSTILE_IDS[hostile].replace("'", "''")
    _rewrite_level(p, 0, f"* REPLACE (CASE WHEN id = 's2' THEN '{value}' ELSE id END AS id)")
    proc = taco("validate", p, "--json")
    check(proc, {1}, ("",))
    codes = {f["code"] for f in json.loads(proc.stdout)["findings"]}
    assert codes & {"row.id", "row.duplicate-id", "folder.missing-file", "row.relative-path"}, codes
    for args in (["info", p], ["ls", p, "--json"], ["sql", p, "SELECT * FROM data"]):
        check(taco(*args), {0, 1, 2}, ("",))


@pytest.mark.parametrize("raw", [b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x00"])
def test_folder_bad_utf8_in_collection(base, tmp_path, raw):
    p = _folder_case(base, tmp_path)
    doc = (p / "COLLECTION.json").read_bytes()
    (p / "COLLECTION.json").write_bytes(doc.replace(b'"description": "', b'"description": "' + raw, 1))
    check(taco("info", p), {0, 1}, ("COLLECTION.json",))
    check(taco("validate", p), {0, 1}, ("error",))


# --- COLLECTION.json: broken documents ----------------------------------------------------------

def _doc_cases(doc: dict) -> list[tuple[str, str]]:
    text = json.dumps(doc)
    cases = [
        ("", "the JSON document is empty"),
        (" \n", "the JSON document is empty"),
        ("{", "malformed JSON"),
        ("[]", "JSON object"),
        ("null", "JSON object"),
        (text[:-1], "malformed JSON"),
        (text.replace('"id":', '"id": 1, "id":', 1), "duplicate key"),
        ("[" * 300 + "]" * 300, "nested deeper than 256"),
        (text[:-1] + ', "x": ' + "1" * 100_000 + "e999999}", "malformed JSON"),
    ]
    for key in ("id", "taco:pit_schema"):  # a missing taco_version loads, as in the reference
        broken = dict(doc)
        broken.pop(key)
        cases.append((json.dumps(broken), key))
    for key, bad in (("id", 5), ("licenses", "MIT"), ("providers", 3), ("taco:pit_schema", []),
                     ("extent", "world"), ("keywords", {"a": 1})):
        broken = dict(doc)
        broken[key] = bad
        cases.append((json.dumps(broken), key))
    pit = json.loads(text)
    pit["taco:pit_schema"]["root"]["n"] = 99
    cases.append((json.dumps(pit), "root.n is 99"))
    return cases


def test_broken_collection_documents(base, tmp_path):
    doc = json.loads((base["folder"] / "COLLECTION.json").read_text())
    cases = _doc_cases(doc)
    assert len(cases) >= 17
    for i, (text, fragment) in enumerate(cases):
        p = tmp_path / f"c{i}"
        shutil.copytree(base["folder"], p)
        (p / "COLLECTION.json").write_text(text)
        check(taco("info", p), {1}, (fragment, "COLLECTION.json"))
        check(taco("validate", p), {1}, ("error",))
