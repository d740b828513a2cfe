"""Issue 18 in Python: nested values round-trip with their types (struct, list<struct>, map,
fixed-size list, decimal, date, zoned timestamp), deep nesting is refused instead of crashing,
every failure is a TacoError (or a plain TypeError/ValueError for a bad argument). (concat of a
thousand datasets: tests/unit/test_concat_scale.cpp.)"""

from __future__ import annotations

import datetime as dt
import decimal
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS, REPO_ROOT


def make(tmp_path, samples, name="ds.tacozip"):
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    return str(tacocore.create(taco, tmp_path / name)[0])


def test_python_values_round_trip_with_their_types(tmp_path):
    nested = [{"a": [1, 2], "b": {"c": "x"}}]
    path = make(tmp_path, [
        tacocore.Sample("s0", b"0", n=nested, price=decimal.Decimal("12.50"), obj={"k": 1.5, "t": "u"}),
        tacocore.Sample("s1", b"1", n=[], price=decimal.Decimal("-3.25"), obj={"k": None, "t": None}),
    ])
    table = tacocore.load(path).data.to_arrow()
    assert table.schema.field("n").type == pa.list_(
        pa.struct([("a", pa.list_(pa.int64())), ("b", pa.struct([("c", pa.string())]))]))
    assert table.schema.field("price").type == pa.decimal128(4, 2)
    assert table.schema.field("obj").type == pa.struct([("k", pa.float64()), ("t", pa.string())])
    assert table["n"].to_pylist() == [nested, []]
    assert table["price"].to_pylist() == [decimal.Decimal("12.50"), decimal.Decimal("-3.25")]
    assert table["obj"].to_pylist() == [{"k": 1.5, "t": "u"}, {"k": None, "t": None}]


TACO = REPO_ROOT / "build" / "bin" / "taco"

PARQUET_COLUMNS = {
    "n": (pa.list_(pa.struct([("a", pa.list_(pa.int64())), ("b", pa.struct([("c", pa.string())]))])),
          [[{"a": [1, 2], "b": {"c": "x"}}], [{"a": None, "b": None}]]),
    "m": (pa.map_(pa.string(), pa.int64()), [[("k", 1)], []]),
    "v": (pa.list_(pa.float32(), 3), [[1.5, -2.0, 0.25], None]),
    "d": (pa.decimal128(12, 3), [decimal.Decimal("123456789.125"), decimal.Decimal("-0.500")]),
    "day": (pa.date32(), [dt.date(2024, 2, 29), None]),
    "ts": (pa.timestamp("us", tz="UTC"), [dt.datetime(2024, 1, 2, 3, 4, 5, 6, tzinfo=dt.timezone.utc), None]),
}


@pytest.mark.skipif(not TACO.is_file(), reason="the taco CLI is not built")
def test_parquet_written_types_reach_to_arrow_unchanged(tmp_path):
    """A pyarrow-written metadata table with every nested type the spec allows, through the CLI's
    create and Python's load: to_arrow() gives the same schema and values."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"a")
    (src / "b.bin").write_bytes(b"b")
    pq.write_table(pa.table({"id": ["a.bin", "b.bin"],
                             **{k: pa.array(v, type=t) for k, (t, v) in PARQUET_COLUMNS.items()}}),
                   tmp_path / "meta.parquet")
    out = tmp_path / "ds.tacozip"
    proc = subprocess.run([str(TACO), "create", "--from", str(src), str(out), "--metadata",
                           str(tmp_path / "meta.parquet"), "--key", "id"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    table = tacocore.load(str(out)).data.to_arrow()
    for name, (arrow_type, values) in PARQUET_COLUMNS.items():
        # Parquet has no fixed-size list: stored as a list (docs/FORMAT-DECISIONS.md).
        expected = pa.list_(arrow_type.value_type) if name == "v" else arrow_type
        assert table.schema.field(name).type == expected, name
        assert table[name].to_pylist() == values, name


def test_deep_python_value_is_a_schema_error_not_a_crash(tmp_path):
    code = (
        "import tacocore\n"
        "v = 1\n"
        "for _ in range(100_000): v = [v]\n"
        "try:\n"
        "    tacocore.Sample('a', b'x', v=v)\n"
        "except tacocore.TacoSchemaError as e:\n"
        "    print('refused:', e)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "refused:" in proc.stdout and "levels deep" in proc.stdout


def test_nesting_limit_at_read(tmp_path):
    path = make(tmp_path, [tacocore.Sample("a", b"x", v=1.0)])
    deep = pa.array([1])
    for _ in range(70):
        deep = pa.ListArray.from_arrays(pa.array([0, 1], type=pa.int32()), deep)
    pq.write_table(pa.table({"deep": deep}), tmp_path / "deep.parquet")
    ds = tacocore.load(path)
    with pytest.raises(tacocore.TacoSchemaError, match="the limit is 64"):
        ds.sql(f"SELECT * FROM read_parquet('{tmp_path / 'deep.parquet'}')").data.to_arrow()


def test_bad_arguments_are_plain_python_errors_or_taco_errors(tmp_path):
    path = make(tmp_path, [tacocore.Sample("a", b"x", v=1.0), tacocore.Sample("b", b"y", v=2.0)])
    df = tacocore.load(path).data
    with pytest.raises(ValueError, match="threads"):
        df.read_arrays(["a"], threads=-1)
    with pytest.raises(tacocore.TacoNavigationError, match="out of range"):
        df.read(2**63)
    with pytest.raises(tacocore.TacoNavigationError, match="out of range"):
        df.read(-(2**64))


def test_memory_error_is_a_taco_error():
    assert issubclass(tacocore.TacoMemoryError, tacocore.TacoError)
    assert issubclass(tacocore.TacoMemoryError, MemoryError)


def test_collection_json_out_of_range_number_is_a_format_error(tmp_path):
    path = make(tmp_path, [tacocore.Sample("a", b"x", v=1.0)], name="folder_ds")
    coll = tmp_path / "folder_ds" / "COLLECTION.json"
    text = coll.read_text()
    coll.write_text(text.replace('"dataset_version"', '"huge": 1e999999, "dataset_version"', 1))
    with pytest.raises(tacocore.TacoError):
        tacocore.load(str(tmp_path / "folder_ds"))


def test_gdal_errors_are_not_printed_beside_ours(tmp_path, capfd):
    path = make(tmp_path, [tacocore.Sample("a", b"not a raster", v=1.0)])
    df = tacocore.load(path).data
    with pytest.raises(tacocore.TacoIOError, match="GDAL cannot open") as info:
        df.read_array("a")
    err = capfd.readouterr().err
    assert "ERROR 4" not in err and "not recognized" not in err, err
    assert "not recognized" in str(info.value) or "supported" in str(info.value)


def test_close_invalidates_every_derived_frame(tmp_path):
    path = make(tmp_path, [tacocore.Sample("a", b"x", v=1.0), tacocore.Sample("b", b"y", v=2.0)])
    ds = tacocore.load(path)
    view = ds.sql("SELECT * FROM data WHERE v > 1")
    frame = ds.data
    view_frame = view.data
    ds.close()
    for read in (lambda: frame.read_bytes(0), lambda: frame.read("a"), lambda: frame.read_array("a"),
                 lambda: frame.read_arrays(["a"]), lambda: view.data, lambda: view_frame.read_bytes(0)):
        with pytest.raises(tacocore.TacoQueryError, match="is closed"):
            read()


def test_collection_json_that_is_not_utf8_is_a_format_error(tmp_path):
    make(tmp_path, [tacocore.Sample("a", b"x", v=1.0)], name="folder_ds")
    coll = tmp_path / "folder_ds" / "COLLECTION.json"
    data = coll.read_bytes()
    coll.write_bytes(data.replace(b'"description": "', b'"description": "\xff', 1))
    with pytest.raises(tacocore.TacoFormatError, match="UTF-8"):
        tacocore.load(str(tmp_path / "folder_ds"))


def test_error_messages_with_undecodable_bytes_stay_taco_errors(tmp_path):
    with pytest.raises(tacocore.TacoError) as info:
        tacocore.load(str(tmp_path / "missing_\udcff.tacozip"))
    assert not isinstance(info.value, UnicodeError)
