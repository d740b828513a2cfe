"""Every column type tacotoolbox writes from a 1-row pyarrow table is read by tacocore, with the
type its model gives it and every value exact, nulls included; tacoreader itself cannot read some
of them (float16). A uint64 beyond int64 failed the whole `data` query (DuckDB's cast to int64):
it is read as decimal128(20, 0) (docs/FORMAT-DECISIONS.md)."""

from __future__ import annotations

import datetime as dt
import decimal

import numpy as np
import pyarrow as pa
import pytest

import tacocore

tacotoolbox = pytest.importorskip("tacotoolbox")

UTC = dt.timezone.utc

# name: (arrow type, values, the type tacocore reads, the values it reads)
COLUMNS = {
    "u8": (pa.uint8(), [255, None], "int32", [255, None]),
    "u64": (pa.uint64(), [2**64 - 1, 7], "decimal128(20, 0)", [decimal.Decimal(2**64 - 1), decimal.Decimal(7)]),
    "f16": (pa.float16(), [np.float16(1.5), None], "float", [1.5, None]),
    "ll": (pa.large_list(pa.int64()), [[1, 2], None], "list<l: int64>", [[1, 2], None]),
    "fsl": (pa.list_(pa.float32(), 2), [[1.0, 2.5], None], "list<l: float>", [[1.0, 2.5], None]),
    "st": (pa.struct([("a", pa.int32()), ("b", pa.string())]), [{"a": 1, "b": "x"}, None],
           "struct<a: int32, b: string>", [{"a": 1, "b": "x"}, None]),
    "mp": (pa.map_(pa.string(), pa.int64()), [[("k", 1)], None], "map<string, int64>", [[("k", 1)], None]),
    "dec": (pa.decimal128(5, 2), [decimal.Decimal("-999.99"), None], "decimal128(5, 2)", [decimal.Decimal("-999.99"), None]),
    "tim": (pa.time64("us"), [dt.time(1, 2, 3, 4), None], "string", ["01:02:03.000004", None]),
    "ns": (pa.timestamp("ns"), [np.datetime64("2024-01-01T00:00:00.123456789"), None], "timestamp[us]",
           [dt.datetime(2024, 1, 1, 0, 0, 0, 123456), None]),
    "tzm": (pa.timestamp("us", tz="Europe/Madrid"), [dt.datetime(2020, 1, 1, tzinfo=UTC), None],
            "timestamp[us, tz=UTC]", [dt.datetime(2020, 1, 1, tzinfo=UTC), None]),
    "lbin": (pa.large_binary(), [b"\x00\xff", None], "binary", [b"\x00\xff", None]),
}


@pytest.fixture(scope="module")
def toolbox_dataset(tmp_path_factory):
    from tacotoolbox.datamodel import Sample, Taco, Tortilla
    table = pa.table({name: pa.array(values, type=t) for name, (t, values, _, _) in COLUMNS.items()})
    samples = []
    for i in range(table.num_rows):
        s = Sample(id=f"s{i}", path=b"x" * (i + 1))
        s.extend_with(table.slice(i, 1))
        samples.append(s)
    out = tmp_path_factory.mktemp("types") / "toolbox.tacozip"
    tacotoolbox.create(Taco(tortilla=Tortilla(samples), id="types", dataset_version="1.0.0", description="types",
                            licenses=["CC-BY-4.0"], providers=[{"name": "x"}], tasks=["classification"]), str(out))
    return out


@pytest.mark.parametrize("name", list(COLUMNS))
def test_every_column_tacotoolbox_writes_is_read(toolbox_dataset, name):
    _, _, read_type, read_values = COLUMNS[name]
    table = tacocore.load(toolbox_dataset).data.to_arrow()
    assert str(table.schema.field(name).type) == read_type
    assert table[name].to_pylist() == read_values


def test_sql_over_a_uint64_column_beyond_int64(toolbox_dataset):
    ds = tacocore.load(toolbox_dataset)
    got = ds.sql("SELECT u64, u64 > 9223372036854775807 AS big FROM data ORDER BY id").data.to_arrow()
    assert got["u64"].to_pylist() == [decimal.Decimal(2**64 - 1), decimal.Decimal(7)]
    assert got["big"].to_pylist() == [True, False]
