"""Golden tests of the writer: bytes and shapes pinned by FORMAT.md and by the reference.

* TACO_HEADER: the 157 bytes of FORMAT.md §2.2/§2.3, CRC-32 in the local header and the central
  directory, the same framing bytes as the reference fixture.
* ZIP layout (§2.1, §2.5): entry order, STORE, contiguous entries, no extras or descriptors.
* Metadata (§4.2, §4.4): a flat and a nested dataset made by `taco create` from the reference
  fixtures' own files and metadata have the fixtures' level and __meta__ schemas and values.
* COLLECTION.json (§5.1, §5.2): Python json.dumps(indent=4, ensure_ascii=False) bytes, key order.
* taco:pit_schema / taco:field_schema (§5.4, §5.5) and level/__meta__ schemas equal what
  tacotoolbox 0.26.9 writes for the same tree, except for the intended differences: we write
  taco_version "2.0.0", no "shape" key, and a column that is null everywhere is typed string.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import zipfile
import zlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

HEADER_NAME = b"TACO_HEADER"


@pytest.fixture(scope="module")
def api(tmp_path_factory, make_dataset, taco_expect):
    """api(case, fmt) -> (path, description, layout | None); each made once per module."""
    cache = {}

    def get(case: str, fmt: str = "zip"):
        if (case, fmt) not in cache:
            work = tmp_path_factory.mktemp(f"golden-{case}-{fmt}")
            out = work / ("out.tacozip" if fmt == "zip" else "out")
            desc = make_dataset(case, out, work / "sources")
            path = Path(desc["result"]["path"])
            cache[(case, fmt)] = (path, desc, taco_expect.parse_zip(path) if fmt == "zip" else None)
        return cache[(case, fmt)]

    return get


def collection_bytes(path: Path, layout) -> bytes:
    return layout.read("COLLECTION.json") if layout else (path / "COLLECTION.json").read_bytes()


# ---- TACO_HEADER ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["flat", "nested-3", "nested-4"])
def test_taco_header_is_the_157_bytes_of_format_md(api, case, fixtures_dir):
    path, desc, layout = api(case)
    raw = path.read_bytes()
    head = raw[:157]
    assert head[0:4] == b"PK\x03\x04"
    version, flags, method = struct.unpack_from("<HHH", head, 4)
    assert (version, flags, method) == (10, 0, 0)
    crc, csize, usize, nlen, xlen = struct.unpack_from("<IIIHH", head, 14)
    assert (csize, usize, nlen, xlen) == (116, 116, 11, 0)
    assert head[30:41] == HEADER_NAME
    payload = head[41:157]
    assert crc == zlib.crc32(payload)
    # Payload: count, 3 zero bytes, 7 (offset, length) u64 pairs: level files, then COLLECTION.json.
    levels = len(desc["result"]["level_rows"])
    names = [f"METADATA/level{i}.parquet" for i in range(levels)] + ["COLLECTION.json"]
    expected = [(layout.by_name[n].data_offset, layout.by_name[n].size) for n in names]
    assert payload[0] == levels + 1 and payload[1:4] == bytes(3)
    slots = [struct.unpack_from("<QQ", payload, 4 + 16 * i) for i in range(7)]
    assert slots == expected + [(0, 0)] * (7 - len(expected))
    # The entry is also the first central-directory record, with the same CRC.
    first = layout.entries[0]
    assert (first.name, first.lfh_offset, first.cd_crc) == ("TACO_HEADER", 0, crc)
    assert (first.cd_csize32, first.cd_usize32) == (116, 116)
    assert first.cd_external_attr == 0x01A40000 and first.cd_version_made_by == 0x033F
    assert layout.entries[1].lfh_offset == 157
    # Same framing bytes as the reference (all but DOS time/date and CRC).
    ref = (fixtures_dir / "tacoreader/zip/flat/flat.tacozip").read_bytes()[:157]
    assert head[0:10] == ref[0:10] and head[18:41] == ref[18:41]


# ---- ZIP layout ----------------------------------------------------------------------------------


def expected_entry_order(samples: list[dict], levels: int) -> list[str]:
    """FORMAT.md §2.1: header, FILE data depth-first in sample order, __meta__ deepest level first
    and code-point sorted within a level, level files, COLLECTION.json."""
    data: list[str] = []
    metas: dict[int, list[str]] = {}

    def walk(nodes, prefix, depth):
        for n in nodes:
            if n["type"] == "FOLDER":
                metas.setdefault(depth, []).append(prefix + n["id"] + "/__meta__")
                walk(n["children"], prefix + n["id"] + "/", depth + 1)
            else:
                data.append(prefix + n["id"])

    walk(samples, "DATA/", 0)
    meta_order = [m for depth in sorted(metas, reverse=True) for m in sorted(metas[depth])]
    return ["TACO_HEADER", *data, *meta_order, *[f"METADATA/level{i}.parquet" for i in range(levels)], "COLLECTION.json"]


def fixture_tree(fixtures_dir: Path, name: str) -> list[dict]:
    """The sample tree of a reference FOLDER fixture, from its level tables (row order)."""
    root = fixtures_dir / "tacoreader/folder" / name / "METADATA"
    levels = sorted(root.glob("level*.parquet"))
    tables = [pq.read_table(p).to_pylist() for p in levels]
    nodes = [[{"id": r["id"], "type": r["type"], "children": []} for r in t] for t in tables]
    for depth in range(1, len(tables)):
        for row, node in zip(tables[depth], nodes[depth]):
            nodes[depth - 1][row["internal:parent_id"]]["children"].append(node)
    return nodes[0]


def test_entry_order_rule_matches_the_reference_fixture(fixtures_dir, taco_expect):
    """The oracle below is right: it reproduces the reference's own nested order."""
    tree = fixture_tree(fixtures_dir, "nested")
    layout = taco_expect.parse_zip(fixtures_dir / "tacoreader/zip/nested/nested.tacozip")
    assert layout.names() == expected_entry_order(tree, 2)


@pytest.mark.parametrize("case", ["flat", "nested-2", "nested-3", "nested-4", "padding", "unicode", "zero-bytes"])
def test_zip_entry_order_and_framing(api, case):
    path, desc, layout = api(case)
    levels = len(desc["result"]["level_rows"])
    assert layout.names() == expected_entry_order(desc["samples"], levels)
    raw = path.read_bytes()
    position = 0
    for e in layout.entries:
        assert e.lfh_offset == position, f"{e.name}: gap or overlap before it"
        name = e.name.encode()
        assert e.data_offset == e.lfh_offset + 30 + len(name)  # no extra fields
        assert (e.lfh_method, e.cd_method, e.lfh_version, e.cd_version) == (0, 0, 10, 10), e.name
        utf8 = 0x800 if any(b > 127 for b in name) else 0
        assert e.lfh_flags == e.cd_flags == utf8, e.name  # no data descriptor, UTF-8 flag only if needed
        assert e.lfh_extra == e.cd_extra == e.cd_comment == b"", e.name
        data = raw[e.data_offset : e.data_offset + e.size]
        assert e.lfh_crc == e.cd_crc == zlib.crc32(data), e.name
        assert e.lfh_csize32 == e.lfh_usize32 == e.cd_csize32 == e.cd_usize32 == e.size
        assert e.cd_disk == 0
        position = e.data_offset + e.size
    assert layout.cd_offset == position, "central directory right after the last entry"
    assert layout.zip64_eocd is None, "a small archive has no ZIP64 records"
    assert layout.eocd_offset == layout.cd_offset + layout.cd_size
    assert layout.eocd_offset + 22 == layout.file_size, "no archive comment"
    assert layout.eocd["entries"] == layout.eocd["entries_on_disk"] == len(layout.entries)


def test_level1_offsets_follow_sample_order_not_sorted_folders(api, taco_expect):
    """FORMAT.md §4.3: the reference pastes level-1 offsets in sorted-folder order; we must not.
    nested-2 has roots europe, americas, asia: any such paste would misplace every row."""
    path, desc, layout = api("nested-2")
    level1 = pq.read_table(io.BytesIO(layout.read("METADATA/level1.parquet")))
    rel = level1.column("internal:relative_path").to_pylist()
    assert rel[:3] == ["europe/item_0", "europe/item_1", "europe/item_2"]
    offsets = level1.column("internal:offset").to_pylist()
    sizes = level1.column("internal:size").to_pylist()
    data = {f"{root['id']}/{kid['id']}": taco_expect.sample_data(kid)
            for root in desc["samples"] for kid in root["children"]}
    for r, o, s in zip(rel, offsets, sizes):
        e = layout.by_name["DATA/" + r]
        assert (o, s) == (e.data_offset, e.size), r
        assert path.read_bytes()[o : o + s] == data[r], r


# ---- metadata shapes against the reference fixtures ----------------------------------------------


def schema_of(table: pa.Table, taco_expect) -> list[tuple[str, str]]:
    return [(f.name, taco_expect.arrow_type_name(f.type)) for f in table.schema]


def without_internal(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if not k.startswith("internal:")} for r in rows]


@pytest.fixture(scope="module")
def flat_like_fixture(tmp_path_factory, fixtures_dir, run_taco):
    """`taco create` from the flat fixture's own files, with its level0 columns as a table."""
    work = tmp_path_factory.mktemp("flat-like")
    src = work / "src"
    src.mkdir()
    fixture = fixtures_dir / "tacoreader/folder/flat"
    for f in (fixture / "DATA").iterdir():
        (src / f.name).write_bytes(f.read_bytes())
    level0 = pq.read_table(fixture / "METADATA/level0.parquet")
    table = level0.drop_columns([c for c in level0.column_names if c.startswith("internal:") or c == "type"])
    table = table.rename_columns(["path" if c == "id" else c for c in table.column_names])
    pq.write_table(table, work / "meta.parquet")
    outputs = {}
    for fmt, name in [("zip", "flat.tacozip"), ("folder", "flat")]:
        run_taco("create", "--from", src, work / name, "--metadata", work / "meta.parquet", "--id", "flat", "--json")
        outputs[fmt] = work / name
    return outputs


def test_flat_dataset_has_the_fixture_level0(flat_like_fixture, fixtures_dir, taco_expect):
    ref_zip = taco_expect.parse_zip(fixtures_dir / "tacoreader/zip/flat/flat.tacozip")
    ours = taco_expect.parse_zip(flat_like_fixture["zip"])
    ref0 = pq.read_table(io.BytesIO(ref_zip.read("METADATA/level0.parquet")))
    our0 = pq.read_table(io.BytesIO(ours.read("METADATA/level0.parquet")))
    assert schema_of(our0, taco_expect) == schema_of(ref0, taco_expect)
    assert without_internal(our0.to_pylist()) == without_internal(ref0.to_pylist())
    # Same names and sizes give the reference's byte layout: data at 200, 259, 315, 369, 425.
    for col in ["internal:current_id", "internal:parent_id", "internal:offset", "internal:size"]:
        assert our0.column(col).to_pylist() == ref0.column(col).to_pylist(), col
    assert ours.names()[:6] == ref_zip.names()[:6]
    assert ours.by_name["METADATA/level0.parquet"].data_offset == 490
    # FOLDER: same minus offset/size.
    ref_folder = pq.read_table(fixtures_dir / "tacoreader/folder/flat/METADATA/level0.parquet")
    our_folder = pq.read_table(flat_like_fixture["folder"] / "METADATA/level0.parquet")
    assert schema_of(our_folder, taco_expect) == schema_of(ref_folder, taco_expect)
    assert our_folder.to_pylist() == ref_folder.to_pylist()


def test_flat_dataset_collection_agrees_with_the_fixture(flat_like_fixture, fixtures_dir):
    ref = json.loads((fixtures_dir / "tacoreader/folder/flat/COLLECTION.json").read_bytes())
    ours = json.loads((flat_like_fixture["folder"] / "COLLECTION.json").read_bytes())
    assert list(ours) == list(ref)
    assert ours["taco:pit_schema"] == ref["taco:pit_schema"]
    strip = lambda fs: {lvl: [(n, t) for n, t, _ in cols] for lvl, cols in fs.items()}  # noqa: E731
    assert strip(ours["taco:field_schema"]) == strip(ref["taco:field_schema"])
    # Extent from istac:centroid / istac:time_start (these points do not cross the antimeridian).
    assert ours["extent"] == ref["extent"]
    with zipfile.ZipFile(flat_like_fixture["zip"]) as zf:
        assert zf.read("COLLECTION.json") == (flat_like_fixture["folder"] / "COLLECTION.json").read_bytes()


@pytest.fixture(scope="module")
def nested_like_fixture(tmp_path_factory, fixtures_dir, run_taco):
    """`taco create` from the nested fixture's files; one table holds both levels' columns."""
    work = tmp_path_factory.mktemp("nested-like")
    src = work / "src"
    fixture = fixtures_dir / "tacoreader/folder/nested"
    for f in (fixture / "DATA").rglob("*"):
        if f.is_file() and f.name != "__meta__":
            dest = src / f.relative_to(fixture / "DATA")
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(f.read_bytes())
    l0 = pq.read_table(fixture / "METADATA/level0.parquet")
    l1 = pq.read_table(fixture / "METADATA/level1.parquet")
    l0 = l0.drop_columns([c for c in l0.column_names if c.startswith("internal:") or c == "type"])
    l0 = l0.rename_columns(["path" if c == "id" else c for c in l0.column_names])
    rel = l1.column("internal:relative_path")
    l1 = l1.drop_columns([c for c in l1.column_names if c.startswith("internal:") or c in ("type", "id")])
    l1 = l1.append_column("path", rel)
    table = pa.concat_tables([l0, l1], promote_options="default")
    pq.write_table(table, work / "meta.parquet")
    outputs = {}
    for fmt, name in [("zip", "nested.tacozip"), ("folder", "nested")]:
        run_taco("create", "--from", src, work / name, "--metadata", work / "meta.parquet", "--id", "nested", "--json")
        outputs[fmt] = work / name
    return outputs


def _rows_by_path(table: pa.Table, level: int) -> dict:
    key = "internal:relative_path" if level else "id"
    return {r[key]: {k: v for k, v in r.items() if not k.startswith("internal:")} for r in table.to_pylist()}


def test_nested_dataset_has_the_fixture_levels_and_meta(nested_like_fixture, fixtures_dir, taco_expect):
    ref_zip = taco_expect.parse_zip(fixtures_dir / "tacoreader/zip/nested/nested.tacozip")
    ours = taco_expect.parse_zip(nested_like_fixture["zip"])
    for level in (0, 1):
        name = f"METADATA/level{level}.parquet"
        ref = pq.read_table(io.BytesIO(ref_zip.read(name)))
        our = pq.read_table(io.BytesIO(ours.read(name)))
        assert schema_of(our, taco_expect) == schema_of(ref, taco_expect), name
        assert _rows_by_path(our, level) == _rows_by_path(ref, level), name
        ref_f = pq.read_table(fixtures_dir / "tacoreader/folder/nested/METADATA" / f"level{level}.parquet")
        our_f = pq.read_table(nested_like_fixture["folder"] / "METADATA" / f"level{level}.parquet")
        assert schema_of(our_f, taco_expect) == schema_of(ref_f, taco_expect), name
    for region in ["europe", "americas", "asia"]:
        name = f"DATA/{region}/__meta__"
        ref = pq.read_table(io.BytesIO(ref_zip.read(name)))
        our = pq.read_table(io.BytesIO(ours.read(name)))
        assert schema_of(our, taco_expect) == schema_of(ref, taco_expect), name
        assert without_internal(our.to_pylist()) == without_internal(ref.to_pylist()), name
        ref_f = pq.read_table(fixtures_dir / "tacoreader/folder/nested" / name)
        our_f = pq.read_table(nested_like_fixture["folder"] / name)
        assert schema_of(our_f, taco_expect) == schema_of(ref_f, taco_expect), name
        assert our_f.to_pylist() == ref_f.to_pylist(), name
    ref_c = json.loads((fixtures_dir / "tacoreader/folder/nested/COLLECTION.json").read_bytes())
    our_c = json.loads((nested_like_fixture["folder"] / "COLLECTION.json").read_bytes())
    assert our_c["taco:pit_schema"] == ref_c["taco:pit_schema"]
    strip = lambda fs: {lvl: [(n, t) for n, t, _ in cols] for lvl, cols in fs.items()}  # noqa: E731
    assert strip(our_c["taco:field_schema"]) == strip(ref_c["taco:field_schema"])


# ---- COLLECTION.json -----------------------------------------------------------------------------

CORE_KEYS = ["id", "dataset_version", "description", "licenses", "providers", "tasks", "taco_version",
             "title", "curators", "keywords", "extent"]


def python_dump(doc) -> bytes:
    return json.dumps(doc, indent=4, ensure_ascii=False).encode("utf-8")


@pytest.mark.parametrize("case", ["every-types", "unicode", "stac", "stac-antimeridian", "padding", "nested-3"])
def test_collection_json_is_python_formatted_and_same_in_zip_and_folder(api, case):
    zpath, _, zlayout = api(case, "zip")
    fpath, _, _ = api(case, "folder")
    zipped, folder = collection_bytes(zpath, zlayout), collection_bytes(fpath, None)
    assert zipped == folder
    doc = json.loads(zipped)
    assert zipped == python_dump(doc)
    assert list(doc) == [*CORE_KEYS, "taco:pit_schema", "taco:field_schema"]
    assert doc["taco_version"] == "2.0.0"


def test_collection_file_extensions_keep_order_and_python_number_format(tmp_path, run_taco):
    """Numbers, escapes and raw UTF-8 written exactly as Python's json.dumps would."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"a")
    extensions = {
        "zeta:numbers": [0.1, 1e-07, 1e16, 1.5e300, -0.0, 5e-324, 123456789.123, 100.0, 2**63 - 1, -(2**63)],
        "alpha:text": "tab\t quote\" backslash\\ ctrl\x01 del\x7f nbsp\u00a0 sep\u2028 emoji 🌍 ñ",
        "labels:classes": [{"name": "water", "category": 0}, {}, [], {"nested": {"deep": [None, True, False]}}],
    }
    collection = {"id": "fmt", "description": "Ñandú", "licenses": ["CC0-1.0"], "tasks": ["other"],
                  "providers": [{"name": "P", "roles": ["producer"], "url": "https://example.org", "links": None}],
                  "keywords": ["日本"], **extensions}
    (tmp_path / "c.json").write_text(json.dumps(collection, ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "out"
    run_taco("create", "--from", src, out, "--collection", tmp_path / "c.json")
    raw = (out / "COLLECTION.json").read_bytes()
    doc = json.loads(raw)
    assert raw == python_dump(doc)
    assert list(doc) == [*CORE_KEYS, *extensions, "taco:pit_schema", "taco:field_schema"]
    for key, value in extensions.items():
        assert json.dumps(doc[key]) == json.dumps(value), key
    assert doc["providers"] == collection["providers"]


def test_reference_collection_files_are_python_formatted(fixtures_dir):
    """Sanity check of the oracle: the reference's own files are json.dumps(indent=4) bytes."""
    for path in fixtures_dir.glob("*/folder/*/COLLECTION.json"):
        raw = path.read_bytes()
        assert raw == python_dump(json.loads(raw)), path


# ---- pit_schema / field_schema / table schemas against tacotoolbox on the same tree --------------


def _pa_type(name: str) -> pa.DataType:
    simple = {"string": pa.string(), "int64": pa.int64(), "int32": pa.int32(), "double": pa.float64(),
              "float": pa.float32(), "bool": pa.bool_(), "timestamp[us]": pa.timestamp("us"),
              "binary": pa.binary(), "null": pa.string()}  # all-null columns: tacocore writes string
    if name in simple:
        return simple[name]
    assert name.startswith("list<item: ") and name.endswith(">"), name
    return pa.list_(_pa_type(name[len("list<item: ") : -1]))


def _py_value(value, t: pa.DataType):
    if value is None:
        return None
    if pa.types.is_binary(t):
        return bytes.fromhex(value)
    if pa.types.is_list(t):
        return [_py_value(v, t.value_type) for v in value]
    return value


def build_with_tacotoolbox(desc: dict, output: Path, temp_dir: Path):
    """The same tree as a tacocore description, written by the reference writer."""
    tacotoolbox = pytest.importorskip("tacotoolbox")
    from tacotoolbox.sample.datamodel import Sample
    from tacotoolbox.taco.datamodel import Taco
    from tacotoolbox.tortilla.datamodel import Tortilla

    def build(nodes):
        samples = []
        for n in nodes:
            assert not n["padding"], "tacotoolbox 0.26 has no padding"
            if n["type"] == "FOLDER":
                s = Sample(id=n["id"], path=build(n["children"]))
            else:
                s = Sample(id=n["id"], path=base64.b64decode(n["data_b64"]), temp_dir=temp_dir)
            if n["fields"]:
                schema = pa.schema([pa.field(name, _pa_type(t)) for name, t, _ in n["fields"]])
                s.extend_with(pa.table({name: [_py_value(v, schema.field(name).type)] for name, _, v in n["fields"]},
                                       schema=schema))
            samples.append(s)
        return Tortilla(samples)

    taco = Taco(tortilla=build(desc["samples"]), id=desc["collection"]["id"], dataset_version="1.0.0",
                description="reference", licenses=["CC-BY-4.0"], providers=[{"name": "tacocore tests"}],
                tasks=["other"])
    tacotoolbox.create(taco, str(output))


def _meta_files(root: Path) -> list[Path]:
    return sorted(p.relative_to(root) for p in (root / "DATA").rglob("__meta__"))


# nested-2 is left out: its level-1 key "_under" cannot be written by tacotoolbox (pydantic takes
# attributes starting with "_" as private and drops them); nested-3 covers the level >= 1 sort.
@pytest.mark.parametrize("case", ["flat", "every-types", "nested-3", "nested-4", "unicode", "stac"])
def test_schemas_match_tacotoolbox_for_the_same_tree(api, case, tmp_path, taco_expect):
    ours, desc, _ = api(case, "folder")
    ref = tmp_path / "reference"
    build_with_tacotoolbox(desc, ref, tmp_path)
    our_c = json.loads((ours / "COLLECTION.json").read_bytes())
    ref_c = json.loads((ref / "COLLECTION.json").read_bytes())
    ref_pit = {k: v for k, v in ref_c["taco:pit_schema"].items() if k != "shape"}  # newer reference key
    assert our_c["taco:pit_schema"] == ref_pit
    assert our_c["taco:field_schema"] == ref_c["taco:field_schema"]
    assert ref_c["taco_version"] == "0.5.0" and our_c["taco_version"] == "2.0.0"  # intended difference
    levels = len(desc["result"]["level_rows"])
    for level in range(levels):
        name = f"METADATA/level{level}.parquet"
        our_t, ref_t = pq.read_table(ours / name), pq.read_table(ref / name)
        assert schema_of(our_t, taco_expect) == schema_of(ref_t, taco_expect), name
        assert our_t.to_pylist() == ref_t.to_pylist(), name
    assert _meta_files(ours) == _meta_files(ref)
    for rel in _meta_files(ours):
        our_t, ref_t = pq.read_table(ours / rel), pq.read_table(ref / rel)
        assert schema_of(our_t, taco_expect) == schema_of(ref_t, taco_expect), rel
        assert our_t.to_pylist() == ref_t.to_pylist(), rel


def level_offset_mismatches(layout, level: int) -> list[str]:
    """Rows of a ZIP level table whose internal:offset/size do not name their own entry."""
    table = pq.read_table(io.BytesIO(layout.read(f"METADATA/level{level}.parquet")))
    bad = []
    for row in table.to_pylist():
        rel = row.get("internal:relative_path") or row["id"] + ("/" if row["type"] == "FOLDER" else "")
        entry = layout.by_name["DATA/" + rel + ("__meta__" if row["type"] == "FOLDER" else "")]
        if (row["internal:offset"], row["internal:size"]) != (entry.data_offset, entry.size):
            bad.append(rel)
    return bad


def test_offset_check_catches_the_reference_defect_and_passes_ours(api, fixtures_dir, taco_expect):
    """The offset check bites: it finds FORMAT.md §4.3 in the reference file, and nothing in ours."""
    ref = taco_expect.parse_zip(fixtures_dir / "tacoreader/zip/nested/nested.tacozip")
    assert level_offset_mismatches(ref, 0) == []
    assert len(level_offset_mismatches(ref, 1)) == 9
    _, desc, ours = api("nested-2")
    assert [level_offset_mismatches(ours, lvl) for lvl in (0, 1)] == [[], []]


def _wkb_point(x: float, y: float) -> bytes:
    return struct.pack("<BIdd", 1, 1, x, y)


@pytest.mark.parametrize("given", [False, True])
def test_extent_is_computed_only_when_none_is_given(tmp_path, run_taco, given):
    """FORMAT.md §5.3 / DESIGN: computed from stac:centroid, and in time from the earliest
    time_start to the latest time_end (time_middle standing in for a missing end; the reference
    takes min/max of time_middle, USER-GUIDE §13 "Writing space/time extensions"); a user extent
    is kept as given."""
    src = tmp_path / "src"
    src.mkdir()
    points = {"a.bin": (10.0, 45.0), "b.bin": (-20.5, 30.25), "c.bin": (5.0, -60.0)}
    for name in points:
        (src / name).write_bytes(name.encode())
    us = 1_000_000
    table = pa.table({
        "path": list(points),
        "stac:centroid": [_wkb_point(*p) for p in points.values()],
        "stac:time_start": pa.array([0, 10 * us, 20 * us], pa.timestamp("us")),
        "stac:time_middle": pa.array([86400 * us, 2 * 86400 * us + 1, 3 * 86400 * us], pa.timestamp("us")),
    })
    pq.write_table(table, tmp_path / "meta.parquet")
    user = {"spatial": [-1.5, -2.0, 3.0, 4.0], "temporal": ["2020-01-01T00:00:00Z", "2020-12-31T00:00:00Z"]}
    collection = {"id": "extent", **({"extent": user} if given else {})}
    (tmp_path / "c.json").write_text(json.dumps(collection))
    out = tmp_path / "out"
    run_taco("create", "--from", src, out, "--metadata", tmp_path / "meta.parquet", "--collection", tmp_path / "c.json")
    extent = json.loads((out / "COLLECTION.json").read_bytes())["extent"]
    if given:
        assert extent == user
    else:
        assert extent == {"spatial": [-20.5, -60.0, 10.0, 45.0],
                          "temporal": ["1970-01-01T00:00:00Z", "1970-01-04T00:00:00Z"]}


def test_pit_schema_counts_padding_and_takes_the_fullest_folder(api):
    """FORMAT.md §5.4: n counts padding rows; the level-1 pattern is the first folder with the
    most real children (r2 has two real children and two pads, r1 and r0 three and one)."""
    path, desc, layout = api("padding")
    pit = json.loads(layout.read("COLLECTION.json"))["taco:pit_schema"]
    assert pit == {"root": {"n": 3, "type": "FOLDER"},
                   "hierarchy": {"1": [{"n": 12, "type": ["FILE"] * 4,
                                        "id": ["k0", "k1", "k2", "__TACOPAD__0"]}]}}
    path, desc, layout = api("padding-flat")
    pit = json.loads(layout.read("COLLECTION.json"))["taco:pit_schema"]
    assert pit == {"root": {"n": 8, "type": "FILE"}, "hierarchy": {}}
