"""Sample, Tortilla and Taco pickle (what tacocore.dask.create(source=Taco) ships to its
workers): a round trip keeps ids, paths or bytes, FOLDER children, padding and every metadata
value with its exact type, and the unpickled Taco writes the same dataset byte for byte."""

from __future__ import annotations

import datetime
import decimal
import os
import pickle

import numpy as np
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS


def fields(k: int) -> dict:
    return {
        "flag": k % 2 == 0, "i64": 1 << 40, "i32": np.int32(-7 * k), "f32": np.float32(0.1 * k),
        "f64": -2.5e300, "text": f"naïve {k}", "blob": b"\x00\x01\xff",
        "ts": datetime.datetime(2024, 1, 1, 12, 30, k),
        "tstz": datetime.datetime(2024, 1, 1, 12, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        "day": datetime.date(2020, 2, 1 + k), "money": decimal.Decimal("-12.50"),
        "nested": [[1, None], []], "point": {"x": 1.25, "label": f"p{k}"},
        "arr": np.array([1.5, -0.25], dtype=np.float32),
    }


def tree(tmp_path):
    (tmp_path / "a.bin").write_bytes(b"file a")
    (tmp_path / "b.bin").write_bytes(b"file b, longer")
    children = tacocore.Tortilla([tacocore.Sample("img", tmp_path / "b.bin", **fields(1)),
                                  tacocore.Sample("label", b"label bytes", **fields(2))])
    samples = [tacocore.Sample("disk", tmp_path / "a.bin", **fields(3)),
               tacocore.Sample("memory", b"\x00raw", **fields(4)),
               tacocore.Sample("folder", children, **fields(5))]
    return tacocore.Tortilla(samples, pad_to=5)


def describe(t) -> list:
    """Everything a tortilla holds, recursively, with the exact Arrow type of every value."""
    out = []
    for s in t.samples:
        n = s._native
        out.append((n.id, n.type, n.path, n.size, n.is_padding, n.field_types(),
                    repr(n.fields()), describe(tacocore.Tortilla._wrap(n.children)) if n.type == "FOLDER" else None))
    return out


def test_sample_and_tortilla_round_trip_with_exact_types(tmp_path):
    t = tree(tmp_path)
    back = pickle.loads(pickle.dumps(t))
    assert describe(back) == describe(t)
    assert back.schema == t.schema and len(back) == 5
    assert [s.id for s in back.samples][-2:] == ["__TACOPAD__0", "__TACOPAD__1"]
    types = dict(back[0]._native.field_types())
    assert types["i32"] == "int32" and types["f32"] == "float" and types["money"] == "decimal128(4, 2)"
    assert types["ts"] == "timestamp[us]" and types["arr"] == "list<item: float>"
    s = pickle.loads(pickle.dumps(t[2]))  # a FOLDER on its own, children included
    assert s.type == "FOLDER" and [c.id for c in s.path.samples] == ["img", "label"]
    assert describe(tacocore.Tortilla([s])) == describe(tacocore.Tortilla([t[2]]))
    m = pickle.loads(pickle.dumps(t[1]))
    assert m.path is None and m.metadata["blob"] == b"\x00\x01\xff"


def test_non_strict_tortilla_keeps_its_typed_nulls(tmp_path):
    t = tacocore.Tortilla([tacocore.Sample("a", b"1", cloud=12.5),
                           tacocore.Sample("b", b"2", other=np.int32(3))], strict_schema=False)
    back = pickle.loads(pickle.dumps(t))
    assert describe(back) == describe(t)
    assert back.schema == [("cloud", "double"), ("other", "int32")]


def folders(tmp_path):
    """Three FOLDER samples of the same shape (PIT): a file on disk, bytes, and padding."""
    (tmp_path / "img.bin").write_bytes(b"image bytes")
    out = []
    for i in range(3):
        kids = tacocore.Tortilla([tacocore.Sample("img", tmp_path / "img.bin", **fields(i)),
                                  tacocore.Sample("label", f"label {i}".encode(), **fields(i + 1))], pad_to=3)
        out.append(tacocore.Sample(f"f{i}", kids, **fields(i + 2)))
    return tacocore.Tortilla(out)


def test_unpickled_taco_writes_the_same_bytes(tmp_path):
    taco = tacocore.Taco(folders(tmp_path), **COLLECTION_DEFAULTS, keywords=["a", "b"],
                         extent={"spatial": [0, 0, 1, 1], "temporal": None}, **{"custom:key": {"k": [1]}})
    back = pickle.loads(pickle.dumps(taco))
    assert back.collection == taco.collection and back.id == taco.id
    assert describe(back.tortilla) == describe(taco.tortilla)
    a = tacocore.create(taco, tmp_path / "a")[0]
    b = tacocore.create(back, tmp_path / "b")[0]
    files = sorted(os.path.relpath(os.path.join(r, f), a) for r, _, fs in os.walk(a) for f in fs)
    assert files == sorted(os.path.relpath(os.path.join(r, f), b) for r, _, fs in os.walk(b) for f in fs)
    assert "COLLECTION.json" in files
    for f in files:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_a_file_missing_where_it_is_unpickled_is_named(tmp_path):
    (tmp_path / "gone.tif").write_bytes(b"x" * 10)
    blob = pickle.dumps(tacocore.Sample("gone", tmp_path / "gone.tif"))
    (tmp_path / "gone.tif").unlink()
    with pytest.raises(tacocore.TacoError, match="gone.tif"):
        pickle.loads(blob)


def test_a_damaged_state_is_refused_with_a_clear_error():
    blob = pickle.dumps(tacocore.Tortilla([tacocore.Sample("a", b"1", k=1)]))
    state = pickle.dumps(tacocore.Tortilla([tacocore.Sample("a", b"1", k=1)])._native.__getstate__())
    assert state  # the native state is bytes
    damaged = blob.replace(b"TACOTRT1", b"TACOXXX1")
    with pytest.raises(tacocore.TacoFormatError, match="pickled Tortilla.*TACOTRT1"):
        pickle.loads(damaged)
