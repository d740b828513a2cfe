"""TacoDataFrame: shape, Arrow export (types as tacoreader's), conversions, read() navigation,
read_bytes, compared with tacoreader on the reference fixtures and on created datasets."""

from __future__ import annotations

import datetime
import re

import numpy as np
import pyarrow as pa
import pytest
from osgeo import gdal

import tacocore
from conftest import FIXTURE_DATASETS, arrow_types

gdal.UseExceptions()


def vsi_bytes(path: str) -> bytes:
    size = gdal.VSIStatL(path).size
    f = gdal.VSIFOpenL(path, "rb")
    try:
        return gdal.VSIFReadL(1, size, f) if size else b""
    finally:
        gdal.VSIFCloseL(f)


# --- shape and conversions ------------------------------------------------------------------------

def test_len_columns_shape_level(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data
    assert len(df) == 3
    assert df.columns == ["id", "type", "cloud_cover", "acquired", "split", "valid", "count", "tags",
                          "weights", "blob", "note", "internal:gdal_vsi"]
    assert df.shape == (3, 12)
    assert df.level == 0
    assert df.read("lima").level == 1


def test_head_tail_getitem(demo_datasets):
    df = tacocore.load(demo_datasets["folder"]).data
    assert isinstance(df.head(), pa.Table)
    assert df.head(2)["id"].to_pylist() == ["valencia", "lima"]
    assert df.head(100).num_rows == 3 and df.head(0).num_rows == 0
    assert df.tail(1)["id"].to_pylist() == ["tokyo"]
    assert df.tail(10).num_rows == 3 and df.tail(0).num_rows == 0
    assert df["id"].to_pylist() == ["valencia", "lima", "tokyo"]
    assert df[0].to_pylist() == ["valencia", "lima", "tokyo"]


def test_to_arrow_values_and_types(demo_datasets):
    for path in demo_datasets.values():
        table = tacocore.load(path).data.to_arrow()
        assert isinstance(table, pa.Table)
        types = dict(arrow_types(table))
        assert types == {
            "id": "string", "type": "string", "cloud_cover": "double", "acquired": "timestamp[us]",
            "split": "string", "valid": "bool", "count": "int64", "tags": "list<l: string>",
            "weights": "list<l: float>", "blob": "binary", "note": "string", "internal:gdal_vsi": "string",
        }
        row = table.slice(1, 1).to_pylist()[0]
        assert row["id"] == "lima" and row["type"] == "FOLDER"
        assert row["cloud_cover"] == 3.25
        assert row["acquired"] == datetime.datetime(2023, 6, 2, 10, 30)
        assert row["valid"] is False and row["count"] == 1000
        assert row["tags"] == ["a", "lima"] and row["weights"] == [0.5, 2.5]
        assert row["blob"] == bytes([1, 255]) and row["note"] is None


def test_arrow_stream_protocol(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data
    native = df._native
    reader = pa.RecordBatchReader.from_stream(native)
    assert reader.schema.names == df.columns
    assert reader.read_all() == df.to_arrow()
    assert pa.table(native) == df.to_arrow()
    assert pa.table(df) == df.to_arrow()  # the wrapper speaks the protocol too
    # an unconsumed capsule is released without leaking or crashing
    capsule = native.__arrow_c_stream__()
    del capsule
    capsule = native.__arrow_c_stream__(None)
    assert pa.RecordBatchReader.from_stream(df).read_all().num_rows == 3


def test_arrow_export_of_an_empty_result(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).sql("SELECT * FROM data WHERE false").data
    assert len(df) == 0
    table = df.to_arrow()
    assert table.num_rows == 0
    assert table.column_names == df.columns
    assert dict(arrow_types(table))["acquired"] == "timestamp[us]"


def test_to_pandas_and_to_polars(demo_datasets):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    df = tacocore.load(demo_datasets["zip"]).data
    frame = df.to_pandas()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == df.columns and len(frame) == 3
    assert frame["cloud_cover"].tolist() == [12.5, 3.25, 41.0]
    assert str(frame["acquired"].dtype).startswith("datetime64")
    polars = df.to_polars()
    assert isinstance(polars, pl.DataFrame)
    assert polars.columns == df.columns and polars.height == 3
    assert polars["count"].to_list() == [0, 1000, 2000]
    assert polars.schema["acquired"] == pl.Datetime("us")
    assert pl.DataFrame(df).shape == (3, 12)


# --- against tacoreader ---------------------------------------------------------------------------

def _unnamed_lists(types):
    """tacoreader reads FOLDER children (`__meta__`) with pyarrow, whose list items are called
    `element`; its level views (DuckDB) and every tacocore frame call them `l`. The names of list
    items carry no meaning (pa.Schema equality ignores them); the item types must still agree."""
    return [(n, re.sub(r"<(l|element|item): ", "<", t)) for n, t in types]


def _compare_frames(ours, theirs):
    a, b = ours.to_arrow(), theirs.to_arrow()
    if ours.level == 0:
        assert arrow_types(a) == arrow_types(b)
    else:
        assert _unnamed_lists(arrow_types(a)) == _unnamed_lists(arrow_types(b))
        assert all("<element" not in t for _, t in arrow_types(a))  # one naming in tacocore
    assert a.schema == b.schema
    assert a.to_pylist() == b.to_pylist()
    assert ours.columns == list(theirs.columns)
    assert len(ours) == len(theirs)


def _walk_compare(ours, theirs, depth=0):
    _compare_frames(ours, theirs)
    for i in range(len(ours)):
        kind = ours.to_arrow()["type"][i].as_py()
        key = i if i % 2 else ours.to_arrow()["id"][i].as_py()
        a, b = ours.read(key), theirs.read(key)
        if kind == "FOLDER":
            assert isinstance(a, tacocore.TacoDataFrame)
            assert a.level == depth + 1
            _walk_compare(a, b, depth + 1)
        else:
            assert isinstance(a, str)
            assert a == b
            assert ours.read_bytes(key) == vsi_bytes(b)


@pytest.mark.parametrize("name", sorted(FIXTURE_DATASETS))
def test_data_and_navigation_match_tacoreader_on_fixtures(name, fixture_paths, reference):
    path = fixture_paths[name]
    ours, theirs = tacocore.load(path), reference.load(path)
    _walk_compare(ours.data, theirs.data)
    a, b = ours.data_raw.to_arrow(), theirs.data_raw.to_arrow()
    assert arrow_types(a) == arrow_types(b)
    assert a.to_pylist() == b.to_pylist()


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_data_and_navigation_match_tacoreader_on_created(fmt, demo_datasets, reference):
    path = demo_datasets[fmt]
    _walk_compare(tacocore.load(path).data, reference.load(path).data)


def test_types_match_tacoreader_on_a_tacotoolbox_dataset(tmp_path, reference, demo_input):
    """The same Python values through tacotoolbox (pyarrow inference) and through tacocore."""
    dm = reference.tacotoolbox.datamodel
    values = dict(f=1.5, i=7, s="x", b=True, raw=b"\x00\x01", t=datetime.datetime(2024, 2, 29, 12, 0, 0, 123456),
                  li=[1, 2], lf=[0.5], ls=["a", "b"], n32=np.int32(5), f32=np.float32(2.5),
                  arr=np.array([1.0, 2.0], dtype=np.float32), iarr=np.array([1, 2], dtype=np.int64),
                  nested=[[1.0, 2.0], [3.0]])
    common = dict(id="types", dataset_version="1", description="d", licenses=["MIT"],
                  providers=[{"name": "p"}], tasks=["other"])
    ref_samples = [dm.Sample(id=f"s{i}", path=(demo_input / "lima" / "mask.tif"), **values) for i in range(2)]
    ref_path = tmp_path / "ref.tacozip"
    reference.tacotoolbox.create(dm.Taco(tortilla=dm.Tortilla(samples=ref_samples), **common), str(ref_path))
    our_samples = [tacocore.Sample(f"s{i}", demo_input / "lima" / "mask.tif", **values) for i in range(2)]
    our_path = tacocore.create(tacocore.Taco(tacocore.Tortilla(our_samples), **common), tmp_path / "ours.tacozip")[0]
    ref_table = reference.load(ref_path).data.to_arrow().drop_columns(["internal:gdal_vsi"])
    # the same file read by both readers
    assert arrow_types(tacocore.load(ref_path).data.to_arrow().drop_columns(["internal:gdal_vsi"])) == arrow_types(ref_table)
    # our writer's file: the same types and values as the reference writer's
    ours = tacocore.load(our_path).data.to_arrow().drop_columns(["internal:gdal_vsi"])
    assert arrow_types(ours) == arrow_types(ref_table)
    assert ours.to_pylist() == ref_table.to_pylist()
    # and tacoreader agrees on our file
    theirs_on_ours = reference.load(our_path).data.to_arrow().drop_columns(["internal:gdal_vsi"])
    assert arrow_types(theirs_on_ours) == arrow_types(ours)
    assert theirs_on_ours.to_pylist() == ours.to_pylist()


# --- read -----------------------------------------------------------------------------------------

def test_read_file_and_folder(demo_datasets, demo_input):
    for fmt, path in demo_datasets.items():
        df = tacocore.load(path).data
        child = df.read("tokyo")
        assert isinstance(child, tacocore.TacoDataFrame)
        assert child.to_arrow()["id"].to_pylist() == ["image", "mask"]
        assert child.to_arrow() == df.read(2).to_arrow()
        vsi = child.read("mask")
        assert isinstance(vsi, str)
        assert vsi == child.read(1)
        if fmt == "zip":
            assert vsi.startswith("/vsisubfile/") and vsi.endswith(path)
        else:
            assert vsi == f"{path}/DATA/tokyo/mask"
        expected = (demo_input / "tokyo" / "mask.tif").read_bytes()
        assert vsi_bytes(vsi) == expected
        assert child.read_bytes("mask") == expected == child.read_bytes(1)
        assert isinstance(child.read_bytes(0), bytes)


def test_read_errors(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data
    with pytest.raises(tacocore.TacoNavigationError, match="out of range"):
        df.read(3)
    with pytest.raises(tacocore.TacoNavigationError):
        df.read(-1)  # as tacoreader: negative positions are rejected
    with pytest.raises(tacocore.TacoNavigationError, match="nowhere"):
        df.read("nowhere")
    for bad in (1.0, None, True, b"lima", np.float64(1)):
        with pytest.raises(tacocore.TacoNavigationError, match="position"):
            df.read(bad)
    with pytest.raises(tacocore.TacoNavigationError):
        df.read_bytes("lima")  # a FOLDER has no bytes
    with pytest.raises(tacocore.TacoNavigationError):
        df.read_bytes(10)


def test_read_accepts_numpy_integers(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data
    for key in (np.int64(1), np.int32(1), np.uint8(1)):
        assert df.read(key).to_arrow() == df.read(1).to_arrow()
    positions = np.flatnonzero(df.to_arrow()["cloud_cover"].to_numpy() > 10)
    assert [df.read(p).level for p in positions] == [1, 1]
    child = df.read(np.int64(0))
    assert child.read_bytes(np.int64(1)) == child.read_bytes("mask")
    assert len(child.read_arrays(np.arange(2))) == 2
    with pytest.raises(tacocore.TacoNavigationError):
        df.read(np.int64(-1))


def test_read_after_sql_projection_without_navigation_columns(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).sql("SELECT id, cloud_cover FROM data").data
    assert df.columns == ["id", "cloud_cover"]
    with pytest.raises(tacocore.TacoError):
        df.read(0)


def test_read_on_filtered_view(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).sql("SELECT * FROM data WHERE id = 'tokyo'").data
    assert len(df) == 1
    assert df.read(0).read("image") == tacocore.load(demo_datasets["zip"]).data.read("tokyo").read("image")


def test_padding_is_hidden(tmp_path):
    roots = [tacocore.Sample(f"r{i}", tacocore.Tortilla([tacocore.Sample("a", b"1"), tacocore.Sample("b", b"22")]))
             for i in range(3)]
    path = tacocore.create(tacocore.Taco(tacocore.Tortilla(roots, pad_to=2), id="padded", dataset_version="1",
                                         description="d", licenses=["MIT"], providers=[{"name": "p"}],
                                         tasks=["other"]), tmp_path / "p.tacozip")[0]
    df = tacocore.load(path).data
    assert df.to_arrow()["id"].to_pylist() == ["r0", "r1", "r2"]
    assert df.read("r2").read_bytes("b") == b"22"


def test_to_pandas_and_to_polars_without_the_package(demo_datasets, monkeypatch):
    df = tacocore.load(demo_datasets["zip"]).data
    monkeypatch.setitem(__import__("sys").modules, "polars", None)
    with pytest.raises(ImportError):
        df.to_polars()
    monkeypatch.setitem(__import__("sys").modules, "pandas", None)
    with pytest.raises(ImportError):
        df.to_pandas()
    assert df.to_arrow().num_rows == 3  # pyarrow alone is enough


def test_read_of_a_frame_dropped_before_the_call(fixture_paths):
    # `ds.data.read(k)` drops the frame before the call runs: an aligned frame's read is a native
    # call bound to the frame's rows and a link (class, owner), never to the frame itself, so
    # FOLDER children still come back wrapped and tied to the dataset.
    ds = tacocore.load(fixture_paths["reader-zip-nested"])
    child = ds.data.read("asia")
    assert type(child) is type(ds.data)
    assert child.to_arrow()["id"].to_pylist() == ["item_0", "item_1", "item_2"]
    assert child.read(1).startswith("/vsisubfile/")
    ds.close()
    with pytest.raises(tacocore.TacoQueryError, match="closed"):
        child.read(np.int64(1))  # the checked path sees the owner the link carried


def test_read_method_is_native_and_answers_as_the_class_method(fixture_paths):
    # An aligned frame's read is _core.ReadMethod (vectorcall): a ZIP FILE's path comes straight
    # from the frame's rows; everything else goes through the general path, whose answers and
    # errors are the class method's (docs/READER.md §10.1).
    ds = tacocore.load(fixture_paths["reader-zip-nested"])
    df = ds.data
    assert type(vars(df)["read"]) is tacocore._core._ReadMethod
    slow = type(df).read  # the class method: the same answers through Python
    leaf = df.read(2)
    assert type(leaf) is type(df) and leaf.read(0) == slow(leaf, 0) == slow(leaf, np.int64(0))
    assert leaf.read("item_1") == slow(leaf, "item_1") == leaf.read(key="item_1")
    assert leaf.read("item_1") == leaf.read("item_1")  # before and after the id index is built
    for bad, error in ((99, tacocore.TacoNavigationError), (-1, tacocore.TacoNavigationError),
                       (1 << 70, tacocore.TacoNavigationError), ("nope", tacocore.TacoNavigationError),
                       ("bad\udc80", ValueError), (1.5, tacocore.TacoNavigationError)):
        with pytest.raises(error) as fast_error:
            leaf.read(bad)
        with pytest.raises(error) as slow_error:
            slow(leaf, bad)
        assert str(fast_error.value) == str(slow_error.value)
    with pytest.raises(TypeError):
        leaf.read()
    with pytest.raises(TypeError):
        leaf.read(0, 1)
    ds.close()
    with pytest.raises(tacocore.TacoQueryError, match="closed"):
        leaf.read(0)


def test_read_method_is_collected_with_its_frame(fixture_paths):
    # The read method holds the frame's native rows, its link and the fallback, and takes part in
    # garbage collection: a cycle that runs through it (frame -> read -> link -> owner -> frame)
    # is freed, where a method that hid its references from the collector would leak it.
    import gc
    import weakref

    ds = tacocore.load(fixture_paths["reader-zip-nested"])
    df = ds.data.read(0)
    df._owner = df
    assert vars(df)["read"] is not None and df._link.owner is df
    gone = weakref.ref(df)
    del df
    gc.collect()
    assert gone() is None


def test_read_binding_follows_the_frame(fixture_paths):
    ds = tacocore.load(fixture_paths["reader-zip-nested"], backend="pandas")
    df = ds.data
    assert "read" in vars(df)  # rows are the native ones: the native read is bound
    expected = df.read(2).read("item_0")
    df["tag"] = ["a", "b", "c"]  # a column set: keys go through the frame's own table now
    assert "read" not in vars(df)
    assert df.read(2).read("item_0") == expected
    assert df.read(np.int64(2)).read(0) == expected

    class Counting(type(df)):  # a subclass that overrides read keeps its override
        calls = 0

        def read(self, key):
            Counting.calls += 1
            return super().read(key)

    mine = Counting._wrap_native(ds.data._native)
    assert "read" not in vars(mine)
    assert mine.read(2).read("item_0") == expected
    assert Counting.calls == 2  # the child is a Counting too, and its read is the override


@pytest.mark.parametrize("backend", ["polars", "pandas"])
def test_read_of_a_selection_without_id_or_path_raises(fixture_paths, backend):
    # tacoreader raises (KeyError 'internal:gdal_vsi'); this returned None for a FILE row.
    data = tacocore.load(fixture_paths["reader-zip-flat"], backend=backend).data
    kept = data.select(["type", "cloud_cover"]) if backend == "polars" else data[["type", "cloud_cover"]]
    with pytest.raises(tacocore.TacoNavigationError, match="kept neither 'id' nor 'internal:gdal_vsi'"):
        kept.read(0)
    by_id = data.select(["id", "type"]) if backend == "polars" else data[["id", "type"]]
    assert by_id.read(1) == data.read(1)
