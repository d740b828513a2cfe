"""`taco export-stac` (issue 16 item 6, STAC half): the catalog is read back with pystac and its
asset hrefs give the samples' bytes."""

from __future__ import annotations

import subprocess

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
FLAT_FOLDER = FIXTURES / "tacoreader/folder/flat"
SIMPLE_ZIP = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"
pystac = pytest.importorskip("pystac")


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def vsi_bytes(href: str) -> bytes:
    head, path = href[len("/vsisubfile/"):].split(",", 1)
    offset, size = (int(x) for x in head.split("_"))
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(size)


def test_stac_collection_and_items_read_back_with_pystac(tmp_path):
    out = tmp_path / "stac"
    proc = taco("export-stac", FLAT_ZIP, out, "--where", "cloud_cover < 50")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # geometry and time present: no warning
    collection = pystac.Collection.from_file(str(out / "collection.json"))
    assert collection.id == "test_dataset" and collection.license == "CC-BY-4.0"
    items = list(collection.get_items())
    assert len(items) == 4
    for item in items:
        assert item.geometry["type"] == "Polygon" and len(item.bbox) == 4
        assert item.datetime is not None
        href = item.assets["data"].href
        assert vsi_bytes(href) == (FLAT_FOLDER / "DATA" / item.id).read_bytes()
    assert collection.extent.temporal.intervals[0][0] is not None


def test_stac_without_geometry_or_time_warns(tmp_path):
    out = tmp_path / "stac"
    proc = taco("export-stac", SIMPLE_ZIP, out)
    assert proc.returncode == 0, proc.stderr
    assert "no stac:geometry or istac:geometry column" in proc.stderr
    assert "no stac:time_start or istac:time_start column" in proc.stderr
    collection = pystac.Collection.from_file(str(out / "collection.json"))
    assert len(list(collection.get_links("item"))) == 4
    import json
    item = json.loads((out / "items" / "rgb_256x256.json").read_text())
    assert item["geometry"] is None and item["properties"]["datetime"] is None


def test_stac_refuses_existing_output_and_empty_views(tmp_path):
    (tmp_path / "taken").mkdir()
    proc = taco("export-stac", FLAT_ZIP, tmp_path / "taken")
    assert proc.returncode == 2 and "exists" in proc.stderr
    proc = taco("export-stac", FLAT_ZIP, tmp_path / "none", "--where", "false")
    assert proc.returncode == 2 and "keeps no sample" in proc.stderr  # a query to change
    assert not (tmp_path / "none").exists()
