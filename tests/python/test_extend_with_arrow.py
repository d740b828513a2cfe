"""Sample.extend_with(<1-row pyarrow Table>) reads the columns of the model's types straight from
the Arrow buffers (python/src/arrow_row.cpp) and leaves the rest to the pyarrow-scalar path
(_toolbox._arrow_fields), which still reads every column the native reader takes natively, so a
column has one type whichever path its row takes. The native values must equal what pyarrow's
own Python values convert to (the oracle here: every column through those values), and the
column types must be the model's normalisations, nulls included, whatever the slice offset or
chunking of the table."""

from __future__ import annotations

import datetime as dt
import decimal
import os

import numpy as np
import pyarrow as pa
import pytest

import tacocore
from tacocore import _core, _toolbox

UTC = dt.timezone.utc

# (name, arrow type, values): row 1 of each is the one the tests take (a slice at offset 1).
# STORED: the type each is stored as (the model's normalisations, USER-GUIDE §4).
FAST = [
    ("b", pa.bool_(), [False, True, None]),
    ("i8", pa.int8(), [1, -7, None]),
    ("i16", pa.int16(), [1, -300, None]),
    ("i32", pa.int32(), [1, -70_000, None]),
    ("i64", pa.int64(), [1, -(2**40), None]),
    ("u8", pa.uint8(), [1, 255, None]),
    ("u16", pa.uint16(), [1, 65535, None]),
    ("u32", pa.uint32(), [1, 2**32 - 1, None]),
    ("u64", pa.uint64(), [1, 2**63 - 1, None]),
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
    ("ms", pa.timestamp("ms"), [dt.datetime(2020, 1, 1), dt.datetime(2023, 5, 6, 7, 8, 9, 123000), None]),
    ("s_tokyo", pa.timestamp("s", tz="Asia/Tokyo"),
     [dt.datetime(2020, 1, 1, tzinfo=UTC), dt.datetime(1960, 5, 6, 7, 8, 9, tzinfo=UTC), None]),
]
FAST += [("f16", pa.float16(), [np.float16(1.5), np.float16(-2), None]),
         ("sv", pa.string_view(), ["a", "a view longer than twelve bytes", None]),
         ("bv", pa.binary_view(), [b"\x00\xff", b"bytes beyond the 12 inline ones", None])]
STORED = {"b": "bool", "i8": "int32", "i16": "int32", "i32": "int32", "i64": "int64", "u8": "int64",
          "u16": "int64", "u32": "int64", "u64": "int64", "f32": "float", "f64": "double", "s": "string",
          "ls": "string", "bin": "binary", "lbin": "binary", "d": "date32[day]", "ts": "timestamp[us]",
          "tsz": "timestamp[us, tz=UTC]", "tsm": "timestamp[us, tz=UTC]", "ms": "timestamp[us]",
          "s_tokyo": "timestamp[us, tz=UTC]", "f16": "double", "sv": "string", "bv": "binary"}
SLOW = [
    ("ree", pa.run_end_encoded(pa.int32(), pa.string()), ["a", "b", None]),
    ("lv", pa.list_view(pa.int64()), [[1], [2, 3], None]),
]


def table_of(columns) -> pa.Table:
    return pa.table({name: pa.array(values, type=t) for name, t, values in columns})


def written_one_row_per_sample(path, make_taco, table: pa.Table):
    """(dataset, its level-0 table as pyarrow reads it) after one sample per row of `table`, each
    given its row through extend_with(table.slice(i, 1))."""
    import io
    import zipfile

    import pyarrow.parquet as pq
    samples = [tacocore.Sample(id=f"s{i}", path=b"x") for i in range(table.num_rows)]
    for i, s in enumerate(samples):
        s.extend_with(table.slice(i, 1))
    out = tacocore.create(make_taco(samples), path)[0]
    with zipfile.ZipFile(out) as z:
        return out, pq.read_table(io.BytesIO(z.read("METADATA/level0.parquet")))


def both_ways(one_row: pa.Table):
    """(the sample extend_with makes, the oracle: every column from pyarrow's Python values)."""
    fast = tacocore.Sample(id="fast", path=b"")
    fast.extend_with(one_row)
    slow = tacocore.Sample(id="slow", path=b"")
    values = [_toolbox._arrow_value(c.type, c[0].as_py()) for c in one_row.columns]
    _core.ext_from_row("slow", one_row.column_names, None, values.__getitem__).apply(slow._native)
    return fast, slow


def stored_types(sample) -> dict:
    return dict(tacocore.Tortilla([sample]).schema)


@pytest.mark.parametrize("row", [0, 1, 2], ids=["first", "offset", "nulls"])
def test_native_read_matches_the_scalar_path(row):
    one = table_of(FAST).slice(row, 1)
    probe = tacocore.Sample(id="probe", path=b"")
    assert _core.extend_from_arrow(probe._native, one.__arrow_c_stream__()), "fast path not taken"
    fast, slow = both_ways(one)
    assert fast.metadata == slow.metadata
    assert stored_types(fast) == STORED
    if row != 2:  # the oracle's nulls are untyped
        assert stored_types(slow) == STORED
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


@pytest.mark.parametrize("zone", ["UTC", "Europe/Madrid"])
@pytest.mark.parametrize("path", ["native", "scalar"])
def test_a_zoned_timestamp_column_stays_instants_with_or_without_nulls(tmp_path, make_taco, path, zone):
    """A zoned timestamp column is written as timestamp[us, tz=UTC], the instants exact (Parquet
    keeps isAdjustedToUTC, not the zone's name): its values used to become plain timestamps while
    a UTC column's nulls kept the zone, so a column with one missing time failed the Tortilla's
    schema check, and another zone's values lost being instants. A run-end encoded column sends
    the rows through the pyarrow-scalar path instead of the native reader."""
    times = [dt.datetime(2024, 1, 1, 12, tzinfo=UTC), None, dt.datetime(2024, 7, 2, 23, 30, tzinfo=UTC)]
    columns = {"when": pa.array(times, pa.timestamp("us", tz=zone))}
    if path == "scalar":
        columns["ree"] = pa.array(["a", "b", "c"], pa.run_end_encoded(pa.int32(), pa.string()))
    table = pa.table(columns)
    out, level = written_one_row_per_sample(tmp_path / "utc.tacozip", make_taco, table)
    assert level.schema.field("when").type == pa.timestamp("us", tz="UTC")
    assert level["when"].to_pylist() == times
    assert tacocore.load(out).data.to_arrow()["when"].to_pylist() == times


@pytest.mark.parametrize("path", ["native", "scalar"])
def test_second_and_millisecond_timestamps_become_microseconds(tmp_path, make_taco, path):
    """timestamp[s] and timestamp[ms] are kept at TACO's microseconds, the values exact, a null
    keeping the column's type (it used to be untyped, and failed the schema check)."""
    secs = [dt.datetime(1901, 1, 1, 0, 0, 1), None, dt.datetime(2100, 12, 31, 23, 59, 59)]
    millis = [dt.datetime(2024, 1, 1, 12, 0, 0, 5000), dt.datetime(1969, 12, 31, 23, 59, 59, 999000), None]
    columns = {"s": pa.array(secs, pa.timestamp("s")), "ms": pa.array(millis, pa.timestamp("ms", tz="UTC"))}
    if path == "scalar":
        columns["ree"] = pa.array(["a", "b", "c"], pa.run_end_encoded(pa.int32(), pa.string()))
    table = pa.table(columns)
    out, level = written_one_row_per_sample(tmp_path / "units.tacozip", make_taco, table)
    assert level.schema.field("s").type == pa.timestamp("us")
    assert level.schema.field("ms").type == pa.timestamp("us", tz="UTC")
    assert level["s"].to_pylist() == secs
    assert level["ms"].to_pylist() == [None if t is None else t.replace(tzinfo=UTC) for t in millis]


def test_half_floats_are_read_natively_as_the_exact_double():
    """float16 (tacotoolbox keeps it; the model stores a double) is read from its bits: normal,
    subnormal, the largest, signed zero, infinities and NaN are each the double numpy gives."""
    halves = np.array([1.5, -2, 65504, 6.1035e-05, 5.96e-08, -0.0, np.inf, -np.inf, np.nan], np.float16)
    table = pa.table({"h": pa.array(halves, pa.float16())})
    for i, half in enumerate(halves):
        probe = tacocore.Sample(id="probe", path=b"")
        assert _core.extend_from_arrow(probe._native, table.slice(i, 1).__arrow_c_stream__())
        got, want = probe["h"], float(half)
        assert type(got) is float
        assert (np.isnan(got) and np.isnan(want)) or (got == want and np.signbit(got) == np.signbit(want)), (i, got, want)


def test_a_declined_column_leaves_the_others_read_natively():
    """A column the native reader declines (run-end encoded here) sends its row through pyarrow
    scalars, but only that column: every other one is still read natively, so it has the type it
    has on the native path. Through pyarrow scalars a struct's int32 field became int64, a
    decimal128(5, 2) a decimal128(3, 2), a map failed, and nulls of nested, float16 or ns types
    were untyped: a column holding both a value and a null then failed the Tortilla."""
    columns = {
        "st": pa.array([{"a": 1}, None], pa.struct([("a", pa.int32())])),
        "dec": pa.array([decimal.Decimal("1.50"), None], pa.decimal128(5, 2)),
        "m": pa.array([[("k", 1)], None], pa.map_(pa.string(), pa.int32())),
        "fl": pa.array([[1.0, 2.0], None], pa.list_(pa.float32(), 2)),
        "h": pa.array([np.float16(0.5), None], pa.float16()),
        "ts": pa.array([1_000, None], pa.timestamp("ns", tz="Asia/Tokyo")),
    }
    natively = pa.table(columns)
    declined = pa.table({**columns, "r": pa.array(["x", "y"], pa.run_end_encoded(pa.int32(), pa.string()))})
    probe = tacocore.Sample(id="probe", path=b"")
    assert not _core.extend_from_arrow(probe._native, declined.slice(0, 1).__arrow_c_stream__())

    def samples(table):
        out = [tacocore.Sample(id=f"s{i}", path=b"") for i in range(2)]
        for i, s in enumerate(out):
            s.extend_with(table.slice(i, 1))
        return out

    slow, fast = samples(declined), samples(natively)
    assert [s.metadata["r"] for s in slow] == ["x", "y"]
    for a, b in zip(slow, fast):
        assert {k: v for k, v in a.metadata.items() if k != "r"} == b.metadata
    want = tacocore.Tortilla(fast).schema
    assert [c for c in tacocore.Tortilla(slow).schema if c[0] != "r"] == want
    assert dict(want) == {"st": "struct<a: int32>", "dec": "decimal128(5, 2)", "m": "map<string, int32>",
                          "fl": "fixed_size_list<item: float>[2]", "h": "double", "ts": "timestamp[us, tz=UTC]"}


def test_only_the_declined_columns_are_converted_from_python_values():
    """A declined column's row asks pyarrow for that column's Python value alone: a timestamp
    past year 9999 (int64 microseconds hold it, Python's datetime does not) beside a run-end
    encoded column is read natively and kept exactly. Converting every column's scalar first
    failed that row with an OverflowError."""
    far = 300_000_000_000_000_000  # microseconds: year 11476
    table = pa.table({"far": pa.array([far], pa.timestamp("us")), "i": [1],
                      "r": pa.array([7], pa.run_end_encoded(pa.int32(), pa.int64()))})
    with pytest.raises(OverflowError):
        table.column("far")[0].as_py()
    asked = []

    def value_of(i):
        asked.append(i)
        return table.columns[i][0].as_py()

    _core.ext_from_row("s", table.column_names, table.__arrow_c_stream__(), value_of)
    assert asked == [2]
    sample = tacocore.Sample(id="s", path=b"")
    sample.extend_with(table)
    exported = tacocore.Tortilla([sample]).export_metadata()
    assert exported.schema.field("far").type == pa.timestamp("us")
    assert exported.column("far").cast(pa.int64()).to_pylist() == [far]
    assert exported.column("r").to_pylist() == [7]
    assert sample.pop("r").to_pydict() == {"r": [7]}  # pop reads no other field into Python


def test_a_timestamp_beyond_microseconds_is_left_to_the_scalar_path():
    """Seconds that overflow int64 microseconds are not read natively (no wrapped value)."""
    one = pa.table({"t": pa.array([2**62], pa.timestamp("s"))})
    probe = tacocore.Sample(id="probe", path=b"")
    assert not _core.extend_from_arrow(probe._native, one.__arrow_c_stream__())
    assert probe.metadata == {}


# Nested and decimal columns are read natively too, typed from the Arrow schema: through pyarrow
# scalars a struct's int32 field became int64, a decimal128(5, 2) a decimal128(3, 2) (the digits
# of its value), a float32 fixed-size list doubles, and a map column failed (its entries read as
# a list of mixed (key, value) tuples).
NESTED = [
    ("st", pa.struct([("a", pa.int32()), ("b", pa.string()), ("c", pa.list_(pa.float32()))]),
     [{"a": 1, "b": "x", "c": [0.5]}, {"a": None, "b": "y", "c": []}, None],
     "struct<a: int32, b: string, c: list<item: float>>"),
    ("mp", pa.map_(pa.string(), pa.int64()), [[("k", 1), ("z", None)], [], None],
     "map<string, int64>"),
    ("dec", pa.decimal128(5, 2), [decimal.Decimal("1.25"), decimal.Decimal("-999.99"), None],
     "decimal128(5, 2)"),
    ("dec0", pa.decimal128(38, 0), [decimal.Decimal(10**37), decimal.Decimal(-(10**37) + 1), None],
     "decimal128(38, 0)"),
    ("fsl", pa.list_(pa.float32(), 2), [[1.0, 2.5], [None, 3.0], None], "fixed_size_list<item: float>[2]"),
    ("ll", pa.large_list(pa.list_(pa.int16())), [[[1], [2, None]], [], None], "list<item: list<item: int32>>"),
    ("lts", pa.list_(pa.timestamp("ms", tz="UTC")),
     [[dt.datetime(2020, 1, 1, tzinfo=UTC)], [None], None], "list<item: timestamp[us, tz=UTC]>"),
]


@pytest.mark.parametrize("name, arrow_type, values, model_type", NESTED, ids=[c[0] for c in NESTED])
@pytest.mark.parametrize("row", [0, 1, 2], ids=["first", "offset", "nulls"])
def test_nested_columns_are_read_natively_with_their_types(name, arrow_type, values, model_type, row):
    table = pa.table({name: pa.array(values, type=arrow_type), "pad": pa.array([1, 2, 3])})
    one = table.slice(row, 1)
    probe = tacocore.Sample(id="probe", path=b"")
    assert _core.extend_from_arrow(probe._native, one.__arrow_c_stream__()), "fast path not taken"
    assert dict(tacocore.Tortilla([probe]).schema)[name] == model_type
    expected = one[name].to_pylist()[0]
    if name == "fsl" and expected is not None:
        expected = [v for v in expected]
    assert probe.metadata[name] == expected


def test_nested_columns_round_trip_through_a_written_dataset(tmp_path, make_taco):
    """Every NESTED column written and read back: the same values, nulls included, and the types
    pyarrow reads (a fixed-size list is stored as a list, docs/FORMAT-DECISIONS.md)."""
    table = pa.table({name: pa.array(values, type=t) for name, t, values, _ in NESTED})
    out, level = written_one_row_per_sample(tmp_path / "nested.tacozip", make_taco, table)
    assert level.schema.field("st").type == table.schema.field("st").type
    assert level.schema.field("dec").type == pa.decimal128(5, 2)
    assert level.schema.field("fsl").type.value_type == pa.float32()
    for name, *_ in NESTED:
        assert level[name].to_pylist() == table[name].to_pylist(), name


# What pandas makes (pa.Table.from_pandas): nanosecond times, categoricals (dictionaries), all-None
# object columns (null type), and date64, read natively too; through pyarrow scalars a table with
# one of them took every column there, ~25 us a row and nested types lost.
PANDAS = [
    ("ns", pa.timestamp("ns"), [-1, 1_700_000_000_123_456_789, None], pa.timestamp("us"),
     [dt.datetime(1969, 12, 31, 23, 59, 59, 999999), dt.datetime(2023, 11, 14, 22, 13, 20, 123456), None]),
    ("ns_tz", pa.timestamp("ns", tz="UTC"), [0, 1_500, None], pa.timestamp("us", tz="UTC"),
     [dt.datetime(1970, 1, 1, tzinfo=UTC), dt.datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC), None]),
    ("cat", pa.dictionary(pa.int8(), pa.string()), ["b", "a", None], pa.string(), ["b", "a", None]),
    ("d64", pa.date64(), [dt.date(2020, 1, 2), dt.date(1969, 12, 31), None], pa.date32(),
     [dt.date(2020, 1, 2), dt.date(1969, 12, 31), None]),
]


def test_pandas_columns_are_read_natively(tmp_path, make_taco):
    table = pa.table({name: pa.array(values, type=t) for name, t, values, _, _ in PANDAS}
                     | {"none": pa.array([None, None, None], pa.null())})
    for row in range(3):
        probe = tacocore.Sample(id="probe", path=b"")
        assert _core.extend_from_arrow(probe._native, table.slice(row, 1).__arrow_c_stream__()), row
    _, level = written_one_row_per_sample(tmp_path / "pandas.tacozip", make_taco, table)
    for name, _, _, written_type, read_back in PANDAS:
        assert level.schema.field(name).type == written_type, name
        assert level[name].to_pylist() == read_back, name
    assert level["none"].to_pylist() == [None, None, None]  # an all-null column: string


def test_a_dictionary_index_outside_its_dictionary_is_left_to_the_scalar_path():
    bad = pa.DictionaryArray.from_arrays(pa.array([0, 5], pa.int32()), pa.array(["a"]), safe=False)
    probe = tacocore.Sample(id="probe", path=b"")
    assert not _core.extend_from_arrow(probe._native, pa.table({"c": bad}).slice(1, 1).__arrow_c_stream__())
    assert probe.metadata == {}


# Deferred rows (issue 15): a 1-row table whose class and schema match the last one the native
# reader took whole waits on its sample, and the waiting tables are read in one native pass when
# the samples go into a Tortilla, when the queue of waiting samples is full, or when anything
# reads the sample. Every observable result must equal applying each table at once.

def sliced_samples(n: int, table: pa.Table):
    samples = [tacocore.Sample(id=f"s{i}", path=b"") for i in range(n)]
    for i, s in enumerate(samples):
        s.extend_with(table.slice(i % table.num_rows, 1))
    return samples


def expected_rows(n: int, table: pa.Table) -> list:
    out = []
    for i in range(n):
        probe = tacocore.Sample(id="probe", path=b"")
        _toolbox._arrow_fields("probe", table.slice(i % table.num_rows, 1)).apply(probe._native)
        out.append(probe.metadata)
    return out


def test_deferred_rows_are_read_in_one_pass_and_equal_the_one_by_one_path(monkeypatch):
    passes = []
    real = _core.extend_rows_from_arrow
    monkeypatch.setattr(_core, "extend_rows_from_arrow", lambda s, c: passes.append(len(s)) or real(s, c))
    table = table_of(FAST)
    samples = sliced_samples(30, table)
    assert samples[0]._pending is None, "the first table of a schema is applied at once (keys checked)"
    assert all(s._pending is not None for s in samples[1:]), "later tables must wait"
    tortilla = tacocore.Tortilla(samples)
    assert passes == [29]
    assert [s.metadata for s in samples] == expected_rows(30, table)
    assert tacocore.Tortilla([samples[3]]).schema == tortilla.schema


def test_a_waiting_table_keeps_its_place_among_other_fields():
    table = pa.table({"a": [1, 2], "b": ["x", "y"]})
    tacocore.Sample(id="first", path=b"").extend_with(table.slice(0, 1))  # remembers the schema
    s = tacocore.Sample(id="s", path=b"", z=0)
    s.extend_with(table.slice(1, 1))
    assert s._pending is not None
    s.extend_with({"a": 9, "c": True})  # reads the sample: the waiting table goes first
    assert s.metadata == {"z": 0, "a": 9, "b": "y", "c": True}
    s.extend_with(table.slice(0, 1))  # waits again, then overwrites a and b in place
    assert s["a"] == 1 and list(s.metadata) == ["z", "a", "b", "c"]


def test_several_waiting_tables_and_schemas_apply_in_order(monkeypatch):
    passes = []
    real = _core.extend_rows_from_arrow
    monkeypatch.setattr(_core, "extend_rows_from_arrow", lambda s, c: passes.append(len(s)) or real(s, c))
    t1 = pa.table({"a": [1, 2, 3]})
    t2 = pa.table({"a": [10, 20, 30], "b": [0.5, 1.5, 2.5]})
    samples = [tacocore.Sample(id=f"s{i}", path=b"") for i in range(4)]
    for i, s in enumerate(samples[:3]):
        s.extend_with(t1.slice(i, 1))  # s0 at once, s1 and s2 wait
    for i, s in enumerate(samples):
        s.extend_with(t2.slice(i % 3, 1))  # s0 at once (new schema), the others wait
    samples[1].extend_with(t2.slice(0, 1))  # a third table on one sample
    assert [len(s._pending or []) for s in samples] == [0, 3, 2, 1]
    tacocore.Tortilla(samples)
    # Round 1 mixes schemas (s1, s2: t1; s3: t2): one pass per schema, s3's alone goes one by one.
    assert passes == [2, 2]
    assert [s.metadata for s in samples] == [
        {"a": 10, "b": 0.5}, {"a": 10, "b": 0.5}, {"a": 30, "b": 2.5}, {"a": 10, "b": 0.5}]


def test_a_full_queue_applies_the_waiting_tables(monkeypatch):
    _toolbox._drain_queue()  # samples other tests left queued
    monkeypatch.setattr(_toolbox, "_QUEUE_LIMIT", 8)
    table = table_of(FAST)
    samples = sliced_samples(20, table)
    assert all(s._pending is None for s in samples[:16]), "two full queues were applied"
    assert all(s._pending is not None for s in samples[17:])
    assert len(_toolbox._queue) < 8
    assert [s.metadata for s in samples] == expected_rows(20, table)


def test_a_waiting_table_survives_pickling():
    import pickle
    table = table_of(FAST)
    samples = sliced_samples(3, table)
    assert samples[2]._pending is not None
    back = pickle.loads(pickle.dumps(samples[2]))
    assert back.metadata == expected_rows(3, table)[2] and back._pending is None


def test_an_empty_bytes_sample_survives_pickling():
    import pickle
    back = pickle.loads(pickle.dumps(tacocore.Sample(id="empty", path=b"", k=1)))
    assert (back.id, back.size, back.path, back.metadata) == ("empty", 0, None, {"k": 1})


def test_text_that_is_not_utf8_fails_at_the_tortilla_naming_sample_and_field():
    good = pa.table({"s": ["ok", "fine"]})
    bad = pa.Table.from_arrays([pa.Array.from_buffers(
        pa.string(), 1, [None, pa.py_buffer((0).to_bytes(4, "little") + (2).to_bytes(4, "little")),
                         pa.py_buffer(b"\xff\xfe")])], names=["s"])
    a = tacocore.Sample(id="a", path=b"")
    a.extend_with(good.slice(0, 1))
    b = tacocore.Sample(id="b", path=b"")
    b.extend_with(bad)
    c = tacocore.Sample(id="c", path=b"")
    c.extend_with(good.slice(1, 1))
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'b' field 's': text is not valid UTF-8"):
        tacocore.Tortilla([a, b, c])
    assert c.metadata == {"s": "fine"}, "the samples after it are still applied"
    # The failed table stays with its sample: using it fails the same way again. (It was dropped,
    # so a retry, e.g. with strict_schema=False, silently wrote the sample without its fields.)
    assert b._pending is not None
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'b' field 's'"):
        tacocore.Tortilla([a, b, c], strict_schema=False)
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'b' field 's'"):
        b.metadata
    assert tacocore.Tortilla([a, c]).export_metadata()["s"].to_pylist() == ["ok", "fine"]


def test_a_bad_waiting_row_fails_only_its_own_tortilla():
    """A Tortilla applied every queued sample's rows, so a bad row of a sample still being built
    elsewhere failed an unrelated Tortilla, naming a sample it does not hold."""
    big = pa.table({"x": pa.array([1, 2**63 + 5], pa.uint64())})
    primed = tacocore.Sample(id="prime", path=b"")
    primed.extend_with(big.slice(0, 1))
    tacocore.Tortilla([primed])  # the schema is now read whole: later rows like it wait
    bad = tacocore.Sample(id="bad", path=b"")
    bad.extend_with(big.slice(1, 1))
    assert bad._pending is not None
    ok = [tacocore.Sample(id=f"ok{i}", path=b"", y=i) for i in range(2)]
    assert tacocore.Tortilla(ok).export_metadata()["y"].to_pylist() == [0, 1]
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'bad' field 'x': integer 9223372036854775813"):
        tacocore.Tortilla([bad])


def test_samples_built_on_threads_get_their_own_rows(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor
    monkeypatch.setattr(_toolbox, "_QUEUE_LIMIT", 16)
    table = pa.table({"k": list(range(400)), "name": [f"n{i}" for i in range(400)]})
    tacocore.Sample(id="first", path=b"").extend_with(table.slice(0, 1))

    def build(part: int) -> list:
        out = []
        for i in range(part * 100, part * 100 + 100):
            s = tacocore.Sample(id=f"s{i}", path=b"")
            s.extend_with(table.slice(i, 1))
            out.append(s)
        return out

    with ThreadPoolExecutor(4) as pool:
        samples = [s for part in pool.map(build, range(4)) for s in part]
    tacocore.Tortilla(samples)
    assert [s.metadata for s in samples] == [{"k": i, "name": f"n{i}"} for i in range(400)]


def test_a_fork_while_another_thread_applies_rows_leaves_the_child_working():
    """The child of a fork() made while another thread held the lock of the waiting rows gets a
    free lock, and its Tortilla applies its samples' rows (without the fix: a hang, then the
    alarm)."""
    import signal
    import threading

    table = pa.table({"k": [1, 2, 3]})
    tacocore.Sample(id="first", path=b"").extend_with(table.slice(0, 1))
    held, release = threading.Event(), threading.Event()

    def hold():
        with _toolbox._pending_lock:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(30)
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only when everything worked
        signal.alarm(20)
        try:
            samples = [tacocore.Sample(id=f"c{i}", path=b"") for i in range(3)]
            for i, s in enumerate(samples):
                s.extend_with(table.slice(i, 1))
            tacocore.Tortilla(samples)
            os._exit(0 if [s["k"] for s in samples] == [1, 2, 3] else 1)
        except BaseException:
            os._exit(2)
    release.set()
    holder.join()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
