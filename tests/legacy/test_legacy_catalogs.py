"""Catalog exports and the dataset card of a legacy v1 file say what it is. Before, Croissant
described a `.taco` as a TACO ZIP whose METADATA/level0.parquet a reader would open (there is
none: v1 tables are Parquet bytes inside the file, which no Croissant FileObject can address),
DataCite gave its format as application/zip, and the card's container said "zip"."""

from __future__ import annotations

import json

import pytest

import tacocore  # make test installs it (scripts/install_python.sh)


def test_croissant_of_a_v1_file_is_refused_with_the_way_out(v1, taco, tmp_path):
    path = v1.path("nested.taco")
    out = tmp_path / "croissant.json"
    proc = taco("export-croissant", path, out)
    assert proc.returncode == 2, proc.stderr
    message = proc.stderr.decode()
    assert "legacy v1 file cannot be described in Croissant" in message
    assert "taco migrate nested.taco OUT.tacozip" in message
    assert not out.exists()
    with pytest.raises(tacocore.TacoQueryError, match="migrate it first"):
        tacocore.export_croissant(str(path), out)
    assert not out.exists()
    # The way out works: the migrated dataset exports.
    migrated = tmp_path / "nested.tacozip"
    assert taco("migrate", path, migrated).returncode == 0
    assert taco("export-croissant", migrated, out).returncode == 0
    assert json.loads(out.read_text())["distribution"][0]["encodingFormat"] == "application/zip"


def test_datacite_and_card_name_the_v1_container(v1, taco, tmp_path):
    path = v1.path("flat.tortilla")
    out = tmp_path / "datacite.json"
    assert taco("export-datacite", path, out).returncode == 0, out
    assert json.loads(out.read_text())["formats"] == [
        "TACO v1 file (.taco / .tortilla: samples and a Parquet FOOTER in one file)"]
    card = taco("docs", path)
    assert card.returncode == 0, card.stderr
    assert b"| container | legacy v1 file (read-only; migrate to TACO 2.0) |" in card.stdout
