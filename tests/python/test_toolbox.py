"""Creating: Sample, Tortilla, Taco, create (tacotoolbox's surface) and the mapping of Python
values to typed metadata values."""

from __future__ import annotations

import datetime
import json
import pathlib
import zipfile

import numpy as np
import pyarrow as pa
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS, arrow_types


def written_types(tmp_path, **fields) -> dict:
    """{column: arrow type string} of level 0 after writing two samples with `fields`."""
    samples = [tacocore.Sample(f"s{i}", b"x", **fields) for i in range(2)]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    path = tacocore.create(taco, tmp_path / f"t{len(list(tmp_path.iterdir()))}.tacozip")[0]
    ds = tacocore.load(path)
    table = ds.data.to_arrow()
    return dict(arrow_types(table)), table.to_pylist()[0], {f[0]: f[1] for f in ds.field_schema["level0"]}


# --- Sample ---------------------------------------------------------------------------------------

def test_sample_from_path_str_path_bytes(demo_input):
    tif = demo_input / "lima" / "mask.tif"
    for path in (tif, str(tif)):
        s = tacocore.Sample("m", path)
        assert s.id == "m" and s.type == "FILE"
        assert s.size == tif.stat().st_size
        assert s.path == pathlib.Path(tif)
    for data in (b"abc", bytearray(b"abc"), memoryview(b"abc")):
        s = tacocore.Sample("b", data)
        assert s.type == "FILE" and s.size == 3 and s.path is None
    assert tacocore.Sample("empty", b"").size == 0


def test_sample_type_auto_explicit_and_mismatch():
    child = tacocore.Tortilla([tacocore.Sample("x", b"1")])
    assert tacocore.Sample("f", child).type == "FOLDER"
    assert tacocore.Sample("f", child, type="FOLDER").type == "FOLDER"
    assert tacocore.Sample("b", b"1", type="FILE").type == "FILE"
    with pytest.raises(tacocore.TacoSchemaError, match="does not match"):
        tacocore.Sample("b", b"1", type="FOLDER")
    with pytest.raises(tacocore.TacoSchemaError, match="does not match"):
        tacocore.Sample("f", child, type="FILE")


def test_sample_folder_size_and_path():
    child = tacocore.Tortilla([tacocore.Sample("x", b"12"), tacocore.Sample("y", b"345")])
    folder = tacocore.Sample("f", child)
    assert folder.size == 5
    assert folder.path is child
    again = tacocore.Tortilla([folder]).samples[0]  # taken back out of a Tortilla
    assert again.type == "FOLDER"
    assert isinstance(again.path, tacocore.Tortilla)
    assert [s.id for s in again.path.samples] == ["x", "y"]


def test_sample_metadata_and_extend_with():
    s = tacocore.Sample("a", b"1", cloud_cover=1.5, **{"stac:crs": "EPSG:4326"})
    assert s.metadata == {"cloud_cover": 1.5, "stac:crs": "EPSG:4326"}
    assert s["stac:crs"] == "EPSG:4326"
    assert s.extend_with({"split": "train", "n": 3}) is s
    assert list(s.metadata) == ["cloud_cover", "stac:crs", "split", "n"]
    popped = s.pop("split")  # tacotoolbox's pop: the column as a 1-row table, typed
    assert popped.to_pydict() == {"split": ["train"]}
    assert popped.schema.field("split").type == pa.string()
    assert "split" not in s.metadata
    with pytest.raises(KeyError):
        s.pop("split")
    with pytest.raises(ValueError, match="core field 'id'"):
        s.pop("id")
    other = tacocore.Sample("b", b"2")
    other.extend_with(s.pop("n"))  # what it returns goes back in as it was
    assert other.metadata == {"n": 3}
    assert "n" not in s.metadata
    with pytest.raises(KeyError):
        s["nope"]


def test_sample_extend_with_pydantic_like_object():
    class Model:
        def model_dump(self):
            return {"a": 1, "b": "x"}

    # tacotoolbox's rule: the fields under the class name in lower case, or under `name`, so
    # that two models with the same fields do not overwrite each other.
    s = tacocore.Sample("a", b"1").extend_with(Model())
    assert s.metadata == {"model:a": 1, "model:b": "x"}
    s.extend_with(Model(), name="day").extend_with(Model(), name="night")
    assert s.metadata == {"model:a": 1, "model:b": "x", "day:a": 1, "day:b": "x",
                          "night:a": 1, "night:b": "x"}
    with pytest.raises(tacocore.TacoSchemaError, match="name must be a non-empty string"):
        s.extend_with(Model(), name="")
    # A dict is taken as it is (tacotoolbox ignores name there too).
    assert tacocore.Sample("b", b"1").extend_with({"k": 2}, name="x").metadata == {"k": 2}


def test_sample_extend_with_pydantic_models_match_tacotoolbox():
    import pydantic
    from tacotoolbox.datamodel import Sample as RefSample

    class Weather(pydantic.BaseModel):
        temp: float = 0.0

    ours, theirs = tacocore.Sample("a", b"1"), RefSample(id="a", path=b"1")
    for s in (ours, theirs):
        s.extend_with(Weather(temp=1.0), name="day")
        s.extend_with(Weather(temp=2.0), name="night")
        s.extend_with(Weather(temp=3.0))
    # (tacotoolbox's export_metadata leaves such fields out; they are the model's extra fields)
    ref = dict(theirs.model_extra)
    assert ours.metadata == ref == {"day:temp": 1.0, "night:temp": 2.0, "weather:temp": 3.0}


def test_sample_accepts_tacotoolbox_temp_dir(tmp_path):
    s = tacocore.Sample("a", b"1", temp_dir=tmp_path, v=1)
    assert s.metadata == {"v": 1}
    assert list(tmp_path.iterdir()) == []  # bytes stay in memory


@pytest.mark.parametrize("bad_id", ["a/b", "a\\b", "a:b", "__x"])
def test_sample_invalid_ids(bad_id):
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Sample(bad_id, b"1")


@pytest.mark.parametrize("bad_key", ["bad-key", "a.b", "a b", "a:b:c", "", "id", "type", "path"])
def test_sample_invalid_keys(bad_key):
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Sample("a", b"1").extend_with({bad_key: 1})


def test_sample_invalid_values_and_paths(tmp_path):
    with pytest.raises(tacocore.TacoSchemaError, match="object"):
        tacocore.Sample("a", b"1", v=object())
    with pytest.raises(tacocore.TacoSchemaError, match="int64"):
        tacocore.Sample("a", b"1", v=2**64)
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Sample("a", b"1", v={})  # a dict is a struct (issue 18), an empty one has no fields
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Sample("a", 42)
    with pytest.raises(tacocore.TacoIOError, match="not found"):
        tacocore.Sample("a", tmp_path / "missing.tif")


# --- value mapping --------------------------------------------------------------------------------

NAIVE = datetime.datetime(2024, 2, 29, 23, 59, 58, 123456)


@pytest.mark.parametrize("value, arrow, back", [
    (7, "int64", 7),
    (-(2**63), "int64", -(2**63)),
    (1.25, "double", 1.25),
    ("text ✓", "string", "text ✓"),
    (b"\x00\xff", "binary", b"\x00\xff"),
    (bytearray(b"ab"), "binary", b"ab"),
    (True, "bool", True),
    (NAIVE, "timestamp[us]", NAIVE),  # naive: a wall time
    (datetime.datetime(2024, 1, 1, 12, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
     "timestamp[us, tz=UTC]", datetime.datetime(2024, 1, 1, 10, tzinfo=datetime.timezone.utc)),  # aware: an instant
    ([1, 2, 3], "list<l: int64>", [1, 2, 3]),
    ((0.5, 1.5), "list<l: double>", [0.5, 1.5]),
    (["a", "b"], "list<l: string>", ["a", "b"]),
    ([[1.0], [2.0, 3.0]], "list<l: list<l: double>>", [[1.0], [2.0, 3.0]]),
    (np.int32(5), "int32", 5),
    (np.int64(5), "int64", 5),
    (np.float32(2.5), "float", 2.5),
    (np.float64(2.5), "double", 2.5),
    (np.bool_(True), "bool", True),
    (np.datetime64("2024-01-01T00:00:01"), "timestamp[us]", datetime.datetime(2024, 1, 1, 0, 0, 1)),
    (np.array([1.0, 2.0], dtype=np.float32), "list<l: float>", [1.0, 2.0]),
    (np.array([1.0, 2.0]), "list<l: double>", [1.0, 2.0]),
    (np.array([1, 2], dtype=np.int64), "list<l: int64>", [1, 2]),
    (np.array([1, 2], dtype=np.int32), "list<l: int32>", [1, 2]),
    (np.array([True, False]), "list<l: bool>", [True, False]),
    (None, "string", None),  # an all-null column is stored as string (docs/FORMAT-DECISIONS.md)
    ([], "list<l: string>", []),  # so is the element of lists that are all empty or all null
    ([None], "list<l: string>", [None]),
    ({"a": None, "b": 1}, "struct<a: string, b: int64>", {"a": None, "b": 1}),
    ([1, 2.5, None], "list<l: double>", [1.0, 2.5, None]),  # ints among floats: pyarrow's doubles
    (np.uint64(2**63 - 1), "int64", 2**63 - 1),
    (np.datetime64("NaT"), "timestamp[us]", None),  # NaT is a missing time
])
def test_python_values_map_to_typed_values(tmp_path, value, arrow, back):
    types, row, fields = written_types(tmp_path, v=value)
    assert types["v"] == arrow
    assert row["v"] == back
    # field_schema spells pyarrow's names, lower-cased as tacotoolbox writes them
    assert fields["v"] == arrow.replace("<l: ", "<item: ").lower()


@pytest.mark.parametrize("value, message", [
    (np.uint64(2**63 + 1), "field 'v': integer 9223372036854775809 does not fit in int64"),
    (np.array([1, 2**64 - 1], dtype=np.uint64), "field 'v': integer 18446744073709551615 does not fit in int64"),
    ([1, "a"], "list element 1 has type string, expected int64"),
    ([1, True], "list element 1 has type bool, expected int64"),
])
def test_values_that_cannot_be_stored_name_the_field(value, message):
    """A uint64 beyond int64 was a bare std::bad_cast; mixes other than ints among floats are
    refused (pyarrow refuses them too)."""
    with pytest.raises(tacocore.TacoSchemaError, match=message):
        tacocore.Sample("a", b"1", v=value)


def test_the_interpreter_exits_cleanly_after_converting_values():
    """The conversion keeps Python objects for the process's life: one freed during the
    interpreter's shutdown, without the GIL, aborted it (exit 134) after any datetime."""
    import subprocess
    import sys
    script = (
        "import datetime, decimal, numpy as np, tacocore\n"
        "tacocore.Sample('a', b'1', t=datetime.datetime.now(datetime.timezone.utc), d=datetime.date(2020, 1, 1),\n"
        "                n=np.datetime64('NaT'), m=decimal.Decimal('1.5'), a=np.arange(3), l=[1, 2.5]).metadata\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_sample_values_read_back_in_python():
    s = tacocore.Sample("a", b"1", t=NAIVE, f=np.float32(0.5), arr=np.array([1, 2]), n=None, raw=b"\x01")
    assert s.metadata == {"t": NAIVE, "f": 0.5, "arr": [1, 2], "n": None, "raw": b"\x01"}


def test_null_then_value_takes_the_value_type(tmp_path):
    samples = [tacocore.Sample("a", b"1", v=None), tacocore.Sample("b", b"2", v=2.5)]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    table = tacocore.load(tacocore.create(taco, tmp_path / "n.tacozip")[0]).data.to_arrow()
    assert dict(arrow_types(table))["v"] == "double"
    assert table["v"].to_pylist() == [None, 2.5]


# --- Tortilla -------------------------------------------------------------------------------------

def test_tortilla_basics():
    a, b = tacocore.Sample("a", b"1", v=1), tacocore.Sample("b", b"22", v=2)
    t = tacocore.Tortilla([a, b])
    assert len(t) == 2
    assert [s.id for s in t.samples] == ["a", "b"]
    assert t[0].id == "a" and t[-1].id == "b"
    assert t.schema == [("v", "int64")]
    with pytest.raises(IndexError):
        t[2]
    assert tacocore.Tortilla(iter([a, b])).schema == t.schema  # any iterable


def test_tortilla_pad_to():
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1", v=i) for i in range(5)], pad_to=4)
    assert len(t) == 8
    assert [s.id for s in t.samples][5:] == ["__TACOPAD__0", "__TACOPAD__1", "__TACOPAD__2"]
    assert t[7].metadata == {"v": None}
    assert len(tacocore.Tortilla([tacocore.Sample("a", b"1")], pad_to=1)) == 1


def test_tortilla_strict_schema():
    a = tacocore.Sample("a", b"1", x=1)
    b = tacocore.Sample("b", b"2", y="s")
    with pytest.raises(tacocore.TacoSchemaError, match="strict"):
        tacocore.Tortilla([a, b])
    with pytest.raises(tacocore.TacoSchemaError, match="type"):
        tacocore.Tortilla([a, tacocore.Sample("c", b"3", x="text")])
    loose = tacocore.Tortilla([a, b], strict_schema=False)
    assert dict(loose.schema) == {"x": "int64", "y": "string"}


def test_tortilla_errors():
    with pytest.raises(tacocore.TacoSchemaError, match="at least one"):
        tacocore.Tortilla([])
    with pytest.raises(tacocore.TacoSchemaError, match="duplicate"):
        tacocore.Tortilla([tacocore.Sample("a", b"1"), tacocore.Sample("a", b"2")])
    with pytest.raises(tacocore.TacoSchemaError, match="Sample"):
        tacocore.Tortilla(["not a sample"])


def test_tortilla_extend_with(tmp_path):
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1") for i in range(3)], pad_to=2)
    assert t.extend_with({"split": ["train", "test", "train"], "k": np.array([1, 2, 3], dtype=np.int32)}) is t
    assert t.schema == [("split", "string"), ("k", "int32")]
    assert [s.metadata for s in t.samples] == [{"split": "train", "k": 1}, {"split": "test", "k": 2},
                                                {"split": "train", "k": 3}, {"split": None, "k": None}]
    with pytest.raises(tacocore.TacoSchemaError, match="already exists"):
        t.extend_with({"split": ["a", "b", "c"]})
    with pytest.raises(tacocore.TacoSchemaError, match="one per sample"):
        t.extend_with({"z": [1]})
    taco = tacocore.Taco(t, **COLLECTION_DEFAULTS)
    table = tacocore.load(tacocore.create(taco, tmp_path / "x.tacozip")[0]).data.to_arrow()
    assert table["split"].to_pylist() == ["train", "test", "train"]


@pytest.mark.parametrize("with_padding_rows", [False, True])
def test_tortilla_extend_with_a_table_keeps_its_types(with_padding_rows):
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1") for i in range(3)], pad_to=2)
    rows = 4 if with_padding_rows else 3
    table = pa.table({"f": pa.array([1.5, None, 2.5, 9.0][:rows], pa.float32()),
                      "none": pa.array([None] * rows, pa.string()),
                      "when": pa.array([datetime.datetime(2024, 1, i + 1) for i in range(rows)], pa.timestamp("ms"))})
    assert t.extend_with(table) is t
    assert t.schema == [("f", "float"), ("none", "string"), ("when", "timestamp[us]")]
    assert t[1].metadata == {"f": None, "none": None, "when": datetime.datetime(2024, 1, 2)}
    assert t[3].metadata == {"f": None, "none": None, "when": None}  # padding: typed nulls


def test_tortilla_extend_with_a_callable_extension():
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"x" * (i + 1)) for i in range(3)])
    seen = []

    def sizes(tortilla):  # tacotoolbox's TortillaExtension protocol: the tortilla in, a Table out
        seen.append(tortilla._metadata_table.column("id").to_pylist())
        return pa.table({"bytes": [s._size_bytes for s in tortilla.samples]})

    t.extend_with(sizes)
    assert seen == [["s0", "s1", "s2"]]
    assert [s["bytes"] for s in t.samples] == [1, 2, 3]


def test_tortilla_extend_with_types_left_to_python_match_the_sample_path():
    """decimal256 and run-end encoded columns, which the native reader declines, go through
    their Python values as Sample.extend_with takes them; the others keep their Arrow types."""
    import decimal
    rows = [decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")]
    table = pa.table({"d": pa.array(rows, pa.decimal256(10, 2)), "f": pa.array([1.0, 2.0, 3.0], pa.float32())})
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1") for i in range(3)]).extend_with(table)
    one_by_one = []
    for i in range(3):
        s = tacocore.Sample(f"s{i}", b"1")
        s.extend_with(table.slice(i, 1))
        one_by_one.append(s)
    assert t.schema == tacocore.Tortilla(one_by_one).schema
    assert dict(t.schema)["f"] == "float"
    assert [s["d"] for s in t.samples] == rows


def test_an_extension_with_bad_descriptions_adds_nothing():
    class Bad:
        def get_field_descriptions(self):
            return {"x": 3}

        def __call__(self, target):
            return pa.table({"x": [1] * (len(target) if isinstance(target, tacocore.Tortilla) else 1)})

    s = tacocore.Sample("a", b"1")
    with pytest.raises(tacocore.TacoSchemaError, match="get_field_descriptions"):
        s.extend_with(Bad())
    assert s.metadata == {}
    t = tacocore.Tortilla([tacocore.Sample("a", b"1")])
    with pytest.raises(tacocore.TacoSchemaError, match="get_field_descriptions"):
        t.extend_with(Bad())
    assert t.schema == []


def test_tortilla_extend_with_a_bad_table_changes_nothing():
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1", v=i) for i in range(3)])
    with pytest.raises(tacocore.TacoSchemaError, match="2 rows, expected one per sample \\(3\\)"):
        t.extend_with(pa.table({"z": [1, 2]}))
    with pytest.raises(tacocore.TacoSchemaError, match="'v' already exists"):
        t.extend_with(pa.table({"z": [1, 2, 3], "v": [1, 2, 3]}))
    with pytest.raises(tacocore.TacoSchemaError, match="'id' already exists"):
        t.extend_with(pa.table({"id": ["a", "b", "c"]}))
    assert t.schema == [("v", "int64")]


def test_tortilla_pop_removes_its_own_column_from_every_sample(tmp_path):
    t = tacocore.Tortilla([tacocore.Sample(f"s{i}", b"1", v=i) for i in range(3)], pad_to=2)
    t.extend_with({"split": ["train", "test", "train"]})
    popped = t.pop("split")
    assert popped.schema == pa.schema([pa.field("split", pa.string())])
    assert popped["split"].to_pylist() == ["train", "test", "train", None]  # padding included
    assert t.schema == [("v", "int64")] and len(t) == 4
    with pytest.raises(KeyError):
        t.pop("split")
    with pytest.raises(ValueError, match="sample.pop"):
        t.pop("v")  # the samples' own column
    with pytest.raises(ValueError, match="core field"):
        t.pop("path")
    taco = tacocore.Taco(t, **COLLECTION_DEFAULTS)
    table = tacocore.load(tacocore.create(taco, tmp_path / "x.tacozip")[0]).data.to_arrow()
    assert "split" not in table.column_names


# --- Taco -----------------------------------------------------------------------------------------

def test_taco_all_arguments(tmp_path):
    class Provider:  # tacotoolbox passes pydantic models; anything with model_dump works
        def model_dump(self):
            return {"name": "ESA", "roles": ["producer", "licensor"], "url": "https://esa.int", "links": None}

    taco = tacocore.Taco(
        tacocore.Tortilla([tacocore.Sample("a", b"1")]),
        id="full-taco", dataset_version="2.1.0", description="all fields", licenses=["CC-BY-4.0", "MIT"],
        providers=[Provider(), {"name": "Other"}], tasks=["classification", "segmentation"],
        title="Full", curators=[{"name": "Cu Rator", "organization": "Org", "email": "c@example.org", "role": "lead"}],
        keywords=["k1", "k2"], extent={"spatial": [-10, -20, 30, 40], "temporal": ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"]},
        **{"split:strategy": "random", "publications": [{"doi": "10.1/x", "citation": "c", "summary": "s"}]},
    )
    assert taco.id == "full-taco" and taco.title == "Full"
    coll = taco.collection
    assert coll["extent"] == {"spatial": [-10.0, -20.0, 30.0, 40.0],
                              "temporal": ["2020-01-01T00:00:00Z", "2021-01-01T00:00:00Z"]}
    assert coll["split:strategy"] == "random"
    ds = tacocore.load(tacocore.create(taco, tmp_path / "full.tacozip")[0])
    assert ds.title == "Full" and ds.keywords == ["k1", "k2"]
    assert ds.tasks == ["classification", "segmentation"]
    assert ds.licenses == ["CC-BY-4.0", "MIT"]
    assert ds.providers[0] == {"name": "ESA", "roles": ["producer", "licensor"], "url": "https://esa.int", "links": None}
    assert ds.curators == [{"name": "Cu Rator", "organization": "Org", "email": "c@example.org", "role": "lead"}]
    assert ds.extent == coll["extent"]
    assert ds.collection["publications"][0]["doi"] == "10.1/x"
    assert ds.collection["split:strategy"] == "random"


def test_taco_extent_as_list_and_default():
    t = tacocore.Tortilla([tacocore.Sample("a", b"1")])
    assert tacocore.Taco(t, **COLLECTION_DEFAULTS, extent=[1, 2, 3, 4]).collection["extent"] == {
        "spatial": [1.0, 2.0, 3.0, 4.0], "temporal": None}
    assert tacocore.Taco(t, **COLLECTION_DEFAULTS).collection["extent"] == {
        "spatial": [-180.0, -90.0, 180.0, 90.0], "temporal": None}


def test_taco_errors():
    t = tacocore.Tortilla([tacocore.Sample("a", b"1")])
    with pytest.raises(tacocore.TacoSchemaError, match="uppercase"):
        tacocore.Taco(t, **{**COLLECTION_DEFAULTS, "id": "Upper"})
    with pytest.raises(tacocore.TacoSchemaError, match="task"):
        tacocore.Taco(t, **{**COLLECTION_DEFAULTS, "tasks": ["dancing"]})
    with pytest.raises(tacocore.TacoSchemaError, match="Tortilla"):
        tacocore.Taco([tacocore.Sample("a", b"1")], **COLLECTION_DEFAULTS)
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Taco(t, **COLLECTION_DEFAULTS, extent=[0, 100, 10, 0])  # s > n, lat out of range


def test_taco_pit_violation_is_a_pit_error():
    def folder(name, ids):
        return tacocore.Sample(name, tacocore.Tortilla([tacocore.Sample(i, b"1") for i in ids]))

    with pytest.raises(tacocore.TacoPitError, match="PIT"):
        tacocore.Taco(tacocore.Tortilla([folder("f1", ["x", "y"]), folder("f2", ["y", "x"])]), **COLLECTION_DEFAULTS)
    with pytest.raises(tacocore.TacoPitError):
        tacocore.Taco(tacocore.Tortilla([folder("f1", ["x", "y"]), folder("f2", ["x"])]), **COLLECTION_DEFAULTS)
    with pytest.raises(tacocore.TacoSchemaError):  # PitError is a SchemaError
        tacocore.Taco(tacocore.Tortilla([folder("f1", ["x"]), tacocore.Sample("f2", b"1")]), **COLLECTION_DEFAULTS)


# --- create ---------------------------------------------------------------------------------------

def test_create_formats_and_return_value(tmp_path, make_taco):
    taco = make_taco([tacocore.Sample("a", b"hello", v=1), tacocore.Sample("b", b"world", v=2)])
    z = tacocore.create(taco, tmp_path / "a.tacozip")
    assert z == [tmp_path / "a.tacozip"] and isinstance(z[0], pathlib.Path)
    assert zipfile.ZipFile(z[0]).namelist()[0] == "TACO_HEADER"
    assert tacocore.create(taco, str(tmp_path / "b.zip"))[0].suffix == ".zip"
    folder = tacocore.create(taco, tmp_path / "folder")[0]
    assert (folder / "COLLECTION.json").is_file() and (folder / "METADATA" / "level0.parquet").is_file()
    forced = tacocore.create(taco, tmp_path / "forced", output_format="zip")[0]
    assert zipfile.is_zipfile(forced)
    as_folder = tacocore.create(taco, tmp_path / "f2", output_format="folder")[0]
    assert as_folder.is_dir()
    for p in (z[0], folder, forced, as_folder):
        assert tacocore.load(p).data.read_bytes("b") == b"world"


def test_create_refuses_existing_output_unless_overwrite(tmp_path, make_taco):
    taco = make_taco([tacocore.Sample("a", b"1")])
    out = tmp_path / "x.tacozip"
    tacocore.create(taco, out)
    with pytest.raises(tacocore.TacoIOError, match="exists"):
        tacocore.create(taco, out)
    assert tacocore.create(taco, out, overwrite=True) == [out]
    with pytest.raises(tacocore.TacoSchemaError, match="output_format"):
        tacocore.create(taco, tmp_path / "y", output_format="tar")


def test_create_accepts_tacotoolbox_keywords(tmp_path, make_taco):
    taco = make_taco([tacocore.Sample("a", b"1")])
    out = tacocore.create(taco, tmp_path / "k.tacozip", split_size=None, group_by=None, consolidate=False,
                          temp_dir=str(tmp_path))
    assert tacocore.load(out[0]).data.read_bytes(0) == b"1"


def test_create_refuses_unknown_keywords(tmp_path, make_taco):
    taco = make_taco([tacocore.Sample("a", b"1")])
    with pytest.raises(TypeError, match="splitsize"):
        tacocore.create(taco, tmp_path / "k.tacozip", splitsize="1GB")  # misspelt
    with pytest.raises(TypeError, match="row_group_size"):
        tacocore.create(taco, tmp_path / "k.tacozip", row_group_size=1000)  # a Parquet option
    with pytest.raises(tacocore.TacoIOError, match="temp_dir"):
        tacocore.create(taco, tmp_path / "k.tacozip", temp_dir=tmp_path / "missing")
    assert list(tmp_path.iterdir()) == []


def test_consolidate_false_writes_parts_without_an_index(tmp_path, make_taco):
    samples = [tacocore.Sample(f"s{i}", bytes([i]) * 4096) for i in range(4)]
    parts = tacocore.create(make_taco(samples), tmp_path / "ds.tacozip", split_size="8KB",
                            consolidate=False)
    assert [p.name for p in parts] == ["ds_part0001.tacozip", "ds_part0002.tacozip"]
    assert not (tmp_path / ".tacocat").exists()
    assert tacocore.load(str(parts[1])).data.read_bytes("s3") == bytes([3]) * 4096


def test_failed_create_leaves_nothing(tmp_path, make_taco, demo_input):
    src = tmp_path / "vanishing.tif"
    src.write_bytes((demo_input / "lima" / "mask.tif").read_bytes())
    taco = make_taco([tacocore.Sample("a", src)])
    src.unlink()
    with pytest.raises(tacocore.TacoError):
        tacocore.create(taco, tmp_path / "out.tacozip")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_collection_json_of_a_created_dataset(tmp_path, make_taco):
    taco = make_taco([tacocore.Sample("a", b"1", v=1.0)])
    out = tacocore.create(taco, tmp_path / "c")[0]
    doc = json.loads((out / "COLLECTION.json").read_text())
    assert doc == taco.collection
    assert doc["taco_version"] == "2.0.0"
    assert doc["taco:field_schema"]["level0"][2] == ["v", "double", ""]


def test_taco_positional_signature_of_the_issue():
    t = tacocore.Tortilla([tacocore.Sample("a", b"1")])
    taco = tacocore.Taco(t, "pos", "1.0", "desc", ["MIT"], [{"name": "p"}], ["other"], "The title", None, ["kw"],
                         [0, 0, 1, 1])
    coll = taco.collection
    assert (coll["title"], coll["keywords"], coll["extent"]["spatial"]) == ("The title", ["kw"], [0.0, 0.0, 1.0, 1.0])
    assert coll["taco_version"] == "2.0.0"
    assert tacocore.Taco(t, **COLLECTION_DEFAULTS, taco_version="0.5.0").collection["taco_version"] == "0.5.0"


def test_extend_with_one_row_tables_of_alternating_schemas_keeps_each_schema(tmp_path):
    """extend_with caches the layout of the last Arrow schema it saw (issue 15): tables of two
    schemas in turn, with types that need converting (float32, int32, list<float>) and nulls,
    each keep their own names, types and values."""
    import pyarrow as pa
    first = pa.table({"f": pa.array([0.5], pa.float32()), "i": pa.array([None], pa.int32()),
                      "l": pa.array([[1.5, 2.5]], pa.list_(pa.float32()))})
    second = pa.table({"i": pa.array([7], pa.int32()), "s": pa.array(["x"]),
                       "t": pa.array([NAIVE], pa.timestamp("us"))})
    a = tacocore.Sample("a", b"1").extend_with(first)
    b = tacocore.Sample("b", b"2").extend_with(second)
    c = tacocore.Sample("c", b"3").extend_with(first)
    assert a.metadata == {"f": 0.5, "i": None, "l": [1.5, 2.5]}
    assert b.metadata == {"i": 7, "s": "x", "t": NAIVE}
    assert c.metadata == a.metadata
    taco = tacocore.Taco(tacocore.Tortilla([a, c]), **COLLECTION_DEFAULTS)
    table = tacocore.load(tacocore.create(taco, tmp_path / "a.tacozip")[0]).data.to_arrow()
    types = dict(arrow_types(table))
    assert (types["f"], types["i"], types["l"]) == ("float", "int32", "list<l: float>")


def test_taco_reads_its_tortilla_as_it_is_when_written(tmp_path):
    # tacotoolbox's order: build the Taco, then extend its tortilla. The columns count, with
    # their descriptions (before: dropped without a word, though export_metadata showed them).
    t = tacocore.Tortilla([tacocore.Sample(id=f"s{i}", path=b"x") for i in range(3)])
    taco = tacocore.Taco(tortilla=t, **COLLECTION_DEFAULTS)
    assert taco.extent == {"spatial": [-180.0, -90.0, 180.0, 90.0], "temporal": None}
    t.extend_with(pa.table({"k": [1, 2, 3]}))
    taco.tortilla.extend_with({"region": ["a", "b", "a"]})
    names = [f[0] for f in taco.collection["taco:field_schema"]["level0"]]
    assert "k" in names and "region" in names
    out = tacocore.create(taco, tmp_path / "x.tacozip", group_by="region")
    assert sorted(p.name for p in out) == ["x_a.tacozip", "x_b.tacozip"]
    got = tacocore.load(str(tmp_path)).data.to_arrow()
    assert sorted(got.column("k").to_pylist()) == [1, 2, 3]
    import pickle
    assert "k" in [f[0] for f in pickle.loads(pickle.dumps(taco)).collection["taco:field_schema"]["level0"]]
    # A tortilla changed so that it no longer fits is refused when the Taco is used.
    taco.tortilla = "not a tortilla"
    with pytest.raises(tacocore.TacoSchemaError, match="must be a Tortilla"):
        taco.collection


def test_columns_differing_only_in_case_are_refused_at_the_tortilla(tmp_path):
    with pytest.raises(tacocore.TacoSchemaError,
                       match="'Type' of sample 'a' .position 0. differs from the core column 'type'"):
        tacocore.Tortilla([tacocore.Sample(id="a", path=b"x", Type="forest")])
    samples = [tacocore.Sample(id="a", path=b"x", cloud=1), tacocore.Sample(id="b", path=b"x", Cloud=2)]
    with pytest.raises(tacocore.TacoSchemaError, match="only in letter case"):
        tacocore.Tortilla(samples, strict_schema=False)


def test_compression_level_out_of_range_is_a_value_error_before_writing(tmp_path):
    taco = tacocore.Taco(tortilla=tacocore.Tortilla([tacocore.Sample(id="a", path=b"x")]),
                         **COLLECTION_DEFAULTS)
    with pytest.raises(ValueError, match="compression_level must be a zstd level from -131072 to 22"):
        tacocore.create(taco, tmp_path / "x.tacozip", level_codec="zstd", compression_level=99)
    assert list(tmp_path.iterdir()) == []


def test_tortilla_of_a_lone_sample_names_the_mistake():
    s = tacocore.Sample(id="a", path=b"x", x=1)
    with pytest.raises(tacocore.TacoSchemaError, match=r"list of Samples, not Sample \(wrap it"):
        tacocore.Tortilla(s)
    with pytest.raises(tacocore.TacoSchemaError, match="list of Samples, not int"):
        tacocore.Tortilla(3)
    assert len(tacocore.Tortilla(iter([s])).samples) == 1  # any other iterable of Samples
