"""Legacy v1 read (issue 16): files written by pytortilla 0.5.1 / tacotoolbox 0.5.2 open with
tacocore.load and the CLI, with every sample's bytes and every FOOTER value as written."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from v1_footer import collection, footer, sample_bytes  # noqa: E402

tacocore = pytest.importorskip("tacocore")

DROPPED = {"tortilla:id", "tortilla:offset", "tortilla:length", "__index_level_0__"}


def same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def rows(frame) -> list[dict]:
    return frame.to_arrow().to_pylist()


def test_flat_tortilla_bytes_and_values(v1):
    path = v1.path("flat.tortilla")
    data = path.read_bytes()
    expected = footer(data)
    ds = tacocore.load(str(path))
    got = rows(ds.data)
    assert [r["id"] for r in got] == [r["tortilla:id"] for r in expected]
    assert [r["type"] for r in got] == ["FILE"] * len(expected)
    raw = rows(ds.data_raw)
    for e, g, r in zip(expected, got, raw):
        # Every v1 column but the three mapped ones keeps its name and value.
        for col, value in e.items():
            if col in DROPPED:
                continue
            assert same(g[col], value), (e["tortilla:id"], col, g[col], value)
        assert r["internal:offset"] == e["tortilla:offset"]
        assert r["internal:size"] == e["tortilla:length"]
        assert g["internal:gdal_vsi"] == (
            f"/vsisubfile/{e['tortilla:offset']}_{e['tortilla:length']},{path.resolve()}")
    # The bytes each sample was made from, through read_bytes and `taco cat`.
    for row in v1.manifest["flat.tortilla"]["rows"]:
        original = Path(row["path"]).read_bytes()
        assert ds.data.read_bytes(row["id"]) == original
    assert sample_bytes(data, expected[2]) == Path(v1.manifest["flat.tortilla"]["rows"][2]["path"]).read_bytes()


def test_flat_tortilla_read_array(v1):
    ds = tacocore.load(str(v1.path("flat.tortilla")))
    array = ds.data.read_array("tile_2")
    assert array.shape[-2:] == (8, 8)
    assert int(array.reshape(-1)[0]) == 200 and int(array.reshape(-1)[63]) == 263


def test_cli_reads_a_tortilla(v1, taco):
    path = v1.path("flat.tortilla")
    info = taco("info", path)
    assert info.returncode == 0, info.stderr
    assert b"level 0: 6 rows" in info.stdout
    out = taco("sql", path, 'SELECT id, "tortilla:file_format" FROM data WHERE label = \'text\'',
               "--json")
    assert out.returncode == 0, out.stderr
    assert b'"notes"' in out.stdout and b'"BYTES"' in out.stdout
    cat = taco("cat", path, "tile_4")
    assert cat.returncode == 0, cat.stderr
    assert cat.stdout == (v1.inputs / "tile_4.tif").read_bytes()


def test_nested_taco_levels(v1):
    path = v1.path("nested.taco")
    data = path.read_bytes()
    top = footer(data)
    ds = tacocore.load(str(path))
    assert [r["id"] for r in rows(ds.data)] == ["region_0", "region_1", "region_2"]
    assert {r["type"] for r in rows(ds.data)} == {"FOLDER"}
    assert [r["region"] for r in rows(ds.data)] == ["r0", "r1", "r2"]
    level1 = rows(ds.sql('SELECT id, "internal:parent_id" AS p, "internal:relative_path" AS rp '
                         "FROM level1").data_raw)
    assert [r["p"] for r in level1] == [0, 0, 1, 1, 2, 2]
    assert [r["rp"] for r in level1][2:4] == ["region_1/lr", "region_1/hr"]
    for parent, want in zip(top, v1.manifest["nested.taco"]["rows"]):
        children = ds.data.read(parent["tortilla:id"])
        inner = footer(data, parent["tortilla:offset"])
        got = rows(children)
        assert [r["id"] for r in got] == [c["id"] for c in want["children"]]
        for g, e, c in zip(got, inner, want["children"]):
            assert same(g["stac:geotransform"], e["stac:geotransform"])
            assert g["cloud_cover"] == e["cloud_cover"]
            assert children.read_bytes(c["id"]) == Path(c["path"]).read_bytes()


def test_deep_tortilla_three_levels(v1):
    ds = tacocore.load(str(v1.path("deep.tortilla")))
    hierarchy = ds.collection["taco:pit_schema"]["hierarchy"]
    assert hierarchy["1"] == [{"n": 4, "type": ["FOLDER", "FOLDER"], "id": ["sensor_0", "sensor_1"]}]
    assert [p["n"] for p in hierarchy["2"]] == [4, 4]  # one pattern per sensor id
    for site in v1.manifest["deep.tortilla"]["rows"]:
        sensors = ds.data.read(site["id"])
        assert [r["id"] for r in rows(sensors)] == [s["id"] for s in site["children"]]
        for sensor in site["children"]:
            files = sensors.read(sensor["id"])
            assert [r["id"] for r in rows(files)] == ["red", "nir"]
            for f in sensor["children"]:
                assert files.read_bytes(f["id"]) == Path(f["path"]).read_bytes()
    level2 = rows(ds.sql('SELECT "internal:relative_path" AS rp FROM level2').data_raw)
    assert level2[-1]["rp"] == "site_1/sensor_1/nir"


def test_taco_collection_is_mapped(v1):
    path = v1.path("nested.taco")
    original = collection(path)
    ds = tacocore.load(str(path))
    col = ds.collection
    assert col["id"] == original["id"] == "legacyfixture"
    assert col["dataset_version"] == original["dataset_version"]
    assert col["description"] == original["description"]
    assert col["licenses"] == original["licenses"]
    assert col["tasks"] == [original["task"]]
    assert col["taco_version"] == "2.0.0"
    assert col["keywords"] == original["keywords"]
    assert col["providers"] == [{"name": "Tortilla Lab", "organization": "Legacy Org",
                                 "role": "producer"}]
    assert col["extent"] == {"spatial": original["extent"]["spatial"][0],
                             "temporal": original["extent"]["temporal"][0]}
    assert col["legacy_v1"]["collection"] == original
    assert col["legacy_v1"]["format"] == "TACO 0.2"
    pit = col["taco:pit_schema"]
    assert pit["root"] == {"n": 3, "type": "FOLDER"}
    assert pit["hierarchy"]["1"] == [{"n": 6, "type": ["FILE", "FILE"], "id": ["lr", "hr"]}]


def test_tortilla_without_collection_gets_one(v1):
    col = tacocore.load(str(v1.path("flat.tortilla"))).collection
    assert col["id"] == "flat"
    assert col["legacy_v1"] == {"format": "Tortilla 0.5", "file": "flat.tortilla"}


@pytest.mark.parametrize("name", ["multi.0000.part.taco", "multi.0002.part.taco", "multi.taco"])
def test_multipart_opens_whole_from_any_part(v1, name):
    files = v1.manifest["multi.taco"]["files"]
    assert len(files) == 3  # the writer split it (chunk_size 1KB)
    ds = tacocore.load(str(v1.path(name)))
    got = rows(ds.data)
    assert [r["id"] for r in got] == [r["id"] for r in v1.manifest["multi.taco"]["rows"]]
    for row in v1.manifest["multi.taco"]["rows"]:
        assert ds.data.read_bytes(row["id"]) == Path(row["path"]).read_bytes()
    # Each part's samples point into that part.
    assert {r["internal:gdal_vsi"].rsplit(",", 1)[1] for r in got} == {
        str(Path(f).resolve()) for f in files}


def test_irregular_nested_tortillas_still_read(v1):
    ds = tacocore.load(str(v1.path("irregular.taco")))
    children = ds.data.read("group_1")
    assert [r["id"] for r in rows(children)] == ["band_2", "band_3"]
    assert children.read_bytes("band_3") == (v1.inputs / "tile_3.tif").read_bytes()


def test_is_legacy_v1(v1):
    assert tacocore.is_legacy_v1(v1.path("flat.tortilla"))
    assert not tacocore.is_legacy_v1(v1.inputs / "tile_0.tif")


def test_split_nested_taco_navigates_across_parts(v1):
    files = v1.manifest["split.taco"]["files"]
    assert len(files) == 3  # one nested tortilla per part (chunk_size 11KB)
    ds = tacocore.load(str(v1.path("split.0001.part.taco")))
    assert [r["id"] for r in rows(ds.data)] == ["region_0", "region_1", "region_2"]
    for parent in v1.manifest["split.taco"]["rows"]:
        children = ds.data.read(parent["id"])
        assert [r["id"] for r in rows(children)] == ["lr", "hr"]
        for c in parent["children"]:
            assert children.read_bytes(c["id"]) == Path(c["path"]).read_bytes()


def test_sandboxed_load_navigates(v1):
    ds = tacocore.load(str(v1.path("deep.tortilla")), sandbox=True)
    nir = ds.data.read("site_0").read("sensor_1").read_bytes("nir")
    want = v1.manifest["deep.tortilla"]["rows"][0]["children"][1]["children"][1]["path"]
    assert nir == Path(want).read_bytes()
    with pytest.raises(tacocore.TacoQueryError):
        ds.sql("SELECT * FROM read_csv('/etc/passwd')").data
