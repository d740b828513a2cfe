"""Catalog exports of datasets served over http by nginx on loopback (issue 16): Croissant
points at the dataset's URL and leaves the checksum out (it would download the dataset);
DataCite and STAC need only the metadata."""

from __future__ import annotations

import json

import pytest

FLAT_ZIP = "ref/tacoreader/zip/flat/flat.tacozip"
NESTED_FOLDER = "ref/tacoreader/folder/nested"


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc


def test_remote_croissant_points_at_the_url(served, taco, tmp_path):
    url = served.url(FLAT_ZIP)
    proc = ok(taco("export-croissant", url, tmp_path / "c.json"))
    assert "no sha256" in proc.stderr
    doc = json.loads((tmp_path / "c.json").read_text())
    assert doc["distribution"][0]["contentUrl"] == url
    assert [f["name"] for f in doc["recordSet"][0]["field"]][:2] == ["id", "type"]
    proc = taco("export-croissant", url, tmp_path / "d.json", "--checksum", "yes")
    assert proc.returncode != 0 and "would download it" in proc.stderr
    assert not (tmp_path / "d.json").exists()


def test_remote_folder_croissant_and_datacite(served, taco, tmp_path):
    url = served.url(NESTED_FOLDER)
    ok(taco("export-croissant", url, tmp_path / "c.json"))
    doc = json.loads((tmp_path / "c.json").read_text())
    urls = [d["contentUrl"] for d in doc["distribution"]]
    assert urls == [url.rstrip("/") + "/METADATA/level0.parquet",
                    url.rstrip("/") + "/METADATA/level1.parquet"]
    ok(taco("export-datacite", url, tmp_path / "d.json"))
    assert json.loads((tmp_path / "d.json").read_text())["titles"]


def test_remote_stac(served, taco, tmp_path):
    ok(taco("export-stac", served.url(FLAT_ZIP), tmp_path / "stac"))
    item = json.loads((tmp_path / "stac" / "items" / "sample_0.json").read_text())
    assert item["assets"]["data"]["href"].startswith("/vsisubfile/")
