"""The reference writer's misaligned level >= 1 offsets (FORMAT.md §4.3), read right.

tacotoolbox pastes each level's internal:offset/size from its folders' __meta__ in sorted
folder order beside rows kept in sample order, so when folder ids are not sorted ("r2, r10, r1"),
rows point at other samples' bytes: tacoreader serves the wrong samples through the level views.
tacocore checks the local headers at load and reads each row's own offsets
(src/query/level_offsets.cpp); a file whose offsets are right is read as stored.
"""

from __future__ import annotations

import io
import logging
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from osgeo import gdal

import tacocore
import tacoreader  # the reference reader; make setup installs it
import tacotoolbox
from tacotoolbox.datamodel import Sample as TbSample, Taco as TbTaco, Tortilla as TbTortilla

from conftest import COLLECTION_DEFAULTS, zip_entry_ranges

ROOTS = ["r2", "r10", "r1"]  # sorted: r1, r10, r2
MIDS = ["m_b", "m_a"]
LEAVES = ["z", "y"]


def leaf_bytes(r: str, m: str, leaf: str) -> bytes:
    return f"{r}/{m}/{leaf}".encode() * 3


def build(model, src: Path, root_ids=ROOTS):
    """The same 3-level tree for tacotoolbox (model = its datamodel classes) or tacocore."""
    Sample, Tortilla, Taco = model
    roots = []
    for r in root_ids:
        mids = []
        for m in MIDS:
            leaves = []
            for leaf in LEAVES:
                f = src / f"{r}_{m}_{leaf}.bin"
                f.write_bytes(leaf_bytes(r, m, leaf))
                leaves.append(Sample(id=leaf, path=str(f)))
            mids.append(Sample(id=m, path=Tortilla(leaves)))
        roots.append(Sample(id=r, path=Tortilla(mids)))
    return Taco(tortilla=Tortilla(roots), **COLLECTION_DEFAULTS)


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("level_offsets")
    (out / "src").mkdir()
    ref = out / "tacotoolbox.tacozip"
    tacotoolbox.create(build((TbSample, TbTortilla, TbTaco), out / "src"), str(ref))
    ours = out / "tacocore.tacozip"
    tacocore.create(build((tacocore.Sample, tacocore.Tortilla, tacocore.Taco), out / "src"), str(ours))
    # a collection of two such parts, indexed by tacotoolbox
    (out / "parts").mkdir()
    for name, roots in (("a", ROOTS), ("b", ["q2", "q10", "q1"])):
        tacotoolbox.create(build((TbSample, TbTortilla, TbTaco), out / "src", roots),
                           str(out / "parts" / f"{name}.tacozip"))
    tacotoolbox.create_tacocat([str(out / "parts" / "a.tacozip"), str(out / "parts" / "b.tacozip")],
                               str(out / "parts"))
    # a collection mixing writers: tacotoolbox's parts misaligned, tacocore's (the middle one)
    # right, all three with their folder ids out of sorted order
    (out / "mixed").mkdir()
    tb, ours_model = (TbSample, TbTortilla, TbTaco), (tacocore.Sample, tacocore.Tortilla, tacocore.Taco)
    for name, model, roots, create in (("a", tb, ["a2", "a10", "a1"], tacotoolbox.create),
                                       ("b", ours_model, ["b2", "b10", "b1"], tacocore.create),
                                       ("c", tb, ["c2", "c10", "c1"], tacotoolbox.create)):
        create(build(model, out / "src", roots), str(out / "mixed" / f"{name}.tacozip"))
    tacotoolbox.create_tacocat([str(out / "mixed" / f"{n}.tacozip") for n in "abc"], str(out / "mixed"))
    return {"tacotoolbox": str(ref), "tacocore": str(ours), "collection": str(out / "parts"),
            "mixed": str(out / "mixed")}


def own_entry(relative_path: str, sample_type: str) -> str:
    path = relative_path.rstrip("/")
    return f"DATA/{path}/__meta__" if sample_type == "FOLDER" else f"DATA/{path}"


def view_rows(ds, level: int) -> list[dict]:
    return ds.sql(
        'SELECT "internal:relative_path" AS rp, type, "internal:offset" AS o, "internal:size" AS s, '
        f'"internal:gdal_vsi" AS v FROM level{level}').to_arrow().to_pylist()


def stored_rows(path: str, level: int) -> list[tuple[int, int]]:
    with zipfile.ZipFile(path) as z:
        t = pq.read_table(io.BytesIO(z.read(f"METADATA/level{level}.parquet")))
    return list(zip(t.column("internal:offset").to_pylist(), t.column("internal:size").to_pylist()))


def read_vsi(vsi: str) -> bytes:
    f = gdal.VSIFOpenL(vsi, "rb")
    assert f is not None, vsi
    try:
        return bytes(gdal.VSIFReadL(1, 1 << 20, f))
    finally:
        gdal.VSIFCloseL(f)


@pytest.mark.parametrize("tool", ["tacotoolbox", "tacocore"])
def test_every_level_view_points_at_each_samples_own_entry(written, tool):
    path = written[tool]
    ranges = zip_entry_ranges(path)
    ds = tacocore.load(path)
    for level in (1, 2):
        rows = view_rows(ds, level)
        assert len(rows) == len(ROOTS) * len(MIDS) * (len(LEAVES) if level == 2 else 1)
        for r in rows:
            assert (r["o"], r["s"]) == ranges[own_entry(r["rp"], r["type"])], (level, r)
            assert r["v"] == f"/vsisubfile/{r['o']}_{r['s']},{Path(path).resolve()}"
    # the leaves' bytes, through the view, the flat view and navigation
    by_view = {r["rp"]: read_vsi(r["v"]) for r in view_rows(ds, 2)}
    flat = ds.sql('SELECT "l2:internal:relative_path" AS rp, "l2:internal:gdal_vsi" AS v FROM l2')
    by_flat = {r["rp"]: read_vsi(r["v"]) for r in flat.to_arrow().to_pylist()}
    expected = {f"{r}/{m}/{leaf}": leaf_bytes(r, m, leaf) for r in ROOTS for m in MIDS for leaf in LEAVES}
    assert by_view == expected
    assert by_flat == expected
    assert read_vsi(ds.read("r2").read("m_b").read("z")) == leaf_bytes("r2", "m_b", "z")


def test_the_reference_file_is_the_misaligned_one_and_tacoreader_reads_other_samples(written):
    """What the fix is for: the stored level tables of tacotoolbox's file point elsewhere (ours
    do not), and tacoreader hands out those other samples' bytes."""
    for tool, misaligned in (("tacotoolbox", True), ("tacocore", False)):
        ranges = zip_entry_ranges(written[tool])
        rows = view_rows(tacocore.load(written[tool]), 2)
        stored = stored_rows(written[tool], 2)
        assert (stored != [(r["o"], r["s"]) for r in rows]) == misaligned, tool
        assert all(ranges[own_entry(r["rp"], r["type"])] == (r["o"], r["s"]) for r in rows)
    ref = tacoreader.load(written["tacotoolbox"]).sql(
        'SELECT "internal:relative_path" AS rp, "internal:gdal_vsi" AS v FROM level2')
    wrong = [r for r in ref.to_pylist() if read_vsi(r["v"]) != leaf_bytes(*r["rp"].split("/"))]
    assert len(wrong) == 12


def test_a_misaligned_file_is_named_in_a_warning(written, caplog):
    with caplog.at_level(logging.WARNING, logger="tacocore"):
        tacocore.load(written["tacocore"])
    assert not [r for r in caplog.records if r.name == "tacocore.load"]
    with caplog.at_level(logging.WARNING, logger="tacocore"):
        tacocore.load(written["tacotoolbox"])
    texts = [r.getMessage() for r in caplog.records if r.name == "tacocore.load"]
    assert len(texts) == 2, texts
    assert texts[0].startswith(f"{Path(written['tacotoolbox']).resolve()}: METADATA/level1.parquet: "
                               "4 rows carry the internal:offset/size of other rows")
    assert "METADATA/level2.parquet: 12 rows" in texts[1]
    assert "tacotoolbox" in texts[0] and "taco validate" in texts[0]


def test_validate_still_reports_the_stored_file_and_export_writes_it_right(written, tmp_path):
    mismatched = [f["location"] for f in tacocore.validate(written["tacotoolbox"])
                  if f["code"] == "zip.offset-mismatch"]
    assert len(mismatched) == 4 + 12
    assert not tacocore.validate(written["tacocore"])
    out = tmp_path / "export.tacozip"
    tacocore.load(written["tacotoolbox"]).export(str(out))
    assert not tacocore.validate(str(out))
    ranges = zip_entry_ranges(str(out))
    stored = stored_rows(str(out), 2)
    rows = view_rows(tacocore.load(str(out)), 2)
    assert stored == [(r["o"], r["s"]) for r in rows]
    assert all(ranges[own_entry(r["rp"], r["type"])] == (r["o"], r["s"]) for r in rows)


def test_concat_and_cascades_read_the_realigned_offsets(written):
    both = tacocore.concat([tacocore.load(written["tacotoolbox"]), tacocore.load(written["tacocore"])])
    rows = both.sql('SELECT "internal:relative_path" AS rp, "internal:gdal_vsi" AS v FROM level2')
    got = [(r["rp"], read_vsi(r["v"])) for r in rows.to_arrow().to_pylist()]
    assert len(got) == 24
    assert all(data == leaf_bytes(*rp.split("/")) for rp, data in got)


def test_a_collection_of_misaligned_parts_reads_each_samples_own_bytes(written, caplog):
    with caplog.at_level(logging.WARNING, logger="tacocore"):
        ds = tacocore.load(written["collection"])
    texts = [r.getMessage() for r in caplog.records if r.name == "tacocore.load"]
    assert len(texts) == 2 and "level1.parquet: 8 rows" in texts[0], texts
    assert "level2.parquet: 24 rows" in texts[1], texts
    parts = Path(written["collection"])
    for level in (1, 2):
        rows = ds.sql('SELECT "internal:source_file" AS part, "internal:relative_path" AS rp, type, '
                      f'"internal:offset" AS o, "internal:size" AS s FROM level{level}')
        rows = rows.to_arrow().to_pylist()
        assert len(rows) == 2 * len(ROOTS) * len(MIDS) * (len(LEAVES) if level == 2 else 1)
        for r in rows:
            ranges = zip_entry_ranges(str(parts / r["part"]))
            assert (r["o"], r["s"]) == ranges[own_entry(r["rp"], r["type"])], (level, r)
    leaves = ds.sql('SELECT "internal:relative_path" AS rp, "internal:gdal_vsi" AS v FROM level2')
    assert all(read_vsi(r["v"]) == leaf_bytes(*r["rp"].split("/")) for r in leaves.to_arrow().to_pylist())


def test_a_collection_mixing_writers_realigns_only_the_misaligned_parts(written, caplog):
    """Each part is judged on its own local headers: tacocore's part keeps its offsets with its
    rows (folder ids out of order too), so it is read as stored between two tacotoolbox parts
    that are realigned; one verdict for the whole level would move its rows as well."""
    with caplog.at_level(logging.WARNING, logger="tacocore"):
        ds = tacocore.load(written["mixed"])
    texts = [r.getMessage() for r in caplog.records if r.name == "tacocore.load"]
    assert len(texts) == 2, texts
    assert "level1.parquet: 8 rows" in texts[0] and texts[0].endswith("in part(s) a.tacozip, c.tacozip")
    assert "level2.parquet: 24 rows" in texts[1] and texts[1].endswith("in part(s) a.tacozip, c.tacozip")
    parts = Path(written["mixed"])
    assert stored_rows(str(parts / "b.tacozip"), 2) == [
        zip_entry_ranges(str(parts / "b.tacozip"))[own_entry(f"{r}/{m}/{leaf}", "FILE")]
        for r in ["b2", "b10", "b1"] for m in MIDS for leaf in LEAVES]
    for level in (1, 2):
        rows = ds.sql('SELECT "internal:source_file" AS part, "internal:relative_path" AS rp, type, '
                      f'"internal:offset" AS o, "internal:size" AS s FROM level{level}')
        rows = rows.to_arrow().to_pylist()
        assert len(rows) == 3 * len(ROOTS) * len(MIDS) * (len(LEAVES) if level == 2 else 1)
        assert {r["part"] for r in rows} == {"a.tacozip", "b.tacozip", "c.tacozip"}
        for r in rows:
            ranges = zip_entry_ranges(str(parts / r["part"]))
            assert (r["o"], r["s"]) == ranges[own_entry(r["rp"], r["type"])], (level, r)
    leaves = ds.sql('SELECT "internal:relative_path" AS rp, "internal:gdal_vsi" AS v FROM level2')
    assert all(read_vsi(r["v"]) == leaf_bytes(*r["rp"].split("/")) for r in leaves.to_arrow().to_pylist())


@pytest.mark.parametrize("key", ["reader-zip-nested"])
def test_nested_fixture_level1_views_give_the_folder_twins_bytes(fixture_paths, fixtures_dir, key):
    ds = tacocore.load(fixture_paths[key])
    rows = view_rows(ds, 1)
    assert len(rows) == 9
    for r in rows:
        twin = fixtures_dir / "tacoreader/folder/nested/DATA" / r["rp"]
        assert read_vsi(r["v"]) == twin.read_bytes(), r["rp"]
    # a cascade's children come from the level table: the same, right bytes
    kept = ds.filter_datetime("2023-01-01/2023-12-31", level=1)
    for region in ("europe", "americas", "asia"):
        children = kept.read(region).to_arrow().to_pylist()
        for child in children:
            twin = fixtures_dir / "tacoreader/folder/nested/DATA" / region / child["id"]
            assert read_vsi(child["internal:gdal_vsi"]) == twin.read_bytes(), (region, child["id"])


@pytest.mark.parametrize("key", ["toolbox-zip-nested_a", "toolbox-zip-nested_b"])
def test_a_reference_file_with_sorted_folders_is_read_as_stored(fixture_paths, caplog, key):
    with caplog.at_level(logging.WARNING, logger="tacocore"):
        ds = tacocore.load(fixture_paths[key])
    assert not [r for r in caplog.records if r.name == "tacocore.load"]
    rows = view_rows(ds, 1)
    assert rows and [(r["o"], r["s"]) for r in rows] == stored_rows(fixture_paths[key], 1)
