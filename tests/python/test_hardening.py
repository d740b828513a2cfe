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
