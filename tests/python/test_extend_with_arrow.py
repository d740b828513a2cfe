"""Sample.extend_with(<1-row pyarrow Table>) reads the common column types straight from the
Arrow buffers (python/src/arrow_row.cpp) and leaves the rest to the pyarrow-scalar path
(_toolbox._arrow_fields). Both must give the same fields, the same values and the same column
types, nulls included, whatever the slice offset or chunking of the table."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import tacocore
from tacocore import _core, _toolbox

UTC = dt.timezone.utc

# (name, arrow type, values): row 1 of each is the one the tests take (a slice at offset 1).
FAST = [
    ("b", pa.bool_(), [False, True, None]),
    ("i8", pa.int8(), [1, -7, None]),
    ("i16", pa.int16(), [1, -300, None]),
    ("i32", pa.int32(), [1, -70_000, None]),
    ("i64", pa.int64(), [1, -(2**40), None]),
    ("f32", pa.float32(), [1.0, 0.1, None]),
    ("f64", pa.float64(), [1.0, 0.1, None]),
    ("s", pa.string(), ["x", "héllo", None]),
    ("ls", pa.large_string(), ["x", "large", None]),
    ("bin", pa.binary(), [b"x", b"\x00\xff", None]),
    ("lbin", pa.large_binary(), [b"x", b"big", None]),
    ("d", pa.date32(), [dt.date(2020, 1, 1), dt.date(1969, 12, 31), None]),
    ("ts", pa.timestamp("us"), [dt.datetime(2020, 1, 1), dt.datetime(2023, 5, 6, 7, 8, 9, 123456), None]),
    ("tsz", pa.timestamp("us", tz="UTC"),
     [dt.datetime(2020, 1, 1, tzinfo=UTC), dt.datetime(2023, 5, 6, 7, 8, 9, tzinfo=UTC), None]),
    ("tsm", pa.timestamp("us", tz="Europe/Madrid"),
     [dt.datetime(2020, 1, 1, tzinfo=UTC), dt.datetime(2023, 5, 6, 7, 8, 9, tzinfo=UTC), None]),
]
SLOW = [
    ("lst", pa.list_(pa.int64()), [[1], [2, 3], None]),
    ("ns", pa.timestamp("ns"), [dt.datetime(2020, 1, 1), dt.datetime(2021, 1, 1), None]),
    ("dict", pa.dictionary(pa.int32(), pa.string()), ["a", "b", None]),
]


def table_of(columns) -> pa.Table:
    return pa.table({name: pa.array(values, type=t) for name, t, values in columns})


def both_ways(one_row: pa.Table):
    fast = tacocore.Sample(id="fast", path=b"")
    fast.extend_with(one_row)
    slow = tacocore.Sample(id="slow", path=b"")
    _toolbox._arrow_fields("slow", one_row).apply(slow._native)
    return fast, slow


@pytest.mark.parametrize("row", [0, 1, 2], ids=["first", "offset", "nulls"])
def test_native_read_matches_the_scalar_path(row):
    one = table_of(FAST).slice(row, 1)
    probe = tacocore.Sample(id="probe", path=b"")
    assert _core.extend_from_arrow(probe._native, one.__arrow_c_stream__()), "fast path not taken"
    fast, slow = both_ways(one)
    assert fast.metadata == slow.metadata
    assert tacocore.Tortilla([fast]).schema == tacocore.Tortilla([slow]).schema
    if row == 1:
        got = fast.metadata
        assert got["i16"] == -300 and got["s"] == "héllo" and got["bin"] == b"\x00\xff"
        assert got["ts"] == dt.datetime(2023, 5, 6, 7, 8, 9, 123456)
        assert got["d"] == dt.date(1969, 12, 31)


def test_the_row_may_sit_in_any_chunk():
    chunks = [table_of(FAST).slice(0, 1), table_of(FAST).slice(1, 2)]
    table = pa.concat_tables(chunks)  # two chunks per column
    one = table.slice(1, 1)
    fast, slow = both_ways(one)
    assert fast.metadata == slow.metadata
    assert fast.metadata["i64"] == -(2**40)


@pytest.mark.parametrize("column", SLOW, ids=[c[0] for c in SLOW])
def test_other_types_go_through_the_scalar_path(column):
    one = table_of([column]).slice(1, 1)
    probe = tacocore.Sample(id="probe", path=b"")
    assert not _core.extend_from_arrow(probe._native, one.__arrow_c_stream__())
    assert probe.metadata == {}, "a refused stream must add nothing"
    fast, slow = both_ways(one)
    assert fast.metadata == slow.metadata
    assert tacocore.Tortilla([fast]).schema == tacocore.Tortilla([slow]).schema


def test_not_one_row_is_refused_with_the_sample_named():
    probe = tacocore.Sample(id="probe", path=b"")
    assert not _core.extend_from_arrow(probe._native, table_of(FAST).__arrow_c_stream__())
    with pytest.raises(tacocore.TacoSchemaError, match="probe.*exactly 1 row"):
        probe.extend_with(table_of(FAST))


def test_reserved_names_fail_as_on_the_scalar_path():
    one = pa.table({"id": ["x"]})
    with pytest.raises(tacocore.TacoSchemaError) as fast:
        tacocore.Sample(id="a", path=b"").extend_with(one)
    with pytest.raises(tacocore.TacoSchemaError) as slow:
        _toolbox._arrow_fields("a", one).apply(tacocore.Sample(id="a", path=b"")._native)
    assert str(fast.value) == str(slow.value)


def test_a_date_column_stays_a_date_with_or_without_nulls(tmp_path, make_taco):
    """date32 (from a Table or a Python date) is written as date32, as tacotoolbox writes it;
    a missing date in the column is a null of it, not a schema mismatch."""
    import pyarrow.parquet as pq
    import zipfile, io
    samples = [tacocore.Sample("a", b"1"), tacocore.Sample("b", b"2"), tacocore.Sample("c", b"3")]
    samples[0].extend_with(pa.table({"day": pa.array([dt.date(2024, 2, 29)], pa.date32())}))
    samples[1].extend_with(pa.table({"day": pa.array([None], pa.date32())}))
    samples[2].extend_with({"day": dt.date(1969, 12, 31)})
    path = tacocore.create(make_taco(samples), tmp_path / "days.tacozip")[0]
    with zipfile.ZipFile(path) as z:
        table = pq.read_table(io.BytesIO(z.read("METADATA/level0.parquet")))
    assert table.schema.field("day").type == pa.date32()
    assert table["day"].to_pylist() == [dt.date(2024, 2, 29), None, dt.date(1969, 12, 31)]
    assert tacocore.load(path).data.to_arrow()["day"].to_pylist() == table["day"].to_pylist()
