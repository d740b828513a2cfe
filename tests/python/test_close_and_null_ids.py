"""Issue 18 items 11 and 5 in Python.

close() is the native Dataset::close(): frames, child frames and concat() results the Python layer
never saw refuse too, with the same TacoQueryError, also while another thread is reading. A
level-0 row with a NULL id in a dataset someone else wrote is a TacoFormatError at load naming the
row; at create, an id can never be NULL.
"""

from __future__ import annotations

import threading

import pytest

import tacocore
from tacocore import _core

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from conftest import COLLECTION_DEFAULTS  # noqa: E402


def make(tmp_path, name="ds.tacozip", fmt="auto"):
    samples = [tacocore.Sample("a", b"xx", v=1.0), tacocore.Sample("b", b"yyy", v=2.0)]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    return str(tacocore.create(taco, tmp_path / name, output_format=fmt)[0])


def test_close_reaches_frames_python_never_saw(tmp_path):
    ds = tacocore.load(make(tmp_path))
    raw = ds._native.data()                # a native frame handed out without a Python owner
    detached = type(ds.data)._wrap_native(ds._native.data())  # a TacoDataFrame with no _owner
    view_native = ds._native.sql("SELECT * FROM data")
    assert raw.read_bytes(0) == b"xx"
    ds.close()
    assert ds._native.closed and view_native.closed
    for read in (lambda: raw.read_bytes(0), lambda: raw.read("a"), lambda: raw.byte_size(1),
                 lambda: detached.read_bytes(0), lambda: detached.read_array("a"),
                 lambda: view_native.data(), lambda: view_native.count(), lambda: ds._native.sql("SELECT 1")):
        with pytest.raises(tacocore.TacoQueryError, match="is closed"):
            read()


def test_closing_an_input_closes_its_concat(tmp_path):
    a = tacocore.load(make(tmp_path, "a.tacozip"))
    b = tacocore.load(make(tmp_path, "b.tacozip"))
    both = tacocore.concat([a, b])
    assert len(both.data) == 4
    b.close()
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        both.count()
    assert a.count() == 2


def test_close_while_another_thread_reads(tmp_path):
    ds = tacocore.load(make(tmp_path))
    frame = ds.data
    outcomes: list = []
    started = threading.Event()

    def reader():
        try:
            while True:
                assert frame._native.read_bytes(0) == b"xx"
                started.set()
        except BaseException as exc:  # noqa: BLE001 - recorded and checked below
            outcomes.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    assert started.wait(30)
    ds.close()
    thread.join(30)
    assert not thread.is_alive()
    assert len(outcomes) == 1 and isinstance(outcomes[0], tacocore.TacoQueryError), outcomes
    assert "is closed" in str(outcomes[0])


def test_views_a_closed_view_came_from_stay_open(tmp_path):
    ds = tacocore.load(make(tmp_path))
    view = ds.sql("SELECT * FROM data WHERE v > 1")
    view.close()
    assert not ds._native.closed
    assert ds.data.read_bytes("b") == b"yyy"


# --- item 5: NULL ids ------------------------------------------------------------------------------

def test_null_level0_id_is_a_format_error_at_load(tmp_path):
    path = make(tmp_path, "ds", fmt="folder")
    level0 = next((tmp_path / "ds" / "METADATA").glob("*.parquet"))
    table = pq.read_table(level0)
    ids = table.column("id").to_pylist()
    ids[0] = None
    pq.write_table(table.set_column(table.schema.get_field_index("id"), "id", pa.array(ids, pa.string())), level0)
    with pytest.raises(tacocore.TacoFormatError, match=r"level0\.parquet row 0 has a NULL id"):
        tacocore.load(path)
    findings = [f for f in tacocore.validate(path) if f["code"] == "row.id"]
    assert findings and "row 0" in findings[0]["location"] and "null" in findings[0]["message"]


@pytest.mark.parametrize("bad_id", [None, ""])
def test_an_id_cannot_be_null_at_create(bad_id):
    with pytest.raises((TypeError, tacocore.TacoSchemaError)) as info:
        tacocore.Sample(bad_id, b"x")
    assert "id" in str(info.value)
    assert "incompatible function arguments" not in str(info.value)
