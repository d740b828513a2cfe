"""Collections (spec §6.5, §6.6, §8.1; FORMAT.md §6-§7): multi-part datasets written by the
reference (tacotoolbox ``create(..., split_size=...)``: parts plus ``.tacocat/``) loaded by
tacocore with the rows, paths and bytes tacoreader gives; navigation into every part; base_path;
and every refusal (missing part, index past a part's end)."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import tacocore

# The reference tools are part of the test environment (make setup installs them into .venv);
# a missing one is an error, not a skip.
import tacoreader
from tacotoolbox import create as tb_create
from tacotoolbox.datamodel import Sample as TbSample, Taco as TbTaco, Tortilla as TbTortilla

N_SAMPLES = 6
REPO_ROOT = Path(__file__).resolve().parents[2]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"


@pytest.fixture(scope="session")
def run_cli():
    """run_cli(*args) -> stdout of `taco ARGS`; a non-zero exit fails the test with stderr."""
    assert TACO.is_file(), f"{TACO} is not built: run `make build`"

    def run(*args, expect: int = 0) -> subprocess.CompletedProcess:
        proc = subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == expect, f"taco {args} exited {proc.returncode}: {proc.stderr}"
        return proc

    return run


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
    assert ds._native.missing_parts == []
    # A collection's children are "tacocat" frames too, as tacoreader prints them (it said zip).
    for backend in ("pyarrow", "pandas"):
        child = tacocore.load(str(index / ".tacocat"), base_path=str(ref_collection), backend=backend).data.read("s3")
        assert repr(child).endswith(f"format=tacocat, backend={backend}]")
    # Without base_path the parts are not beside the index: it loads (tacoreader does too) and
    # says so; its rows answer queries, a sample's bytes cannot be read.
    with pytest.warns(UserWarning, match="part\\(s\\) of the collection are missing.*multi_part0001.tacozip"):
        alone = tacocore.load(str(index / ".tacocat"))
    assert len(alone.data) == len(ds.data)
    with pytest.raises(tacocore.TacoIOError, match="multi_part0001.tacozip' is missing"):
        alone.data.read(0).read_bytes(0)


def test_missing_part_is_named(ref_collection, tmp_path):
    """A part deleted from beside its index: load() warns and queries answer from the index, as
    in tacoreader (tacocore refused the load until 2026-12-02); reading a sample of that part
    names it; validate() reports it."""
    broken = _copy(ref_collection, tmp_path / "ds")
    (broken / "multi_part0002.tacozip").unlink()
    with pytest.warns(UserWarning, match="1 part\\(s\\) of the collection are missing"):
        ds = tacocore.load(str(broken))
    full = tacocore.load(str(ref_collection))
    assert ds.sql("SELECT id FROM data").data.to_arrow().to_pylist() == full.sql("SELECT id FROM data").data.to_arrow().to_pylist()
    assert [p.endswith("multi_part0002.tacozip") for p in ds._native.missing_parts] == [True]
    sources = ds.sql("SELECT \"internal:source_file\" AS f FROM data").data.to_arrow().to_pylist()
    in_missing = next(i for i, row in enumerate(sources) if row["f"] == "multi_part0002.tacozip")
    in_present = next(i for i, row in enumerate(sources) if row["f"] != "multi_part0002.tacozip")
    assert ds.data.read(in_present).read_bytes(0) == full.data.read(in_present).read_bytes(0)
    with pytest.raises(tacocore.TacoIOError, match="multi_part0002.tacozip' is missing, so its samples"):
        ds.data.read(in_missing)
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


# ---- writing indexes: taco tacocat / create_tacocat / create_tacollection -------------------------


def _parts_copy(ref_collection: Path, dst: Path) -> list[Path]:
    dst.mkdir(parents=True)
    parts = sorted(ref_collection.glob("*.tacozip"))
    for p in parts:
        shutil.copy2(p, dst / p.name)
    return [dst / p.name for p in parts]


def test_tacocat_folder_matches_the_reference(ref_collection, tmp_path):
    import duckdb

    parts = _parts_copy(ref_collection, tmp_path / "ds")
    written = tacocore.create_tacocat(parts, tmp_path / "ds")
    assert written == tmp_path / "ds" / ".tacocat"
    ours, theirs = written, ref_collection / ".tacocat"
    # COLLECTION.json byte for byte (json.dump(indent=4), ASCII escaping, no final newline).
    assert (ours / "COLLECTION.json").read_bytes() == (theirs / "COLLECTION.json").read_bytes()
    for level in (0, 1):
        a = duckdb.sql(f"SELECT * FROM '{ours}/level{level}.parquet'")
        b = duckdb.sql(f"SELECT * FROM '{theirs}/level{level}.parquet'")
        assert a.columns == b.columns
        assert a.fetchall() == b.fetchall()
    # The reference reader loads it and reads the same bytes through every path.
    ds = tacoreader.load(str(ours))
    for i in range(N_SAMPLES):
        children = ds.data.read(i)
        for j, vsi in enumerate(children._data.column("internal:gdal_vsi").to_pylist()):
            from osgeo import gdal

            f = gdal.VSIFOpenL(vsi, "rb")
            assert gdal.VSIFReadL(1, 1 << 20, f) == _payload(i, j)
            gdal.VSIFCloseL(f)


def test_tacocat_single_file_loads(ref_collection, tmp_path):
    parts = _parts_copy(ref_collection, tmp_path / "ds")
    written = tacocore.create_tacocat(parts, tmp_path / "ds", format="file")
    assert written.name == "__TACOCAT__"
    head = written.read_bytes()[:128]
    assert head[:8] == b"TACOCAT\0" and int.from_bytes(head[8:12], "little") == 1
    assert int.from_bytes(head[12:16], "little") == 1  # max_depth: levels 0 and 1
    for path in (written, tmp_path / "ds"):
        ds = tacocore.load(str(path))
        assert ds.data.to_arrow().column("id").to_pylist() == [f"s{i}" for i in range(N_SAMPLES)]
        assert ds.data.read("s5").read_bytes("c1") == _payload(5, 1)
    assert ds.collection["_tacocat"]["num_datasets"] == len(parts)
    assert ds.collection["taco:sources"]["files"] == [p.name for p in parts]


def test_tacollection_json_matches_the_reference(ref_collection, tmp_path, run_cli):
    parts = _parts_copy(ref_collection, tmp_path / "ds")
    out = tacocore.create_tacollection(parts, tmp_path / "ds")
    assert out.name == "TACOLLECTION.json"
    assert out.read_bytes() == (ref_collection / ".tacocat" / "COLLECTION.json").read_bytes()
    with pytest.raises(tacocore.TacoIOError, match="already exists"):
        tacocore.create_tacollection(parts, tmp_path / "ds")
    # tacotoolbox's signature: output is the file to write (it made a directory of that name),
    # None the inputs' directory, inputs= by name, validate_schema accepted
    from tacocore.tacocat import create_tacollection
    import tacotoolbox.tacocat as toolbox_tacocat

    for lib, where in ((toolbox_tacocat, "ref"), (tacocore.tacocat, "core")):
        lib.create_tacollection(inputs=parts, output=tmp_path / where / "meta" / "TACOLLECTION.json",
                                validate_schema=True)
        assert (tmp_path / where / "meta" / "TACOLLECTION.json").is_file()
    assert ((tmp_path / "core" / "meta" / "TACOLLECTION.json").read_bytes()
            == (tmp_path / "ref" / "meta" / "TACOLLECTION.json").read_bytes())
    assert create_tacollection(parts).name == "COLLECTION.json"  # beside the inputs
    assert (tmp_path / "ds" / "COLLECTION.json").read_bytes() == out.read_bytes()
    with pytest.warns(UserWarning, match="validate_schema=False ignored"):
        tacocore.create_tacocat(parts, tmp_path / "ds2", validate_schema=False)
    elsewhere = tmp_path / "elsewhere" / "x.tacozip"
    elsewhere.parent.mkdir()
    shutil.copy(parts[1], elsewhere)
    with pytest.raises(tacocore.TacoIOError, match="in different directories"):
        tacocore.create_tacocat([parts[0], elsewhere])
    # The CLI writes the same indexes.
    run_cli("tacocat", *parts, "--output", tmp_path / "cli")
    run_cli("tacocat", *parts, "--output", tmp_path / "cli", "--format", "file")
    assert ((tmp_path / "cli" / ".tacocat" / "COLLECTION.json").read_bytes()
            == out.read_bytes())
    ds = tacocore.load(str(tmp_path / "cli" / "__TACOCAT__"), base_path=str(tmp_path / "ds"))
    assert ds.data.read("s2").read_bytes("c0") == _payload(2, 0)


def test_tacocat_refuses_an_existing_index_and_leaves_nothing(ref_collection, tmp_path):
    parts = _parts_copy(ref_collection, tmp_path / "ds")
    tacocore.create_tacocat(parts, tmp_path / "ds")
    before = (tmp_path / "ds" / ".tacocat" / "level0.parquet").read_bytes()
    with pytest.raises(tacocore.TacoIOError, match="already exists"):
        tacocore.create_tacocat(parts[:2], tmp_path / "ds")
    assert (tmp_path / "ds" / ".tacocat" / "level0.parquet").read_bytes() == before
    with pytest.raises(tacocore.TacoIOError, match="nope.tacozip: no such file"):
        tacocore.create_tacocat([parts[0], tmp_path / "nope.tacozip"], tmp_path / "other")
    assert not (tmp_path / "other").exists() or not any((tmp_path / "other").iterdir())


def test_tacocat_refuses_parts_with_another_tree(ref_collection, tmp_path):
    parts = _parts_copy(ref_collection, tmp_path / "ds")
    flat_dir = tmp_path / "flat"
    flat_dir.mkdir()
    (flat_dir / "a.bin").write_bytes(b"abc")
    flat = TbTaco(tortilla=TbTortilla(samples=[TbSample(id="a", path=flat_dir / "a.bin")]),
                  id="flat", dataset_version="1", description="d", licenses=["CC-BY-4.0"],
                  providers=[{"name": "p"}], tasks=["other"])
    flat_part = Path(tb_create(flat, str(tmp_path / "ds" / "flat.tacozip"))[0])
    with pytest.raises(tacocore.TacoSchemaError, match="flat.tacozip.*root type"):
        tacocore.create_tacocat([parts[0], flat_part], tmp_path / "ds")
    assert not (tmp_path / "ds" / ".tacocat").exists()
    assert sorted(p.name for p in (tmp_path / "ds").iterdir()) == sorted(
        [p.name for p in parts] + ["flat.tacozip"])


# ---- multi-part create: split_size / group_by ------------------------------------------------------


def _core_taco(tmp_path: Path, n: int = 20, size: int = 4096, regions=None) -> tacocore.Taco:
    src = tmp_path / "src"
    src.mkdir(exist_ok=True)
    samples = []
    for i in range(n):
        p = src / f"f{i}.bin"
        p.write_bytes(bytes([i % 251]) * size)
        s = tacocore.Sample(id=f"f{i:03d}", path=p)
        if regions is not None:
            s.extend_with({"region": regions[i]})
        samples.append(s)
    return tacocore.Taco(tortilla=tacocore.Tortilla(samples=samples), id="parts",
                         dataset_version="1.0.0", description="parts", licenses=["CC-BY-4.0"],
                         providers=[{"name": "p"}], tasks=["other"])


def test_split_size_writes_parts_and_an_index_the_reference_reads(tmp_path):
    taco = _core_taco(tmp_path)
    out = tmp_path / "out"
    parts = tacocore.create(taco, out / "ds.tacozip", split_size="20KB")
    assert [p.name for p in parts] == [f"ds_part{k:04d}.tacozip" for k in range(1, 5)]
    assert (out / ".tacocat" / "level0.parquet").is_file()
    # Each part is a complete dataset with its own counts.
    for p in parts:
        assert tacocore.load(str(p)).pit_schema.root["n"] == 5
    ref = tacoreader.load(str(out / ".tacocat"))
    ours = tacocore.load(str(out))
    assert ref.data._data.column("id").to_pylist() == [f"f{i:03d}" for i in range(20)]
    assert ours.data.to_arrow().column("internal:gdal_vsi").to_pylist() == \
        ref.data._data.column("internal:gdal_vsi").to_pylist()
    from osgeo import gdal

    for i, vsi in enumerate(ref.data._data.column("internal:gdal_vsi").to_pylist()):
        f = gdal.VSIFOpenL(vsi, "rb")
        assert gdal.VSIFReadL(1, 1 << 20, f) == bytes([i % 251]) * 4096
        gdal.VSIFCloseL(f)
        assert ours.data.read_bytes(f"f{i:03d}") == bytes([i % 251]) * 4096
    assert ref.pit_schema.to_dict()["root"]["n"] == 20
    # One part needed: a single dataset, no index (as the reference).
    single = tacocore.create(taco, tmp_path / "one" / "ds.tacozip", split_size="1GB")
    assert [p.name for p in single] == ["ds.tacozip"]
    assert not (tmp_path / "one" / ".tacocat").exists()


def test_group_by_names_parts_by_value(tmp_path):
    regions = ["Ocean/Sea", "land", "land", "Ocean/Sea", "ice cap"] * 4
    taco = _core_taco(tmp_path, regions=regions)
    parts = tacocore.create(taco, tmp_path / "g" / "ds.tacozip", group_by="region")
    assert [p.name for p in parts] == ["ds_Ocean_Sea.tacozip", "ds_land.tacozip",
                                       "ds_ice_cap.tacozip"]
    assert [tacocore.load(str(p)).pit_schema.root["n"] for p in parts] == [8, 8, 4]
    ds = tacoreader.load(str(tmp_path / "g" / ".tacocat"))
    got = ds.data._data
    assert sorted(got.column("id").to_pylist()) == [f"f{i:03d}" for i in range(20)]
    with pytest.raises(tacocore.TacoSchemaError, match="no column 'nope'"):
        tacocore.create(taco, tmp_path / "bad" / "ds.tacozip", group_by="nope")
    assert not (tmp_path / "bad").exists() or not any((tmp_path / "bad").iterdir())


def test_group_by_several_columns_joins_values_as_the_reference(tmp_path):
    regions = ["north", "south", "north", "south", "north", "north"]
    sensors = ["s1", "s1", "s2", "s1", "s1", "s2"]
    src = tmp_path / "src"
    src.mkdir()
    files = []
    for i in range(6):
        (src / f"f{i}.bin").write_bytes(bytes([i]) * 1000)
        files.append(src / f"f{i}.bin")

    def build(mod, Sample, Tortilla, Taco):
        samples = []
        for i, f in enumerate(files):
            s = Sample(id=f"f{i:03d}", path=f)
            s.extend_with({"region": regions[i], "sensor": sensors[i]})
            samples.append(s)
        return Taco(tortilla=Tortilla(samples=samples), id="groups", dataset_version="1.0.0",
                    description="groups", licenses=["CC-BY-4.0"], providers=[{"name": "p"}],
                    tasks=["other"])

    ours = tacocore.create(build(tacocore, tacocore.Sample, tacocore.Tortilla, tacocore.Taco),
                           tmp_path / "ours" / "ds.tacozip", group_by=["region", "sensor"])
    import tacotoolbox
    from tacotoolbox.datamodel import Sample, Taco, Tortilla

    theirs = tacotoolbox.create(build(tacotoolbox, Sample, Tortilla, Taco),
                                tmp_path / "theirs" / "ds.tacozip", group_by=["region", "sensor"])
    assert [p.name for p in ours] == ["ds_north_s1.tacozip", "ds_south_s1.tacozip",
                                      "ds_north_s2.tacozip"]
    assert sorted(p.name for p in ours) == sorted(Path(p).name for p in theirs)
    for p in ours:
        mine = tacocore.load(str(p)).data.to_arrow().column("id").to_pylist()
        ref = tacocore.load(str(tmp_path / "theirs" / p.name)).data.to_arrow().column("id").to_pylist()
        assert mine == ref
    with pytest.raises(tacocore.TacoSchemaError, match="no column 'nope'"):
        tacocore.create(build(tacocore, tacocore.Sample, tacocore.Tortilla, tacocore.Taco),
                        tmp_path / "bad" / "ds.tacozip", group_by=["region", "nope"])
    with pytest.raises(tacocore.TacoSchemaError, match="non-empty list"):
        tacocore.create(build(tacocore, tacocore.Sample, tacocore.Tortilla, tacocore.Taco),
                        tmp_path / "bad" / "ds.tacozip", group_by=[])


def test_group_by_missing_value_names_the_samples(tmp_path):
    taco = _core_taco(tmp_path, n=4, regions=["a", None, "b", None])
    with pytest.raises(tacocore.TacoSchemaError, match="'f001', 'f003'"):
        tacocore.create(taco, tmp_path / "g" / "ds.tacozip", group_by="region")
    assert not (tmp_path / "g").exists() or not any((tmp_path / "g").iterdir())


def test_existing_part_or_index_is_never_overwritten(tmp_path, run_cli):
    taco = _core_taco(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "ds_part0003.tacozip").write_bytes(b"keep")
    with pytest.raises(tacocore.TacoIOError, match="ds_part0003.tacozip"):
        tacocore.create(taco, out / "ds.tacozip", split_size="20KB")
    assert sorted(p.name for p in out.iterdir()) == ["ds_part0003.tacozip"]
    assert (out / "ds_part0003.tacozip").read_bytes() == b"keep"
    (out / "ds_part0003.tacozip").unlink()
    (out / ".tacocat").mkdir()
    with pytest.raises(tacocore.TacoIOError, match=".tacocat"):
        tacocore.create(taco, out / "ds.tacozip", split_size="20KB")
    assert sorted(p.name for p in out.iterdir()) == [".tacocat"]


def test_cli_split_and_group(tmp_path, run_cli):
    src = tmp_path / "in"
    src.mkdir()
    for i in range(12):
        (src / f"f{i:02d}.bin").write_bytes(bytes([i]) * 3000)
    (tmp_path / "meta.csv").write_text(
        "path,zone\n" + "".join(f"f{i:02d}.bin,z{i % 2}\n" for i in range(12)))
    common = ["--id", "ds", "--description", "d", "--license", "CC-BY-4.0", "--provider", "p",
              "--task", "other"]
    run_cli("create", "--from", src, tmp_path / "s" / "ds.tacozip", "--split-size", "9KB", *common)
    assert sorted(p.name for p in (tmp_path / "s").glob("*.tacozip")) == [
        f"ds_part{k:04d}.tacozip" for k in range(1, 5)]
    run_cli("create", "--from", src, "--metadata", tmp_path / "meta.csv",
            tmp_path / "g" / "ds.tacozip", "--group-by", "zone", *common)
    assert sorted(p.name for p in (tmp_path / "g").glob("*.tacozip")) == ["ds_z0.tacozip",
                                                                           "ds_z1.tacozip"]
    # --group-by repeated: the columns' values joined by '_' (tacotoolbox's list of columns);
    # the output after it is still the positional OUTPUT.
    (tmp_path / "meta2.csv").write_text("path,zone,band\n" + "".join(
        f"f{i:02d}.bin,z{i % 2},b{i % 3}\n" for i in range(12)))
    run_cli("create", "--from", src, "--metadata", tmp_path / "meta2.csv", "--group-by", "zone",
            "--group-by", "band", tmp_path / "gg" / "ds.tacozip", *common)
    assert sorted(p.name for p in (tmp_path / "gg").glob("*.tacozip")) == sorted(
        f"ds_z{z}_b{b}.tacozip" for z in range(2) for b in range(3))
    assert "12 rows" in run_cli("info", tmp_path / "gg").stdout
    for d in ("s", "g"):
        assert "12 rows" in run_cli("info", tmp_path / d).stdout
        assert run_cli("validate", tmp_path / d).returncode == 0
        listing = run_cli("ls", tmp_path / d).stdout
        assert "f07.bin" in listing
    cat = subprocess.run([str(TACO), "cat", str(tmp_path / "s"), "f11.bin"], capture_output=True)
    assert cat.stdout == bytes([11]) * 3000
    sql = run_cli("sql", tmp_path / "g", 'SELECT count(*) AS n FROM data WHERE id LIKE \'f0%\'')
    assert "10" in sql.stdout
    bad = run_cli("create", "--from", src, tmp_path / "x" / "ds.tacozip", "--group-by", "zone",
                  *common, expect=1)
    assert "no column 'zone'" in bad.stderr


def test_validate_finds_an_index_that_no_longer_matches_its_part(tmp_path, run_cli):
    # Two parts and their index; then part 2 is replaced by another dataset of the same shape
    # whose samples sit elsewhere: loading still works (every range is inside the file), the
    # validator names the stale part.
    taco = _core_taco(tmp_path, n=6, size=1000)
    out = tmp_path / "out"
    parts = tacocore.create(taco, out / "ds.tacozip", split_size="3000B")
    assert len(parts) == 2
    (tmp_path / "o").mkdir()
    other = _core_taco(tmp_path / "o", n=3, size=1500)
    replaced = tacocore.create(other, tmp_path / "o" / "x.tacozip")[0]
    shutil.copy2(replaced, parts[1])
    findings = tacocore.validate(str(out))
    stale = [f for f in findings if f["code"] == "collection.part-mismatch"]
    assert stale and "ds_part0002.tacozip" in stale[0]["message"], findings
    proc = run_cli("validate", out, expect=1)
    assert "ds_part0002.tacozip" in proc.stdout + proc.stderr


def _rewrite_index_level0(out: Path, change) -> None:
    import pyarrow.parquet as pq

    path = out / ".tacocat" / "level0.parquet"
    table = change(pq.read_table(path))
    path.unlink()
    pq.write_table(table, path)


def test_validate_finds_index_values_that_differ_from_the_part(tmp_path, run_cli):
    # The index keeps every row's id and byte range, but one value was changed (a hand-edited or
    # partly regenerated index): SQL over the index would answer with a value no part holds.
    import pyarrow as pa

    regions = [f"r{i % 3}" for i in range(6)]
    out = tmp_path / "out"
    parts = tacocore.create(_core_taco(tmp_path, n=6, size=1000, regions=regions),
                            out / "ds.tacozip", split_size="3000B")
    assert len(parts) == 2
    assert not [f for f in tacocore.validate(str(out)) if f["severity"] == "error"]

    def change_f004(table):
        column = table.column("region").to_pylist()
        ids = table.column("id").to_pylist()
        column[ids.index("f004")] = "elsewhere"
        return table.set_column(table.schema.get_field_index("region"), "region",
                                pa.array(column, table.schema.field("region").type))

    _rewrite_index_level0(out, change_f004)
    assert tacocore.load(str(out)).sql("SELECT region FROM data WHERE id = 'f004'").to_native() \
        .column("region").to_pylist() == ["elsewhere"]
    findings = [f for f in tacocore.validate(str(out)) if f["code"] == "collection.part-values"]
    assert len(findings) == 1, findings
    message = findings[0]["message"]
    assert "ds_part0002.tacozip" in message and "1 of its rows" in message, message
    assert "sample 'f004'" in message and "region" in message, message
    proc = run_cli("validate", out, expect=1)
    assert "collection.part-values" in proc.stdout + proc.stderr


def test_validate_finds_a_part_column_missing_from_the_index(tmp_path):
    out = tmp_path / "out"
    tacocore.create(_core_taco(tmp_path, n=6, size=1000, regions=["a"] * 6), out / "ds.tacozip",
                    split_size="3000B")
    _rewrite_index_level0(out, lambda table: table.drop_columns(["region"]))
    findings = [f for f in tacocore.validate(str(out)) if f["code"] == "collection.part-mismatch"]
    assert findings and all("lacks column(s) region" in f["message"] for f in findings), findings


def test_tacollection_names_the_column_whose_type_differs(tmp_path, make_taco):
    parts = []
    for i, cloud in enumerate((1.5, "high")):
        s = tacocore.Sample(id=f"s{i}", path=b"x")
        s.extend_with({"cloud": cloud})
        parts.append(tacocore.create(make_taco([s]), tmp_path / f"p{i}.tacozip")[0])
    with pytest.raises(tacocore.TacoSchemaError) as info:
        tacocore.create_tacollection(parts, tmp_path / "ds")
    message = str(info.value)
    assert "taco:field_schema level0: column 'cloud' is string here, double in the first part" in message, message


@pytest.mark.parametrize("values", [
    [b"ab", b"cd", b"xyz", b"ab"],
    [100.0, 1e-07, 2.5, 100.0],
    [datetime.datetime(2020, 1, 1), datetime.datetime(2020, 1, 1, 12, 30),
     datetime.datetime(2021, 5, 6, 0, 0, 0, 500000), datetime.datetime(2020, 1, 1)],
    [datetime.date(2020, 1, 1), datetime.date(2020, 1, 2), datetime.date(2021, 1, 1),
     datetime.date(2020, 1, 1)],
    [True, False, False, True],
], ids=["bytes", "floats", "timestamps", "dates", "bools"])
def test_group_by_names_parts_as_the_reference_for_every_value_type(tmp_path, values):
    # Before: bytes of one length shared a part ("<2 bytes>"), floats and times had other names.
    src = tmp_path / "src"
    src.mkdir()
    files = []
    for i in range(len(values)):
        (src / f"f{i}.bin").write_bytes(bytes([i]) * 10)
        files.append(src / f"f{i}.bin")

    def build(Sample, Tortilla, Taco):
        samples = []
        for i, f in enumerate(files):
            s = Sample(id=f"f{i}", path=f)
            s.extend_with({"key": values[i]})
            samples.append(s)
        return Taco(tortilla=Tortilla(samples=samples), id="groups", dataset_version="1.0.0",
                    description="groups", licenses=["CC-BY-4.0"], providers=[{"name": "p"}],
                    tasks=["other"])

    import tacotoolbox
    from tacotoolbox.datamodel import Sample, Taco, Tortilla

    ours = tacocore.create(build(tacocore.Sample, tacocore.Tortilla, tacocore.Taco),
                           tmp_path / "ours" / "ds.tacozip", group_by="key")
    theirs = tacotoolbox.create(build(Sample, Tortilla, Taco), tmp_path / "theirs" / "ds.tacozip",
                                group_by="key")
    assert len(ours) == len(set(values))
    assert sorted(p.name for p in ours) == sorted(Path(p).name for p in theirs)
    for p in ours:
        mine = tacocore.load(str(p)).data.to_arrow().column("id").to_pylist()
        ref = tacocore.load(str(tmp_path / "theirs" / p.name)).data.to_arrow().column("id").to_pylist()
        assert mine == ref


def test_a_missing_input_is_a_file_not_found_error_as_in_tacotoolbox(tmp_path):
    """tacotoolbox's create_tacocat raises FileNotFoundError for a part that is not there;
    tacocore's error is also one (and a TacoIOError), for both index functions."""
    for function in (tacocore.create_tacocat, tacocore.create_tacollection):
        with pytest.raises(FileNotFoundError, match="nope.tacozip: no such file"):
            function([tmp_path / "nope.tacozip"], tmp_path / "out")
    assert not (tmp_path / "out").exists()
    import tacotoolbox

    with pytest.raises(FileNotFoundError):
        tacotoolbox.create_tacocat([tmp_path / "nope.tacozip"], tmp_path / "out")
    assert issubclass(tacocore.TacoPathNotFoundError, tacocore.TacoIOError)


def test_concat_of_collections_gives_source_path_as_tacoreader(ref_collection, tmp_path):
    """tacoreader's concat gives a collection's rows the directory of its parts as
    internal:source_path (`vsi_base_path.rstrip("/")`), so that `source_path + "/" +
    source_file` names the part; tacocore gave the part file itself until 2026-12-02. The bytes
    still come from each row's own part, and the level-1 rows follow."""
    other = _copy(ref_collection, tmp_path / "other")
    ours = tacocore.concat([tacocore.load(str(ref_collection)), tacocore.load(str(other))])
    theirs = tacoreader.concat([tacoreader.load(str(ref_collection / ".tacocat")),
                                tacoreader.load(str(other / ".tacocat"))])
    query = ('SELECT id, "internal:source_file", "internal:source_path", "internal:gdal_vsi" '
             'FROM level0')
    mine = ours.sql(query).to_arrow().to_pylist()
    ref = theirs._duckdb.execute(query).fetch_arrow_table().to_pylist()  # tacoreader's own views
    assert len(mine) == 2 * N_SAMPLES and mine == ref
    assert {r["internal:source_path"] for r in mine} == {
        str(ref_collection.resolve()), str(other.resolve())}
    for r in mine:
        part = Path(r["internal:source_path"]) / r["internal:source_file"]
        assert part.is_file() and r["internal:gdal_vsi"].endswith("," + str(part))
    frame = ours.data
    assert frame.read(N_SAMPLES + 1).read_bytes("c1") == _payload(1, 1)
    level1 = ours.sql('SELECT "internal:source_path" AS sp, "internal:source_file" AS sf, '
                      '"internal:gdal_vsi" AS v FROM level1').to_arrow().to_pylist()
    assert len(level1) == 4 * N_SAMPLES
    assert all(r["v"].endswith(",%s/%s" % (r["sp"], r["sf"])) for r in level1)
