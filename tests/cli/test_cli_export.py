"""`taco export` and `taco convert` (issue 16 items 1-2): what they write is read back by the
reference reader (tacoreader in .venv) with the same sample bytes and metadata values.

Sample bytes are checked against the FOLDER fixtures (plain files, the ground truth): the ZIP
fixture nested.tacozip has wrong level-1 offsets (FORMAT.md §4.3), so an export that trusted them
would copy the wrong bytes.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
FLAT_FOLDER = FIXTURES / "tacoreader/folder/flat"
NESTED_ZIP = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
NESTED_FOLDER = FIXTURES / "tacoreader/folder/nested"
SIMPLE_ZIP = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"

tacoreader = pytest.importorskip("tacoreader")


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def ok(*args) -> str:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def vsi_bytes(vsi: str) -> bytes:
    """The bytes a gdal_vsi path names, read with plain Python (no GDAL)."""
    if vsi.startswith("/vsisubfile/"):
        head, path = vsi[len("/vsisubfile/"):].split(",", 1)
        offset, size = (int(x) for x in head.split("_"))
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(size)
    return Path(vsi).read_bytes()


def ids(ds) -> list[str]:
    return [str(x) for x in ds.data["id"]]


def reference_files(ds) -> dict[str, bytes]:
    """Every FILE of a dataset opened with tacoreader, by DATA/ relative path, navigating
    level 0 -> __meta__ as tacoreader.read does."""
    out: dict[str, bytes] = {}

    def walk(df, prefix: str):
        for i in range(len(df)):
            ident = str(df["id"][i])
            kind = str(df["type"][i])
            if kind == "FOLDER":
                walk(df.read(i), prefix + ident + "/")
            else:
                out[prefix + ident] = vsi_bytes(str(df["internal:gdal_vsi"][i]))

    walk(ds.data, "")
    return out


def folder_truth(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root / "DATA")): p.read_bytes()
            for p in (root / "DATA").rglob("*") if p.is_file() and p.name != "__meta__"}


def user_table(path: Path) -> pa.Table:
    t = pq.read_table(path)
    return t.select([c for c in t.column_names if not c.startswith("internal:")])


def level_file(dataset: Path, level: int, tmp: Path) -> Path:
    if dataset.is_dir():
        return dataset / "METADATA" / f"level{level}.parquet"
    with zipfile.ZipFile(dataset) as z:
        out = tmp / f"{dataset.name}.level{level}.parquet"
        out.write_bytes(z.read(f"METADATA/level{level}.parquet"))
        return out


def collection(dataset: Path) -> dict:
    if dataset.is_dir():
        return json.loads((dataset / "COLLECTION.json").read_text())
    with zipfile.ZipFile(dataset) as z:
        return json.loads(z.read("COLLECTION.json"))


# ---- export ------------------------------------------------------------------------------------


@pytest.mark.parametrize("out_name", ["sub.tacozip", "sub_folder"])
def test_export_flat_subset_reads_back_in_tacoreader(tmp_path, out_name):
    out = tmp_path / out_name
    ok("export", FLAT_ZIP, out, "--where", "cloud_cover < 50")
    src = pq.read_table(level_file(FLAT_ZIP, 0, tmp_path))
    kept = src.filter(pa.compute.less(src["cloud_cover"], 50))
    assert 0 < kept.num_rows < src.num_rows

    ds = tacoreader.load(str(out))
    assert ids(ds) == kept["id"].to_pylist()
    truth = folder_truth(FLAT_FOLDER)
    got = reference_files(ds)
    assert got == {k: truth[k] for k in kept["id"].to_pylist()}
    # Every user column, with its type and values.
    assert user_table(level_file(out, 0, tmp_path)).equals(
        kept.select([c for c in kept.column_names if not c.startswith("internal:")]))
    written = pq.read_table(level_file(out, 0, tmp_path))
    assert written["internal:current_id"].to_pylist() == list(range(kept.num_rows))
    assert written["internal:parent_id"].to_pylist() == list(range(kept.num_rows))
    assert ("internal:offset" in written.column_names) == out_name.endswith(".tacozip")
    assert ok("validate", out).strip().endswith("valid (0 errors, 0 warnings)")


def test_export_collection_json_pit_extent_and_subset_keys(tmp_path):
    out = tmp_path / "sub.tacozip"
    ok("export", FLAT_ZIP, out, "--where", "id IN ('sample_1', 'sample_3')")
    src, doc = collection(FLAT_ZIP), collection(out)
    assert doc["taco:pit_schema"]["root"] == {"n": 2, "type": "FILE"}
    assert doc["taco:subset_of"] == src["id"]
    assert doc["taco:subset_date"].endswith("+00:00")
    assert doc["taco:field_schema"] == src["taco:field_schema"]
    for key in ("id", "description", "licenses", "providers", "tasks", "taco_version"):
        assert doc[key] == src[key]
    # Extent of the two kept centroids (WKB points) and their time_start values.
    t = pq.read_table(level_file(FLAT_ZIP, 0, tmp_path)).to_pylist()
    rows = [r for r in t if r["id"] in ("sample_1", "sample_3")]
    pts = [struct.unpack("<dd", r["istac:centroid"][5:21]) for r in rows]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    assert doc["extent"]["spatial"] == pytest.approx([min(xs), min(ys), max(xs), max(ys)])
    times = sorted(r["istac:time_start"] for r in rows)
    assert doc["extent"]["temporal"][0].startswith(times[0].strftime("%Y-%m-%dT%H:%M:%S"))
    assert doc["extent"]["temporal"][1].startswith(times[-1].strftime("%Y-%m-%dT%H:%M:%S"))
    keys = list(doc)
    assert keys.index("taco:subset_of") < keys.index("taco:pit_schema")


@pytest.mark.parametrize("source", [NESTED_ZIP, NESTED_FOLDER])
@pytest.mark.parametrize("out_name", ["n.tacozip", "n_folder"])
def test_export_nested_copies_whole_subtrees(tmp_path, source, out_name):
    out = tmp_path / out_name
    ok("export", source, out, "--where", "id <> 'americas'")
    ds = tacoreader.load(str(out))
    assert ids(ds) == ["europe", "asia"]
    truth = folder_truth(NESTED_FOLDER)
    expected = {k: v for k, v in truth.items() if not k.startswith("americas/")}
    assert reference_files(ds) == expected
    # The level-1 table is right too (unlike the source ZIP's, FORMAT.md §4.3): its gdal_vsi
    # paths name each child's own bytes.
    level1 = tacocore_level1(out)
    assert {r["internal:relative_path"]: vsi_bytes(r["internal:gdal_vsi"]) for r in level1} == \
        expected
    l1 = pq.read_table(level_file(out, 1, tmp_path))
    assert l1["internal:parent_id"].to_pylist() == [0, 0, 0, 1, 1, 1]
    assert l1["internal:current_id"].to_pylist() == list(range(6))
    doc = collection(out)
    assert doc["taco:pit_schema"]["root"]["n"] == 2
    assert doc["taco:pit_schema"]["hierarchy"]["1"][0]["n"] == 6
    assert ok("validate", out).strip().endswith("valid (0 errors, 0 warnings)")


def tacocore_level1(dataset: Path) -> list[dict]:
    out = ok("sql", dataset, 'SELECT "internal:relative_path", "internal:gdal_vsi" FROM level1',
             "--json")
    return json.loads(out)


def test_export_zip_layout_follows_the_reference_order(tmp_path):
    out = tmp_path / "n.tacozip"
    ok("export", NESTED_ZIP, out, "--where", "id <> 'americas'")
    names = [i.filename for i in zipfile.ZipFile(out).infolist()]
    assert names == ["TACO_HEADER", "DATA/europe/item_0", "DATA/europe/item_1",
                     "DATA/europe/item_2", "DATA/asia/item_0", "DATA/asia/item_1",
                     "DATA/asia/item_2", "DATA/asia/__meta__", "DATA/europe/__meta__",
                     "METADATA/level0.parquet", "METADATA/level1.parquet", "COLLECTION.json"]
    assert all(i.compress_type == zipfile.ZIP_STORED for i in zipfile.ZipFile(out).infolist())


def test_export_sql_option_and_view_order(tmp_path):
    out = tmp_path / "o.tacozip"
    ok("export", FLAT_ZIP, out, "--sql", "SELECT * FROM data ORDER BY cloud_cover DESC LIMIT 3")
    src = pq.read_table(level_file(FLAT_ZIP, 0, tmp_path)).to_pylist()
    want = [r["id"] for r in sorted(src, key=lambda r: -r["cloud_cover"])[:3]]
    assert ids(tacoreader.load(str(out))) == want


def test_export_of_real_geotiffs_keeps_them_readable(tmp_path):
    out = tmp_path / "s"
    ok("export", SIMPLE_ZIP, out, "--where", "id LIKE 'rgb%' OR id LIKE 'single%'")
    ds = tacoreader.load(str(out))
    assert sorted(ids(ds)) == ["rgb_256x256", "single_band_128x128"]
    for ident in ids(ds):
        assert (out / "DATA" / ident).read_bytes() == \
            (FIXTURES / "tacotoolbox/geotiffs" / f"{ident}.tif").read_bytes()


# ---- bad input ---------------------------------------------------------------------------------


def test_export_filter_keeping_nothing_writes_nothing(tmp_path):
    out = tmp_path / "none.tacozip"
    proc = taco("export", FLAT_ZIP, out, "--where", "cloud_cover > 1e9")
    assert proc.returncode != 0
    assert "keeps no sample" in proc.stderr and "nothing was written" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_export_existing_output_is_not_overwritten(tmp_path):
    out = tmp_path / "x.tacozip"
    out.write_bytes(b"precious")
    proc = taco("export", FLAT_ZIP, out)
    assert proc.returncode == 2
    assert str(out) in proc.stderr and "exists" in proc.stderr
    assert out.read_bytes() == b"precious"
    # --overwrite replaces only a TACO dataset, not an unrelated file.
    proc = taco("export", FLAT_ZIP, out, "--overwrite")
    assert proc.returncode == 2 and out.read_bytes() == b"precious"
    out.unlink()
    ok("export", FLAT_ZIP, out, "--where", "id = 'sample_0'", "-q")
    assert len(tacoreader.load(str(out)).data) == 1
    ok("export", FLAT_ZIP, out, "--overwrite", "-q")
    # (tacoreader caches metadata by path within a process: count with taco here)
    assert json.loads(ok("sql", out, "SELECT count(*) AS n FROM data", "--json")) == [{"n": 5}]


def test_export_overwrite_refuses_the_input_itself(tmp_path):
    src = tmp_path / "flat.tacozip"
    shutil.copy(FLAT_ZIP, src)
    proc = taco("export", src, src, "--overwrite", "--where", "id = 'sample_0'")
    assert proc.returncode == 2
    assert src.read_bytes() == FLAT_ZIP.read_bytes()


def test_export_bad_where_is_a_query_error(tmp_path):
    proc = taco("export", FLAT_ZIP, tmp_path / "x.tacozip", "--where", "no_such_column = 1")
    assert proc.returncode == 2  # a query error, as `taco sql` gives it
    assert "no_such_column" in proc.stderr
    assert list(tmp_path.iterdir()) == []


def hostile_folder(tmp_path: Path, bad_id: str) -> Path:
    """A copy of the flat FOLDER fixture whose level 0 names a sample `bad_id`."""
    root = tmp_path / "hostile"
    shutil.copytree(FLAT_FOLDER, root)
    p = root / "METADATA" / "level0.parquet"
    t = pq.read_table(p)
    ids = t["id"].to_pylist()
    ids[0] = bad_id
    t = t.set_column(t.column_names.index("id"), "id", pa.array(ids, pa.string()))
    pq.write_table(t, p)
    return root


@pytest.mark.parametrize("bad_id", ["../escape", "a/../../b", "/abs"])
def test_convert_refuses_ids_that_leave_the_output(tmp_path, bad_id):
    src = hostile_folder(tmp_path, bad_id)
    work = tmp_path / "work"
    work.mkdir()
    proc = taco("convert", src, work / "out.tacozip")
    assert proc.returncode != 0
    assert proc.returncode != -11
    assert bad_id in proc.stderr
    assert list(work.iterdir()) == []
    assert not (tmp_path / "escape").exists()


# ---- convert (zip2folder / folder2zip) -----------------------------------------------------------


@pytest.mark.parametrize("source", [FLAT_ZIP, NESTED_ZIP, SIMPLE_ZIP])
def test_convert_round_trip_is_lossless(tmp_path, source):
    folder, back = tmp_path / "as_folder", tmp_path / "back.tacozip"
    ok("convert", source, folder)
    assert not folder.is_file() and (folder / "COLLECTION.json").is_file()
    ok("convert", folder, back)
    assert zipfile.is_zipfile(back)
    # COLLECTION.json byte for byte, all three.
    with zipfile.ZipFile(source) as z:
        original_json = z.read("COLLECTION.json")
    assert (folder / "COLLECTION.json").read_bytes() == original_json
    with zipfile.ZipFile(back) as z:
        assert z.read("COLLECTION.json") == original_json
    # Same entries in the same order; same sample bytes (read through tacoreader, __meta__).
    src_names = [i.filename for i in zipfile.ZipFile(source).infolist()]
    assert [i.filename for i in zipfile.ZipFile(back).infolist()] == src_names
    files = reference_files(tacoreader.load(str(source)))
    assert reference_files(tacoreader.load(str(folder))) == files
    assert reference_files(tacoreader.load(str(back))) == files
    # Equal metadata: every level, every non-offset column (offsets are new, and correct).
    levels = sum(1 for n in src_names if n.startswith("METADATA/level"))
    for d in range(levels):
        a = pq.read_table(level_file(source, d, tmp_path))
        b = pq.read_table(level_file(back, d, tmp_path))
        f = pq.read_table(level_file(folder, d, tmp_path))
        drop = ["internal:offset", "internal:size"]
        assert b.drop(drop).equals(a.drop(drop)), d
        assert f.equals(a.drop(drop)), d
    assert ok("validate", back).strip().endswith("valid (0 errors, 0 warnings)")
    # A second round trip is byte-identical in every entry but the ZIP timestamps.
    folder2, back2 = tmp_path / "f2", tmp_path / "b2.tacozip"
    ok("convert", back, folder2)
    ok("convert", folder2, back2)
    with zipfile.ZipFile(back) as z1, zipfile.ZipFile(back2) as z2:
        for name in src_names:
            assert z1.read(name) == z2.read(name), name
        assert [(i.header_offset, i.file_size) for i in z1.infolist()] == \
            [(i.header_offset, i.file_size) for i in z2.infolist()]


def test_convert_keeps_the_flat_offsets_of_the_reference(tmp_path):
    # Same entry names and sizes before the metadata: every sample lands where the reference put it.
    ok("convert", FLAT_ZIP, tmp_path / "f")
    ok("convert", tmp_path / "f", tmp_path / "b.tacozip")
    a = pq.read_table(level_file(FLAT_ZIP, 0, tmp_path))
    b = pq.read_table(level_file(tmp_path / "b.tacozip", 0, tmp_path))
    assert b["internal:offset"].to_pylist() == a["internal:offset"].to_pylist() == \
        [200, 259, 315, 369, 425]


def test_convert_format_flag_and_json(tmp_path):
    out = json.loads(ok("convert", NESTED_FOLDER, tmp_path / "z", "--json"))
    assert out["format"] == "zip" and out["files"] == 9 and out["levels"] == [3, 9]
    assert zipfile.is_zipfile(tmp_path / "z")
    out = json.loads(ok("convert", NESTED_FOLDER, tmp_path / "f2", "--format", "folder", "--json"))
    assert out["format"] == "folder"


def test_convert_missing_input(tmp_path):
    proc = taco("convert", tmp_path / "nope.tacozip", tmp_path / "out")
    assert proc.returncode == 2
    assert "nope.tacozip" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_export_from_a_collection(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    for i in range(10):
        (files / f"f{i}.bin").write_bytes(os.urandom(1000 + i))
    ok("create", "--from", files, tmp_path / "parts" / "c.tacozip", "--split-size", "3000", "-q")
    assert (tmp_path / "parts" / ".tacocat").is_dir()
    out = tmp_path / "sub.tacozip"
    result = json.loads(ok("export", tmp_path / "parts", out, "--where", "id >= 'f3'", "--json"))
    assert result["samples"] == 7 and result["sample_bytes"] == sum(1000 + i for i in range(3, 10))
    ds = tacoreader.load(str(out))
    assert ids(ds) == [f"f{i}.bin" for i in range(3, 10)]
    assert reference_files(ds) == {f"f{i}.bin": (files / f"f{i}.bin").read_bytes()
                                   for i in range(3, 10)}
    # Ids start at 0 again and no collection column survives.
    level0 = pq.read_table(level_file(out, 0, tmp_path))
    assert level0["internal:current_id"].to_pylist() == list(range(7))
    assert "internal:source_file" not in level0.column_names
    assert ok("validate", out).strip().endswith("valid (0 errors, 0 warnings)")


@pytest.mark.parametrize("where", ["id = 'x'", "true"])
def test_subset_of_a_padded_three_level_dataset(tmp_path, where):
    # root.n counts the padding root (--pad-to), the hierarchy counts only real roots' children:
    # scaling the deeper counts by root.n gave 3 where the tables hold 4, and every export of
    # such a dataset was refused as "the source is damaged".
    src = tmp_path / "src"
    for s in "xyz":
        for g in ("g1", "g2"):
            (src / s / g).mkdir(parents=True)
            for f in "ab":
                (src / s / g / f).write_text(s + g + f)
    ok("create", "--from", src, tmp_path / "pad.tacozip", "--pad-to", "4", "--id", "pad3", "-q")
    ok("export", tmp_path / "pad.tacozip", tmp_path / "sub.tacozip", "--where", where)
    kept = 1 if where != "true" else 3
    pit = json.loads(ok("info", tmp_path / "sub.tacozip", "--json"))["pit_schema"]
    # Each root: g1, g2 and 2 padding files; each g: a, b and 2 padding files.
    assert pit["root"]["n"] == kept and pit["hierarchy"]["1"][0]["n"] == 4 * kept, pit
    assert [p["n"] for p in pit["hierarchy"]["2"]] == [4 * kept, 4 * kept], pit
    assert taco("validate", tmp_path / "sub.tacozip").returncode == 0


def test_extent_of_a_subset_comes_from_the_level_that_places_samples(tmp_path):
    # nested.tacozip's level 0 has istac:geometry without istac:crs (it places nothing); the
    # level-1 centroids do. The export wrote the global box [-180, -90, 180, 90] instead.
    out = tmp_path / "sub.tacozip"
    ok("export", NESTED_ZIP, out, "--where", "id IN ('europe', 'asia')")
    extent = json.loads(zipfile.ZipFile(out).read("COLLECTION.json"))["extent"]
    assert extent["spatial"] != [-180, -90, 180, 90], extent
    west, south, east, north = extent["spatial"]
    assert west < east and south < north and -34 < south < -33 and 52 < north < 53, extent
