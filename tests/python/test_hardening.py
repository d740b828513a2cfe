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
