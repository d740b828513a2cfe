"""Reading: tacocore.load and TacoDataset (tacoreader's surface), compared with tacoreader."""

from __future__ import annotations

import json
import pathlib

import pytest

import tacocore
from conftest import FIXTURE_DATASETS, demo_taco

META = ["id", "version", "description", "tasks", "licenses", "title", "keywords", "extent", "providers",
        "curators", "collection", "field_schema"]


# --- load -----------------------------------------------------------------------------------------

def test_load_accepts_str_path_and_one_element_list(fixture_paths):
    p = fixture_paths["reader-zip-flat"]
    for arg in (p, pathlib.Path(p), [p], [pathlib.Path(p)], (p,)):
        ds = tacocore.load(arg)
        assert isinstance(ds, tacocore.TacoDataset)
        assert ds.id == tacocore.load(p).id
        assert len(ds.data) == 5


def test_load_empty_list_is_a_query_error():
    with pytest.raises(tacocore.TacoQueryError, match="empty list"):
        tacocore.load([])


def test_load_many_paths_concatenates(fixture_paths):
    p = fixture_paths["reader-zip-flat"]
    ds = tacocore.load([p, pathlib.Path(p), p])
    assert ds.path == "<concatenated>"
    assert len(ds.sources) == 3
    assert len(ds.data) == 15


@pytest.mark.parametrize("name", sorted(FIXTURE_DATASETS))
def test_collection_metadata_matches_tacoreader(name, fixture_paths, reference):
    path = fixture_paths[name]
    ours, theirs = tacocore.load(path), reference.load(path)
    for attr in META:
        assert getattr(ours, attr) == getattr(theirs, attr), attr
    assert ours.pit_schema.to_dict() == theirs.pit_schema.to_dict()
    assert ours.pit_schema.max_depth() == theirs.pit_schema.max_depth()
    assert ours.pit_schema.root == theirs.pit_schema.root
    assert ours.pit_schema.hierarchy == theirs.pit_schema.hierarchy
    assert repr(ours.pit_schema) == repr(theirs.pit_schema)
    assert ours.format == ("zip" if path.endswith(".tacozip") else "folder")
    assert ours.path == path


def test_metadata_of_a_created_dataset(demo_datasets):
    for fmt, path in demo_datasets.items():
        ds = tacocore.load(path)
        assert ds.id == "demo"
        assert ds.version == "1.0.0"
        assert ds.description == "three demo scenes"
        assert ds.tasks == ["semantic-segmentation"]
        assert ds.licenses == ["CC-BY-4.0"]
        assert ds.providers == [{"name": "tacocore tests", "roles": ["producer"], "url": None, "links": None}]
        assert ds.title is None and ds.curators is None and ds.keywords is None
        assert ds.taco_version == "2.0.0"
        assert ds.extent["spatial"] == [-180.0, -90.0, 180.0, 90.0]
        assert ds.pit_schema.root == {"n": 3, "type": "FOLDER"}
        assert ds.pit_schema.hierarchy["1"][0]["id"] == ["image", "mask"]
        assert ds.pit_schema.max_depth() == 1
        assert [f[0] for f in ds.field_schema["level1"]][:3] == ["id", "type", "sensor"]
        coll = ds.collection
        assert coll["id"] == "demo" and "taco:pit_schema" in coll
        coll["id"] = "changed"  # a copy
        assert ds.collection["id"] == "demo"
        assert ds.format == fmt


def test_pit_schema_helpers(fixture_paths):
    a = tacocore.load(fixture_paths["toolbox-zip-nested_a"]).pit_schema
    b = tacocore.load(fixture_paths["toolbox-zip-nested_b"]).pit_schema
    flat = tacocore.load(fixture_paths["reader-zip-flat"]).pit_schema
    assert a.is_compatible(b) and b.is_compatible(a)
    assert not a.is_compatible(flat)
    c = a.with_n(99)
    assert c.root["n"] == 99 and a.root["n"] != 99
    assert c.is_compatible(a)
    assert flat.max_depth() == 0


# --- sql ------------------------------------------------------------------------------------------

def test_sql_is_lazy_and_chains(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    lazy = ds.sql("SELECT * FROM data WHERE nope > 1")  # nothing runs yet
    with pytest.raises(tacocore.TacoQueryError, match="nope"):
        lazy.data
    first = ds.sql("SELECT * FROM data WHERE cloud_cover < 20")
    assert isinstance(first, tacocore.TacoDataset)
    assert sorted(first.data.to_arrow()["id"].to_pylist()) == ["lima", "valencia"]
    second = first.sql("SELECT * FROM data WHERE split = 'train' ORDER BY cloud_cover")
    assert second.data.to_arrow()["id"].to_pylist() == ["lima", "valencia"]
    third = second.sql("select id from data where valid")  # any spelling of `data`
    assert third.data.to_arrow()["id"].to_pylist() == ["valencia"]
    assert third.count() == 1
    # the parent views are unchanged, and metadata carries over
    assert len(ds.data) == 3 and len(first.data) == 2
    assert third.id == ds.id and third.collection == ds.collection


def test_sql_results_match_tacoreader(fixture_paths, reference):
    path = fixture_paths["reader-zip-flat"]
    query = "SELECT * FROM data WHERE cloud_cover > 20 ORDER BY cloud_cover DESC"
    ours = tacocore.load(path).sql(query).data.to_arrow()
    theirs = reference.load(path).sql(query)  # tacoreader 2.4.21 returns the table at once
    theirs = theirs.data.to_arrow() if hasattr(theirs, "data") else theirs
    theirs = theirs.select([c for c in theirs.column_names if not c.startswith("internal:") or c == "internal:gdal_vsi"])
    assert ours.to_pylist() == theirs.to_pylist()


def test_sql_can_read_deeper_levels(demo_datasets):
    ds = tacocore.load(demo_datasets["folder"])
    rows = ds.sql("SELECT id, sensor FROM level1 WHERE sensor = 'mask'").data
    assert len(rows) == 3
    assert rows.to_arrow()["id"].to_pylist() == ["mask"] * 3


def test_data_and_data_raw(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    data, raw = ds.data, ds.data_raw
    assert [c for c in data.columns if c.startswith("internal:")] == ["internal:gdal_vsi"]
    assert {"internal:current_id", "internal:parent_id", "internal:offset", "internal:size",
            "internal:gdal_vsi"} <= set(raw.columns)
    assert len(data) == len(raw) == ds.count() == 3


def test_dataset_read_is_data_read(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    assert ds.read("lima").to_arrow() == ds.data.read("lima").to_arrow()
    assert ds.read(0).read(0) == ds.data.read(0).read(0)


# --- lifetime -------------------------------------------------------------------------------------

def test_close_and_context_manager(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    child = ds.sql("SELECT * FROM data")
    df = ds.data
    ds.close()
    ds.close()  # twice is fine
    with pytest.raises(tacocore.TacoError, match="closed"):
        ds.data
    with pytest.raises(tacocore.TacoError, match="closed"):
        ds.sql("SELECT 1")
    # Everything derived from the closed dataset refuses, every kind of read alike (issue 18).
    for use in (lambda: child.data, lambda: df.read("lima"), lambda: df.read_bytes(0),
                lambda: df.read_array(0), lambda: df.read_arrays([0])):
        with pytest.raises(tacocore.TacoQueryError, match="closed"):
            use()
    assert len(tacocore.load(demo_datasets["zip"]).data) == 3  # another load of the same files
    with tacocore.load(demo_datasets["folder"]) as ctx:
        assert len(ctx.data) == 3
    with pytest.raises(tacocore.TacoError, match="closed"):
        ctx.data


# --- display --------------------------------------------------------------------------------------

def test_repr_is_readable(demo_datasets, fixture_paths):
    text = repr(tacocore.load(demo_datasets["zip"]))
    assert text.startswith("<TacoDataset 'demo'>")
    assert "Version: 1.0.0" in text and "three demo scenes" in text and "semantic-segmentation" in text
    assert "Spatial Extent: [-180.00°, -90.00°, 180.00°, 90.00°]" in text
    long = repr(tacocore.load(fixture_paths["reader-folder-nested"]))
    assert "Temporal Extent:" in long


def test_repr_cuts_long_descriptions(tmp_path, demo_input):
    path = tacocore.create(demo_taco(demo_input, "x" * 200), tmp_path / "long.tacozip")[0]
    text = repr(tacocore.load(path))
    assert "x" * 80 + "..." in text and "x" * 81 not in text


def test_repr_html_escapes_user_text(tmp_path, demo_input):
    evil = '<script>alert("x")</script> & <b>bold</b>'
    path = tacocore.create(demo_taco(demo_input, evil), tmp_path / "evil.tacozip")[0]
    html = tacocore.load(path)._repr_html_()
    assert "<script>" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;" in html and "&amp;" in html
    assert "demo" in html and "semantic-segmentation" in html
    assert html.count("<table") == html.count("</table>")


def test_repr_html_escapes_every_field(tmp_path):
    taco = tacocore.Taco(
        tacocore.Tortilla([tacocore.Sample("a", b"1", **{"x:y": 1})]),
        id="html-test", dataset_version="<v>", description="d", licenses=["<lic>"],
        providers=[{"name": "<p>"}], tasks=["other"], title="<i>title</i>")
    html = tacocore.load(tacocore.create(taco, tmp_path / "h.tacozip")[0])._repr_html_()
    for raw in ("<v>", "<lic>", "<i>"):
        assert raw not in html
    assert "&lt;i&gt;title&lt;/i&gt;" in html


def test_collection_is_the_stored_document(demo_datasets):
    for path in demo_datasets.values():
        ds = tacocore.load(path)
        if path.endswith(".tacozip"):
            import zipfile

            stored = json.loads(zipfile.ZipFile(path).read("COLLECTION.json"))
        else:
            stored = json.loads((pathlib.Path(path) / "COLLECTION.json").read_text())
        assert ds.collection == stored


# --- validate -------------------------------------------------------------------------------------

def test_validate(demo_datasets, fixture_paths):
    for path in demo_datasets.values():
        assert tacocore.validate(path) == []
    assert tacocore.validate(pathlib.Path(fixture_paths["reader-zip-flat"])) == []
    findings = tacocore.validate(fixture_paths["reader-zip-nested"])  # the known writer defect
    assert findings and all(set(f) == {"severity", "code", "location", "message"} for f in findings)
    assert {f["code"] for f in findings} == {"zip.offset-mismatch"}
    assert all(f["location"].startswith("METADATA/level1.parquet") for f in findings)


def test_validate_is_clean_on_every_type_create_writes(tmp_path, make_taco):
    """DATE, TIMESTAMPTZ, DECIMAL, STRUCT, MAP and fixed-size lists are TACO value types that
    create writes: validating the result warned 'no TACO metadata equivalent' for each."""
    import datetime
    import decimal

    import pyarrow as pa

    samples = []
    for i in range(2):
        s = tacocore.Sample(f"s{i}", b"ab" * 4)
        s.extend_with(pa.table({
            "day": [datetime.date(2020, 1, i + 1)],
            "instant": pa.array([datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)],
                                pa.timestamp("us", tz="UTC")),
            "nested": [{"a": i, "b": "x"}],
            "price": pa.array([decimal.Decimal("1.25")], pa.decimal128(5, 2)),
            "tags": pa.array([[("k", 1.5)]], pa.map_(pa.string(), pa.float64())),
            "pair": pa.array([[1, 2]], pa.list_(pa.int64(), 2)),
        }))
        samples.append(s)
    for name in ("t.tacozip", "t_folder"):
        tacocore.create(make_taco(samples), tmp_path / name)
        assert tacocore.validate(tmp_path / name) == [], name


def test_extent_is_an_empty_dict_when_the_collection_has_none(fixture_paths, tmp_path):
    # tacoreader gives {} (collection.get("extent", {})), so ds.extent.get(...) works in scripts.
    import json
    import shutil
    folder = tmp_path / "flat"
    shutil.copytree(fixture_paths["reader-folder-flat"], folder)
    doc = json.loads((folder / "COLLECTION.json").read_text())
    del doc["extent"]
    (folder / "COLLECTION.json").write_text(json.dumps(doc))
    ds = tacocore.load(str(folder))
    assert ds.extent == {} and ds.extent.get("spatial") is None
    assert tacocore.load(fixture_paths["reader-folder-flat"]).extent["spatial"]
