"""Python surface of issue 16 items 1-2: TacoDataset.export, tacocore.export/convert/zip2folder/
folder2zip. Outputs are read back by the reference reader in a fresh process when available."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import pytest

import tacocore


def reference_ids(path) -> list:
    """Level-0 ids as tacoreader reads them, in a fresh process (tacoreader caches by path)."""
    pytest.importorskip("tacoreader")
    code = ("import sys, json, tacoreader; "
            "print(json.dumps([str(x) for x in tacoreader.load(sys.argv[1]).data['id']]))")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_dataset_export_of_a_sql_view(fixture_paths, tmp_path):
    ds = tacocore.load(str(fixture_paths["reader-zip-flat"]))
    view = ds.sql("SELECT * FROM data WHERE cloud_cover >= 50")
    expected = [str(x) for x in view.data["id"]]
    result = view.export(tmp_path / "hi.tacozip")
    assert result["format"] == "zip" and result["level_rows"] == [len(expected)]
    assert reference_ids(tmp_path / "hi.tacozip") == expected
    again = tacocore.load(str(tmp_path / "hi.tacozip"))
    assert again.collection["taco:subset_of"] == ds.id
    assert again.pit_schema.root["n"] == len(expected)


def test_export_of_a_concat(fixture_paths, tmp_path):
    a = tacocore.load(str(fixture_paths["toolbox-zip-nested_a"]))
    b = tacocore.load(str(fixture_paths["toolbox-zip-nested_b"]))
    both = tacocore.concat([a, b])
    tacocore.export(both, tmp_path / "both", format="folder")
    assert reference_ids(tmp_path / "both") == ["sample_000", "sample_001", "sample_002",
                                                "sample_003"]
    back = tacocore.load(str(tmp_path / "both"))
    assert back.pit_schema.root["n"] == 4
    # Every child came along, byte for byte.
    for src in (a, b):
        for i, ident in enumerate(src.data["id"]):
            children, mine = src.read(i), back.read(str(ident))
            assert [str(v) for v in mine["id"]] == [str(v) for v in children["id"]]
            for j in range(len(children)):
                assert _bytes(mine.read(j)) == _bytes(children.read(j))


def test_export_of_concat_with_duplicate_ids_is_refused(fixture_paths, tmp_path):
    a = tacocore.load(str(fixture_paths["toolbox-zip-nested_a"]))
    with pytest.raises(tacocore.TacoSchemaError, match="sample_000"):
        tacocore.concat([a, a]).export(tmp_path / "dup.tacozip")
    assert list(tmp_path.iterdir()) == []


def test_export_errors(fixture_paths, tmp_path):
    ds = tacocore.load(str(fixture_paths["reader-zip-flat"]))
    with pytest.raises(tacocore.TacoQueryError, match="keeps no sample"):
        ds.sql("SELECT * FROM data WHERE false").export(tmp_path / "none.tacozip")
    (tmp_path / "taken").mkdir()
    with pytest.raises(tacocore.TacoIOError, match="taken"):
        ds.export(tmp_path / "taken")
    with pytest.raises(tacocore.TacoQueryError, match="format"):
        ds.export(tmp_path / "x", format="tar")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_zip2folder_folder2zip_round_trip(fixture_paths, tmp_path):
    src = fixture_paths["reader-zip-nested"]
    tacocore.zip2folder(src, tmp_path / "f")
    tacocore.folder2zip(tmp_path / "f", tmp_path / "z.tacozip")
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(tmp_path / "z.tacozip") as b:
        assert a.namelist() == b.namelist()
        assert a.read("COLLECTION.json") == b.read("COLLECTION.json")
    x, y = tacocore.load(str(src)), tacocore.load(str(tmp_path / "z.tacozip"))
    for i in range(len(x.data)):
        cx, cy = x.read(i), y.read(i)
        assert [str(v) for v in cx["id"]] == [str(v) for v in cy["id"]]
        for j in range(len(cx)):
            assert _bytes(cx.read(j)) == _bytes(cy.read(j))


def _bytes(vsi: str) -> bytes:
    vsi = str(vsi)
    if vsi.startswith("/vsisubfile/"):
        head, path = vsi[len("/vsisubfile/"):].split(",", 1)
        offset, size = (int(v) for v in head.split("_"))
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(size)
    with open(vsi, "rb") as f:
        return f.read()


def test_convert_benchmark_runs_at_toy_size(tmp_path):
    import pathlib
    repo = pathlib.Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, str(repo / "bench" / "bench_convert.py"), "--tiny",
                           "--runs", "1", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    doc = json.loads(proc.stdout.strip().splitlines()[-1])
    assert doc["export_small"]["samples"] == 10 and doc["export_big"]["samples"] == 1
    assert doc["export_small"]["bytes"] == 10 * 4096
    assert doc["zip_folder"]["zip2folder"] > 0 and doc["zip_folder"]["folder2zip_vs_cp"] > 0
    assert doc["nested"]["export"] > 0 and len(doc["nested"]["export_runs"]) == 1


def test_generate_markdown_and_html(fixture_paths, tmp_path):
    ds = tacocore.load(str(fixture_paths["reader-zip-nested"]))
    md = tacocore.generate_markdown(ds, output=None)
    assert md.startswith("# test_dataset") and "### level1" in md
    path = tacocore.generate_html(fixture_paths["reader-zip-nested"], tmp_path / "index.html",
                                  dataset_example_path="nested.tacozip")
    text = open(path, encoding="utf-8").read()
    assert text.startswith("<!DOCTYPE html>") and 'tacocore.load(&quot;nested.tacozip&quot;)' in text
    assert tacocore.generate_markdown(ds, tmp_path / "README.md") == str(tmp_path / "README.md")
