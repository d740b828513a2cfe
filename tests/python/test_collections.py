"""Collections (spec §6.5, §6.6, §8.1; FORMAT.md §6-§7): multi-part datasets written by the
reference (tacotoolbox ``create(..., split_size=...)``: parts plus ``.tacocat/``) loaded by
tacocore with the rows, paths and bytes tacoreader gives; navigation into every part; base_path;
and every refusal (missing part, index past a part's end)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tacocore

# The reference tools are part of the test environment (make setup installs them into .venv);
# a missing one is an error, not a skip.
import tacoreader
from tacotoolbox import create as tb_create
from tacotoolbox.datamodel import Sample as TbSample, Taco as TbTaco, Tortilla as TbTortilla

N_SAMPLES = 6


def _payload(i: int, j: int) -> bytes:
    return bytes([i * 16 + j]) * (1000 + 100 * i + j)


def _reference_multipart(out: Path) -> list[Path]:
    """Six FOLDER samples of two FILEs each, split by tacotoolbox into parts of <= 5 kB."""
    src = out / "src"
    src.mkdir(parents=True)
    samples = []
    for i in range(N_SAMPLES):
        kids = []
        for j in range(2):
            p = src / f"f{i}_{j}.bin"
            p.write_bytes(_payload(i, j))
            kids.append(TbSample(id=f"c{j}", path=p))
        samples.append(TbSample(id=f"s{i}", path=TbTortilla(samples=kids)))
    taco = TbTaco(tortilla=TbTortilla(samples=samples), id="multi", dataset_version="1.0.0",
                  description="multi-part", licenses=["CC-BY-4.0"], providers=[{"name": "p"}],
                  tasks=["other"])
    parts = tb_create(taco, str(out / "multi.tacozip"), split_size="5KB")
    shutil.rmtree(src)
    return [Path(p) for p in parts]


@pytest.fixture(scope="module")
def ref_collection(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("refcat") / "ds"
    parts = _reference_multipart(out)
    assert len(parts) > 2 and (out / ".tacocat" / "COLLECTION.json").is_file()
    return out


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


@pytest.mark.parametrize("which", ["dir", "tacocat"])
def test_reference_tacocat_loads_like_tacoreader(ref_collection, which):
    path = ref_collection if which == "dir" else ref_collection / ".tacocat"
    ours = tacocore.load(str(path))
    theirs = tacoreader.load(str(ref_collection / ".tacocat"))
    o, t = ours.data.to_arrow(), theirs.data._data
    assert o.num_rows == t.num_rows == N_SAMPLES
    assert o.column("id").to_pylist() == t.column("id").to_pylist()
    assert o.column("internal:gdal_vsi").to_pylist() == t.column("internal:gdal_vsi").to_pylist()
    assert ours.pit_schema.to_dict() == theirs.pit_schema.to_dict()
    assert ours.id == "multi"
    assert [Path(s).name for s in ours.sources] == sorted(
        p.name for p in ref_collection.glob("*.tacozip"))


def test_every_sample_reads_its_bytes_from_the_right_part(ref_collection):
    ds = tacocore.load(str(ref_collection))
    frame = ds.data
    for i in range(N_SAMPLES):
        children = frame.read(f"s{i}")
        for j in range(2):
            assert children.read_bytes(f"c{j}") == _payload(i, j)
            vsi = children.read(f"c{j}")
            assert Path(vsi.split(",", 1)[1]).name.startswith("multi_part")


def test_level1_view_paths_and_unique_ids(ref_collection):
    ds = tacocore.load(str(ref_collection))
    ids = ds.sql('SELECT "internal:current_id" AS c, "internal:parent_id" AS p FROM level1')
    got = ids.data.to_arrow()
    assert got.column("c").to_pylist() == list(range(2 * N_SAMPLES))
    # Each child's parent is the level-0 row it belongs to, across parts.
    assert got.column("p").to_pylist() == [k // 2 for k in range(2 * N_SAMPLES)]
    joined = ds.sql(
        'SELECT l0.id AS parent, l1.id AS child, l1."internal:gdal_vsi" AS vsi FROM level0 l0 '
        'JOIN level1 l1 ON l1."internal:parent_id" = l0."internal:current_id" ORDER BY parent, child'
    ).data.to_arrow()
    assert joined.num_rows == 2 * N_SAMPLES
    from osgeo import gdal

    for parent, child, vsi in zip(*(joined.column(c).to_pylist() for c in ("parent", "child", "vsi"))):
        f = gdal.VSIFOpenL(vsi, "rb")
        data = gdal.VSIFReadL(1, 1 << 20, f)
        gdal.VSIFCloseL(f)
        assert data == _payload(int(parent[1:]), int(child[1:]))


def test_base_path_points_at_parts_elsewhere(ref_collection, tmp_path):
    index = tmp_path / "index"
    shutil.copytree(ref_collection / ".tacocat", index / ".tacocat")
    ds = tacocore.load(str(index / ".tacocat"), base_path=str(ref_collection))
    assert ds.data.read("s3").read_bytes("c1") == _payload(3, 1)
    with pytest.raises(tacocore.TacoIOError, match="multi_part0001.tacozip.*missing"):
        tacocore.load(str(index / ".tacocat"))


def test_missing_part_is_named(ref_collection, tmp_path):
    broken = _copy(ref_collection, tmp_path / "ds")
    (broken / "multi_part0002.tacozip").unlink()
    with pytest.raises(tacocore.TacoIOError, match="multi_part0002.tacozip' is missing"):
        tacocore.load(str(broken))
    findings = tacocore.validate(str(broken))
    assert any("multi_part0002.tacozip" in f["message"] for f in findings)


def test_index_past_the_end_of_a_part_is_named(ref_collection, tmp_path):
    broken = _copy(ref_collection, tmp_path / "ds")
    part = broken / "multi_part0003.tacozip"
    part.write_bytes(part.read_bytes()[:3000])
    with pytest.raises(tacocore.TacoFormatError, match="past the end of part 'multi_part0003"):
        tacocore.load(str(broken))
    assert any(f["severity"] == "error" for f in tacocore.validate(str(broken)))


def test_validate_accepts_the_reference_collection(ref_collection):
    assert [f for f in tacocore.validate(str(ref_collection)) if f["severity"] == "error"] == []
