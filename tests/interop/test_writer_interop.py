"""Writer interop matrix: datasets made by tacocore load in the reference reader.

Every dataset is made twice (ZIP and FOLDER), either through the C++ API
(build/bin/taco_make_dataset, tests/tools/taco_make_dataset.cpp) or by `taco create --from DIR`.
For each one:
  * tacoreader (PyPI) loads it, and its `.data`, `.sql()` views and `.read()` navigation agree
    with what was written;
  * every FILE read through its `internal:gdal_vsi` path with GDAL gives the source bytes;
  * the level tables and every `__meta__` read with pyarrow hold the expected columns (names,
    types, order; FORMAT.md §4.2, §4.4) and values, and ZIP offsets/sizes point at the entries;
  * tacozip reads the TACO_HEADER and recomputes exactly the bytes we wrote.
The ZIP64 cases (70,000 entries, > 4 GiB) live in test_zip64.py.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

tacoreader = pytest.importorskip("tacoreader")
tacozip = pytest.importorskip("tacozip")

API_CASES = [
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
]
CLI_CASES = ["cli-nested-table", "cli-flat-csv", "cli-unicode-zero"]
FORMATS = ["zip", "folder"]
MATRIX = [(case, fmt) for case in API_CASES + CLI_CASES for fmt in FORMATS]

GLOBAL = [-180.0, -90.0, 180.0, 90.0]
EXPECTED_EXTENT = {
    "stac": {"spatial": [-77.0, -12.0, 13.4, 52.5],
             "temporal": ["2023-01-01T00:00:00Z", "2023-06-15T12:30:00.250000Z"]},
    # West > east: the box crosses the antimeridian instead of spanning the globe.
    "stac-antimeridian": {"spatial": [170.0, -19.0, -172.0, -13.8],
                          "temporal": ["2022-05-01T00:00:00Z", "2022-05-04T00:00:00Z"]},
}


# ---- `taco create --from DIR` datasets and their descriptions -----------------------------------


def _file_node(path: Path, fields: list) -> dict:
    return {"id": path.name, "type": "FILE", "padding": False, "fields": fields,
            "size": path.stat().st_size, "source": str(path)}


def describe_directory(root: Path, table: dict[str, dict], columns: list[tuple[str, str]], pad_to: int | None):
    """What `taco create --from root --metadata TABLE [--pad-to N]` is documented to build.

    Entries sorted by name, hidden ones skipped; at each level a table column with a value there
    is given to every sample of the level (null where the table has none), in table order;
    padding appends __TACOPAD__N FILEs with null fields.
    """
    def scan(d: Path, rel: str) -> list[tuple[str, Path]]:
        return [(rel + p.name, p) for p in sorted(d.iterdir(), key=lambda p: p.name.encode()) if not p.name.startswith(".")]

    def used_columns(entries, level, used):
        used.setdefault(level, set())
        for rel, p in entries:
            for name, value in table.get(rel, {}).items():
                if value is not None:
                    used[level].add(name)
            if p.is_dir():
                used_columns(scan(p, rel + "/"), level + 1, used)

    used: dict[int, set] = {}
    used_columns(scan(root, ""), 0, used)

    def build(entries, level) -> list[dict]:
        cols = [(n, t) for n, t in columns if n in used.get(level, set())]
        nodes = []
        for rel, p in entries:
            fields = [[n, t, table.get(rel, {}).get(n)] for n, t in cols]
            if p.is_dir():
                nodes.append({"id": p.name, "type": "FOLDER", "padding": False, "fields": fields,
                              "children": build(scan(p, rel + "/"), level + 1)})
            else:
                nodes.append(_file_node(p, fields))
        if pad_to:
            for i in range((pad_to - len(nodes) % pad_to) % pad_to):
                nodes.append({"id": f"__TACOPAD__{i}", "type": "FILE", "padding": True, "size": 0,
                              "data_b64": "", "fields": [[n, t, None] for n, t in cols]})
        return nodes

    return build(scan(root, ""), 0)


def make_cli_dataset(case: str, fmt: str, work: Path, run_taco) -> dict:
    src = work / "src"
    src.mkdir()
    out = work / ("out.tacozip" if fmt == "zip" else "out_folder")
    args = ["create", "--from", src, out, "--json", "--id", case]
    pad_to = None
    table: dict[str, dict] = {}
    columns: list[tuple[str, str]] = []
    if case == "cli-nested-table":
        # Three FOLDER roots, 3 files each; --pad-to 2 pads every folder to 4 files and the root
        # to 4 samples (a FILE __TACOPAD__0 after the three FOLDERs).
        for site in ["b_site", "a_site", "c_site"]:
            (src / site).mkdir()
            for name, data in [("img.tif", b"II*\x00" + site.encode() * 40), ("mask.tif", site.encode()),
                               ("notes.txt", b"notes about " + site.encode())]:
                (src / site / name).write_bytes(data)
        columns = [("site_name", "string"), ("elevation", "int32"), ("cloud", "float"),
                   ("acquired", "timestamp[us]"), ("tags", "list<item: string>"),
                   ("stats", "list<item: list<item: float>>"), ("valid", "bool")]
        table = {
            "a_site": {"site_name": "Site A", "elevation": 120},
            "b_site": {"site_name": "Site B", "elevation": -5},
            "c_site": {"site_name": "Site C"},
            "a_site/img.tif": {"cloud": 0.25, "acquired": 1_700_000_000_000_000, "tags": ["rgb", "l2a"],
                               "stats": [[1.0, 2.5], [0.5]], "valid": True},
            "a_site/mask.tif": {"cloud": 0.5, "acquired": 1_700_000_000_500_000, "tags": [], "stats": [],
                                "valid": False},
            "b_site/img.tif": {"cloud": 1.0, "acquired": 0, "tags": ["x"], "stats": [[-1.0]], "valid": None},
            # a_site/notes.txt, b_site/mask.tif, b_site/notes.txt: no row -> nulls
        }
        schema = pa.schema([("path", pa.string()), ("site_name", pa.string()), ("elevation", pa.int32()),
                            ("cloud", pa.float32()), ("acquired", pa.timestamp("us")),
                            ("tags", pa.list_(pa.string())), ("stats", pa.list_(pa.list_(pa.float32()))),
                            ("valid", pa.bool_())])
        rows = [{"path": k, **{c: v.get(c) for c, _ in columns}} for k, v in table.items()]
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), work / "meta.parquet")
        args += ["--metadata", work / "meta.parquet", "--pad-to", "2"]
        pad_to = 2
    elif case == "cli-flat-csv":
        for i in range(4):
            (src / f"file_{i}.dat").write_bytes(bytes(range(i * 10, i * 10 + 7 + i)))
        (work / "meta.csv").write_text(
            "label,key,score,count,day\n"
            "cat,file_0.dat,0.5,3,2024-01-05\n"
            "dog,file_2.dat,1.25,-7,2023-12-31\n"
            "bird,file_1.dat,2.0,10,2024-02-29\n"
        )
        columns = [("label", "string"), ("score", "double"), ("count", "int64"), ("day", "timestamp[us]")]
        day = {"2024-01-05": 1704412800_000000, "2023-12-31": 1703980800_000000, "2024-02-29": 1709164800_000000}
        table = {
            "file_0.dat": {"label": "cat", "score": 0.5, "count": 3, "day": day["2024-01-05"]},
            "file_2.dat": {"label": "dog", "score": 1.25, "count": -7, "day": day["2023-12-31"]},
            "file_1.dat": {"label": "bird", "score": 2.0, "count": 10, "day": day["2024-02-29"]},
        }
        args += ["--metadata", work / "meta.csv", "--key", "key"]
    elif case == "cli-unicode-zero":
        (src / "é.bin").write_bytes(b"")
        (src / "日本.txt").write_bytes("こんにちは".encode())
        (src / "zero").write_bytes(b"")
        (src / "emoji_🌍.dat").write_bytes(b"\x00" * 3)
        (src / ".hidden").write_bytes(b"must not be included")
        args += ["--description", "Ñandú 🌍"]
    else:
        raise AssertionError(case)
    summary = json.loads(run_taco(*args).stdout)
    return {"case": case, "result": summary | {"level_rows": summary["levels"]},
            "collection": {"id": case, "extent_given": False},
            "samples": describe_directory(src, table, columns, pad_to)}


@pytest.fixture(scope="module")
def built(tmp_path_factory, make_dataset, run_taco):
    """built(case, fmt) -> (output path, description); each dataset is made once per module."""
    cache: dict[tuple[str, str], tuple[Path, dict]] = {}

    def get(case: str, fmt: str):
        if (case, fmt) not in cache:
            work = tmp_path_factory.mktemp(f"{case}-{fmt}")
            if case.startswith("cli-"):
                desc = make_cli_dataset(case, fmt, work, run_taco)
            else:
                out = work / ("out.tacozip" if fmt == "zip" else "out_folder")
                desc = make_dataset(case, out, work / "sources")
            cache[(case, fmt)] = (Path(desc["result"]["path"]), desc)
        return cache[(case, fmt)]

    return get


@pytest.fixture(scope="module")
def reader():
    """reader(path) -> tacoreader dataset, loaded once per path (a load costs ~0.5 s)."""
    cache = {}

    def get(path: Path):
        if path not in cache:
            cache[path] = tacoreader.load(str(path))
        return cache[path]

    return get


def _dataset(case, fmt, built, taco_expect):
    path, desc = built(case, fmt)
    levels = taco_expect.expected_levels(desc["samples"])
    layout = taco_expect.parse_zip(path) if fmt == "zip" else None
    return {"case": case, "fmt": fmt, "path": path, "desc": desc, "levels": levels, "layout": layout}


@pytest.fixture(params=MATRIX, ids=[f"{c}-{f}" for c, f in MATRIX])
def dataset(request, built, taco_expect):
    return _dataset(*request.param, built, taco_expect)


ZIPS = [case for case, fmt in MATRIX if fmt == "zip"]


@pytest.fixture(params=ZIPS)
def zip_dataset(request, built, taco_expect):
    return _dataset(request.param, "zip", built, taco_expect)


def read_level_table(ds: dict, level: int) -> pa.Table:
    if ds["fmt"] == "zip":
        return pq.read_table(io.BytesIO(ds["layout"].read(f"METADATA/level{level}.parquet")))
    return pq.read_table(ds["path"] / "METADATA" / f"level{level}.parquet")


def read_meta(ds: dict, row) -> pa.Table:
    if ds["fmt"] == "zip":
        return pq.read_table(io.BytesIO(ds["layout"].read(row.entry_name)))
    return pq.read_table(ds["path"] / "DATA" / row.rel / "__meta__")


def file_rows(levels):
    return [r for rows in levels for r in rows if not r.is_folder]


VSISUBFILE = re.compile(r"^/vsisubfile/(\d+)_(\d+),(.*)$")


def assert_vsi_path_gives(ds: dict, path: str, row, taco_expect):
    """`path` (an internal:gdal_vsi value) reads the bytes of `row` through GDAL.

    In a ZIP it must also name exactly the entry's data range. A zero-byte sample is the one case
    GDAL cannot read back: "/vsisubfile/OFFSET_0,..." means "from OFFSET to the end of the file"
    to GDAL, so for those only the path is checked (the reference writes the same paths).
    """
    expected = taco_expect.sample_data(row.node)
    if ds["fmt"] == "zip":
        m = VSISUBFILE.match(path)
        assert m, path
        entry = ds["layout"].by_name[row.entry_name]
        assert (int(m[1]), int(m[2]), Path(m[3])) == (entry.data_offset, entry.size, ds["path"]), row.rel
        if not expected:
            return
    assert taco_expect.vsi_read(path) == expected, f"{row.rel} via {path}"


# ---- the tests ---------------------------------------------------------------------------------------


def test_summary_counts_what_was_written(dataset):
    result = dataset["desc"]["result"]
    assert result["level_rows"] == [len(rows) for rows in dataset["levels"]]
    assert result["files"] == len(file_rows(dataset["levels"]))
    assert result["format"] == dataset["fmt"]


def test_level_tables_have_the_documented_columns_and_values(dataset, taco_expect):
    zip_ = dataset["fmt"] == "zip"
    for level, rows in enumerate(dataset["levels"]):
        table = read_level_table(dataset, level)
        ext = taco_expect.expected_extension_columns(rows, level)
        internal = ["internal:current_id", "internal:parent_id"]
        internal += ["internal:offset", "internal:size"] if zip_ else []
        internal += ["internal:relative_path"] if level > 0 else []
        assert table.column_names == ["id", "type", *[n for n, _ in ext], *internal], f"level {level}"
        types = {f.name: taco_expect.arrow_type_name(f.type) for f in table.schema}
        assert [types[n] for n, _ in ext] == [t for _, t in ext], f"level {level} types"
        assert all(types[c] == "int64" for c in internal if c != "internal:relative_path")
        assert table.column("id").to_pylist() == [r.id for r in rows]
        assert table.column("type").to_pylist() == [r.node["type"] for r in rows]
        for name, _ in ext:
            expected = [r.fields.get(name) for r in rows]
            assert taco_expect.normalized_values(table.column(name)) == expected, f"level {level} {name}"
        assert table.column("internal:current_id").to_pylist() == list(range(len(rows)))
        assert table.column("internal:parent_id").to_pylist() == [r.parent for r in rows]
        if level > 0:
            assert table.column("internal:relative_path").to_pylist() == [r.rel for r in rows]
        if zip_:
            layout = dataset["layout"]
            entries = [layout.by_name[r.entry_name] for r in rows]
            assert table.column("internal:offset").to_pylist() == [e.data_offset for e in entries]
            assert table.column("internal:size").to_pylist() == [e.size for e in entries]


def test_every_meta_lists_its_children_with_correct_offsets(dataset, taco_expect):
    levels = dataset["levels"]
    zip_ = dataset["fmt"] == "zip"
    for level, rows in enumerate(levels[:-1]):
        columns = taco_expect.expected_extension_columns(levels[level + 1], level + 1)
        for row in (r for r in rows if r.is_folder):
            kids = levels[level + 1][row.child_begin : row.child_begin + len(row.node["children"])]
            meta = read_meta(dataset, row)
            expected_names = ["id", "type", *[n for n, _ in columns]]
            expected_names += ["internal:offset", "internal:size"] if zip_ else []
            assert meta.column_names == expected_names, row.rel
            assert meta.column("id").to_pylist() == [k.id for k in kids]
            for name, _ in columns:
                assert taco_expect.normalized_values(meta.column(name)) == [k.fields.get(name) for k in kids]
            if zip_:
                entries = [dataset["layout"].by_name[k.entry_name] for k in kids]
                assert meta.column("internal:offset").to_pylist() == [e.data_offset for e in entries], row.rel
                assert meta.column("internal:size").to_pylist() == [e.size for e in entries], row.rel


def test_data_on_disk_is_the_source_bytes(dataset, taco_expect):
    for row in file_rows(dataset["levels"]):
        expected = taco_expect.sample_data(row.node)
        if dataset["fmt"] == "zip":
            got = dataset["layout"].read(row.entry_name)
        else:
            got = (dataset["path"] / "DATA" / row.rel).read_bytes()
        assert got == expected, row.rel
    if dataset["fmt"] == "folder":
        produced = sorted(str(p.relative_to(dataset["path"] / "DATA")) for p in (dataset["path"] / "DATA").rglob("*")
                          if p.is_file() and p.name != "__meta__")
        assert produced == sorted(r.rel for r in file_rows(dataset["levels"]))


FOLDERS = [case for case, fmt in MATRIX if fmt == "folder"]


@pytest.fixture(params=FOLDERS)
def folder_dataset(request, built, taco_expect):
    return _dataset(request.param, "folder", built, taco_expect)


def test_folder_layout(folder_dataset):
    """FORMAT.md §3: COLLECTION.json, METADATA/level0..N-1.parquet, DATA/ with a __meta__ in every
    FOLDER sample and none in DATA/ itself; copied files keep their modification time."""
    ds = folder_dataset
    root = ds["path"]
    levels = len(ds["levels"])
    assert sorted(p.name for p in root.iterdir()) == ["COLLECTION.json", "DATA", "METADATA"]
    assert sorted(p.name for p in (root / "METADATA").iterdir()) == [f"level{i}.parquet" for i in range(levels)]
    assert not (root / "DATA" / "__meta__").exists()
    metas = sorted(str(p.relative_to(root / "DATA")) for p in (root / "DATA").rglob("__meta__"))
    assert metas == sorted(r.rel + "__meta__" for rows in ds["levels"] for r in rows if r.is_folder)
    for row in file_rows(ds["levels"]):
        if "source" in row.node:
            assert (root / "DATA" / row.rel).stat().st_mtime_ns == Path(row.node["source"]).stat().st_mtime_ns


def test_tacoreader_loads_collection_and_level0(dataset, taco_expect, reader):
    ds = reader(dataset["path"])
    levels = dataset["levels"]
    assert ds.collection["id"] == dataset["desc"]["collection"]["id"]
    assert ds.collection["taco_version"] == "2.0.0"
    assert ds.pit_schema.root["n"] == len(levels[0])
    assert ds.pit_schema.max_depth() == len(levels) - 1
    data = ds.data.to_arrow()
    real = [r for r in levels[0] if not r.node["padding"]]
    assert data.column("id").to_pylist() == [r.id for r in real]
    for name, _ in taco_expect.expected_extension_columns(levels[0], 0):
        assert taco_expect.normalized_values(data.column(name)) == [r.fields.get(name) for r in real], name


def test_tacoreader_level_views_read_every_file_through_gdal_vsi(dataset, taco_expect, reader):
    ds = reader(dataset["path"])
    for level, rows in enumerate(dataset["levels"]):
        view = ds.sql(f"SELECT * FROM l{level}")
        p = f"l{level}:"
        keys = view.column(p + ("internal:relative_path" if level else "id")).to_pylist()
        by_key = {(r.rel if level else r.id): r for r in rows}
        assert sorted(keys) == sorted(by_key), f"level {level} rows"
        vsi = view.column(p + "internal:gdal_vsi").to_pylist()
        for key, path in zip(keys, vsi):
            row = by_key[key]
            if row.is_folder:
                meta = pq.read_table(io.BytesIO(taco_expect.vsi_read(path)))
                assert meta.column("id").to_pylist() == [c["id"] for c in row.node["children"]]
            else:
                assert_vsi_path_gives(dataset, path, row, taco_expect)
        for name, _ in taco_expect.expected_extension_columns(rows, level):
            values = taco_expect.normalized_values(view.column(p + name))
            assert values == [by_key[k].fields.get(name) for k in keys], f"level {level} {name}"


def test_tacoreader_navigation_reads_every_file(dataset, taco_expect, reader):
    ds = reader(dataset["path"])
    by_rel = {r.rel: r for r in file_rows(dataset["levels"])}
    seen = []

    def walk(frame, nodes, prefix):
        table = frame.to_arrow() if hasattr(frame, "to_arrow") else frame._data
        ids = table.column("id").to_pylist()
        real = [n for n in nodes if not n["padding"]]
        assert [i for i in ids if not i.startswith("__TACOPAD__")] == [n["id"] for n in real], prefix
        for node in real:
            got = frame.read(node["id"])
            if node["type"] == "FOLDER":
                walk(got, node["children"], prefix + node["id"] + "/")
            else:
                assert isinstance(got, str)
                assert_vsi_path_gives(dataset, got, by_rel[prefix + node["id"]], taco_expect)
                seen.append(prefix + node["id"])

    walk(ds.data, dataset["desc"]["samples"], "")
    assert sorted(seen) == sorted(r.rel for r in file_rows(dataset["levels"]) if not r.node["padding"])


def test_collection_extent(dataset):
    if dataset["fmt"] == "zip":
        doc = json.loads(dataset["layout"].read("COLLECTION.json"))
    else:
        doc = json.loads((dataset["path"] / "COLLECTION.json").read_text(encoding="utf-8"))
    expected = EXPECTED_EXTENT.get(dataset["case"], {"spatial": GLOBAL, "temporal": None})
    assert doc["extent"] == expected


def test_tacozip_reads_the_header_and_recomputes_the_same_bytes(zip_dataset, tmp_path):
    dataset = zip_dataset
    layout = dataset["layout"]
    n_levels = len(dataset["levels"])
    slots = [(layout.by_name[f"METADATA/level{i}.parquet"].data_offset, layout.by_name[f"METADATA/level{i}.parquet"].size)
             for i in range(n_levels)]
    slots.append((layout.by_name["COLLECTION.json"].data_offset, layout.by_name["COLLECTION.json"].size))
    path = dataset["path"]
    assert tacozip.read_header(str(path)) == slots
    original = path.read_bytes()
    assert tacozip.read_header(original[:157]) == slots
    # Blank the payload and both CRCs, let tacozip write them again: it must give back our bytes
    # (same payload layout, same CRC-32 in the local header and in the central directory).
    damaged = bytearray(original)
    damaged[41:157] = bytes(116)
    damaged[14:18] = bytes(4)
    cd = layout.entries[0].cd_offset
    damaged[cd + 16 : cd + 20] = bytes(4)
    copy = tmp_path / "copy.tacozip"
    copy.write_bytes(damaged)
    tacozip.update_header(str(copy), slots)
    assert copy.read_bytes() == original


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", ["bad-utf8-id", "bad-utf8-value"])
def test_invalid_utf8_text_is_refused_before_anything_is_written(build_dir, tmp_path, case, fmt):
    """Raw non-UTF-8 bytes in an id or a text value would make Parquet STRING columns that
    neither pyarrow nor tacoreader can decode: the sample must be refused up front."""
    tool = build_dir / "bin" / "taco_make_dataset"
    out = tmp_path / ("out.tacozip" if fmt == "zip" else "out")
    proc = subprocess.run([str(tool), case, str(out)], capture_output=True, timeout=60)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, stderr
    assert "TacoSchemaError" in stderr and "UTF-8" in stderr, stderr
    assert ("invalid sample id" if case == "bad-utf8-id" else "sample 'b' field 'label'") in stderr, stderr
    assert list(tmp_path.iterdir()) == []
