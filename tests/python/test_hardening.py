"""Hostile datasets through the Python package (hardening issue): a refused dataset raises a
TacoError subclass; it never crashes the interpreter."""

from __future__ import annotations

import json

import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS


@pytest.fixture
def folder_ds(tmp_path):
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"x"), tacocore.Sample("b", b"yy")]),
                         **COLLECTION_DEFAULTS)
    return tacocore.create(taco, tmp_path / "ds")[0]


def test_deeply_nested_collection_json_raises(folder_ds):
    path = folder_ds / "COLLECTION.json"
    doc = json.loads(path.read_text())
    path.write_text(json.dumps(doc)[:-1] + ', "x:deep": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(tacocore.TacoFormatError, match="nested deeper than 256"):
        tacocore.load(str(folder_ds))


def test_deep_extension_value_is_refused_by_create(tmp_path):
    deep = 0
    for _ in range(300):
        deep = [deep]
    with pytest.raises((tacocore.TacoError, RecursionError, ValueError)):
        taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"x")]), **COLLECTION_DEFAULTS,
                             **{"x:deep": deep})
        tacocore.create(taco, tmp_path / "out.tacozip")
    assert not (tmp_path / "out.tacozip").exists()


@pytest.mark.parametrize("name", ["ds.tacozip", "nested"])
def test_sandbox_keeps_navigation_and_refuses_other_files(tmp_path, name):
    inner = tacocore.Tortilla([tacocore.Sample("x", b"xx"), tacocore.Sample("y", b"yyy")])
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("f1", inner), tacocore.Sample("f2", inner)]),
                         **COLLECTION_DEFAULTS)
    out = tacocore.create(taco, tmp_path / name)[0]
    ds = tacocore.load(str(out), sandbox=True)
    children = ds.data.read(0)  # a __meta__ read through DuckDB inside the sandbox
    assert children.read_bytes(1) == b"yyy"
    with pytest.raises(tacocore.TacoQueryError):
        ds.sql("SELECT * FROM read_csv('/etc/passwd')").data
    with pytest.raises(tacocore.TacoQueryError):
        ds.sql("SELECT * FROM glob('/etc/*')").data


def test_timeout_interrupts_a_query(folder_ds):
    ds = tacocore.load(str(folder_ds), timeout=1)
    with pytest.raises(tacocore.TacoQueryError, match="did not finish within"):
        ds.sql("SELECT sum(hash(i)) AS s FROM range(1000000000000) t(i)").data
    assert ds.count() == 2  # the session is still usable


def test_explain_gives_the_plan(folder_ds):
    ds = tacocore.load(str(folder_ds)).sql("SELECT * FROM data WHERE id = 'b'")
    query = "EXPLAIN ANALYZE SELECT id FROM data"
    plan = ds.sql(query)
    table = plan.data.to_arrow() if hasattr(plan.data, "to_arrow") else plan.data
    assert table.column_names == ["explain_key", "explain_value"]
    text = table.column("explain_value")[0].as_py()
    assert "READ_PARQUET" in text and query in text
    assert "WITH data AS" not in text and "/proc/self/fd" not in text
    assert plan.count() == 1
    with pytest.raises(tacocore.TacoQueryError, match="query plan, not a table"):
        plan.sql("SELECT * FROM data")


# A child interpreter runs a query for hours; the test sends it a real SIGINT (what Ctrl-C does).
_CTRL_C_CHILD = r"""
import sys, time, tacocore
ds = tacocore.load(sys.argv[1])
runaway = ds.sql("SELECT sum(hash(i)) AS s FROM range(1000000000000) t(i)")
print("running", flush=True)
start = time.monotonic()
try:
    getattr(runaway, sys.argv[2])() if sys.argv[2] == "count" else runaway.data
except KeyboardInterrupt:
    print("interrupted after %.1f s" % (time.monotonic() - start), flush=True)
    print("count after", ds.count(), flush=True)  # the session is still usable
    sys.exit(0)
print("finished without interruption", flush=True)
sys.exit(1)
"""


@pytest.mark.parametrize("call", ["data", "count"])
def test_ctrl_c_interrupts_a_running_query(folder_ds, tmp_path, call):
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "child.py"
    script.write_text(_CTRL_C_CHILD)
    proc = subprocess.Popen([sys.executable, str(script), str(folder_ds), call],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "running", proc.stderr.read()
        time.sleep(1.0)  # well inside the native call
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, (out, err)
    assert "interrupted after" in out and "count after 2" in out, (out, err)
    assert time.monotonic() - sent < 15


def test_read_array_of_a_fifo_sample_is_refused(tmp_path):
    import os
    import subprocess
    import sys

    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"x"), tacocore.Sample("b", b"yy")]),
                         **COLLECTION_DEFAULTS)
    ds = tacocore.create(taco, tmp_path / "ds")[0]
    (ds / "DATA" / "b").unlink()
    os.mkfifo(ds / "DATA" / "b")
    # In a child with a timeout: before the fix, GDAL's open waits for a writer forever.
    code = ("import sys, tacocore\n"
            "df = tacocore.load(sys.argv[1]).data\n"
            "try:\n"
            "    df.read_array(1)\n"
            "except tacocore.TacoError as e:\n"
            "    print(type(e).__name__, e)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(ds)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "it is a FIFO, expected a regular file" in proc.stdout, (proc.stdout, proc.stderr)
    assert "DATA/b" in proc.stdout
