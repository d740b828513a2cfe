"""`taco export-croissant` and `taco export-datacite` (issue 16, catalog export): the Croissant
document is validated and its records loaded by mlcroissant and compared with the level tables;
the DataCite document is validated against the DataCite 4.5 JSON schema the `datacite` package
ships; datasets without geometry/time, existing outputs, FOLDER and collection inputs."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
FLAT_FOLDER = FIXTURES / "tacoreader/folder/flat"
NESTED_ZIP = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
SIMPLE_ZIP = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"
mlc = pytest.importorskip("mlcroissant")
schema45 = pytest.importorskip("datacite.schema45")
pq = pytest.importorskip("pyarrow.parquet")


logging.getLogger("absl").setLevel(logging.ERROR)


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def ok(*args) -> subprocess.CompletedProcess:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc


def croissant_issues(path: Path):
    ds = mlc.Dataset(str(path))
    return ds, ds.metadata.issues


def records(ds, record_set: str) -> list[dict]:
    """mlcroissant's records with the field names only; text comes back as bytes."""
    return [{k.split("/", 1)[1]: v for k, v in r.items()} for r in ds.records(record_set)]


def same_values(got: list[dict], table) -> None:
    """Every field of every record equals the Parquet table's value (text and WKB as bytes,
    timestamps as instants, lists as lists)."""
    import pandas as pd
    assert len(got) == table.num_rows
    for name in table.column_names:
        want = table[name].to_pylist()
        have = [r[name] for r in got]
        for w, h in zip(want, have):
            if isinstance(w, str):
                w = w.encode()
            elif hasattr(w, "isoformat"):
                w, h = pd.Timestamp(w), pd.Timestamp(h)
            elif isinstance(h, float) and isinstance(w, float):
                w, h = pytest.approx(w), h
            elif isinstance(h, list) or hasattr(h, "tolist"):
                h = h.tolist() if hasattr(h, "tolist") else h
                h = [x.tolist() if hasattr(x, "tolist") else x for x in h]
                w = pytest.approx(w) if w and not isinstance(w[0], list) else w
            assert h == w, (name, h, w)


def level_table(zip_path: Path, level: int):
    import io
    import zipfile
    with zipfile.ZipFile(zip_path) as z:
        return pq.read_table(io.BytesIO(z.read(f"METADATA/level{level}.parquet")))


def test_croissant_of_a_zip_validates_and_its_records_are_the_level_tables(tmp_path):
    out = tmp_path / "meta" / "croissant.json"
    proc = ok("export-croissant", NESTED_ZIP, out)
    # Extent with time, checksum computed: nothing left out. The one warning is load's, naming
    # the file's misaligned level-1 offsets (read corrected, READER.md §5.1).
    assert [line.split(": ")[:4] for line in proc.stderr.splitlines()] == [
        ["taco", "warning", "load", str(NESTED_ZIP.resolve())]]
    assert "METADATA/level1.parquet: 9 rows carry" in proc.stderr
    doc = json.loads(out.read_text())
    assert doc["conformsTo"] == "http://mlcommons.org/croissant/1.0"
    archive = doc["distribution"][0]
    assert archive["encodingFormat"] == "application/zip"
    assert archive["sha256"] == hashlib.sha256(NESTED_ZIP.read_bytes()).hexdigest()
    assert (out.parent / archive["contentUrl"]).resolve() == NESTED_ZIP.resolve()
    assert [r["@id"] for r in doc["recordSet"]] == ["level0", "level1"]
    ds, issues = croissant_issues(out)
    assert not issues.errors, issues.report()
    for level in (0, 1):
        table = level_table(NESTED_ZIP, level)
        got = records(ds, f"level{level}")
        # Every stored column is a field, and every value comes back.
        assert set(got[0]) == set(table.column_names)
        same_values(got, table)
    fields = {f["name"]: f for f in doc["recordSet"][1]["field"]}
    assert fields["cloud_cover"]["dataType"] == "sc:Float"
    assert fields["stac:tensor_shape"]["dataType"] == "sc:Integer"
    assert fields["stac:tensor_shape"]["repeated"] is True
    assert fields["istac:time_start"]["dataType"] == "sc:DateTime"
    assert fields["internal:current_id"]["dataType"] == "sc:Integer"
    # Descriptions come from taco:field_schema.
    assert fields["internal:parent_id"]["description"].startswith("Foreign key")
    assert doc["temporalCoverage"].count("/") == 1 and "spatialCoverage" in doc
    assert doc["license"] == "https://spdx.org/licenses/CC-BY-4.0.html"


def test_croissant_of_a_folder_lists_its_level_files_with_checksums(tmp_path):
    out = tmp_path / "c.json"
    ok("export-croissant", FLAT_FOLDER, out)
    doc = json.loads(out.read_text())
    (level0,) = [d for d in doc["distribution"] if d["@id"].endswith("level0.parquet")]
    path = FLAT_FOLDER / "METADATA/level0.parquet"
    assert level0["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    ds, issues = croissant_issues(out)
    assert not issues.errors, issues.report()
    same_values(records(ds, "level0"), pq.read_table(path))


def test_croissant_without_geometry_or_time_warns_and_leaves_coverage_out(tmp_path):
    out = tmp_path / "c.json"
    proc = ok("export-croissant", SIMPLE_ZIP, out)
    assert "no geometry column" in proc.stderr and "temporalCoverage left out" in proc.stderr
    doc = json.loads(out.read_text())
    assert "spatialCoverage" not in doc and "temporalCoverage" not in doc
    ds, issues = croissant_issues(out)
    assert not issues.errors, issues.report()
    assert len(records(ds, "level0")) == 4


def test_croissant_without_checksum_warns_and_base_url_sets_content_urls(tmp_path):
    out = tmp_path / "c.json"
    proc = ok("export-croissant", FLAT_ZIP, out, "--checksum", "no",
              "--base-url", "https://example.org/data/")
    assert "no sha256 of the distributed files" in proc.stderr
    doc = json.loads(out.read_text())
    assert doc["url"] == "https://example.org/data/"
    assert doc["distribution"][0]["contentUrl"] == "https://example.org/data/flat.tacozip"
    assert "sha256" not in doc["distribution"][0]


def test_croissant_of_a_collection_uses_one_file_set_per_level(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    for i in range(10):
        (files / f"f{i}.bin").write_bytes(os.urandom(1000 + i))
    ok("create", "--from", files, tmp_path / "parts" / "c.tacozip", "--split-size", "3000", "-q")
    out = tmp_path / "c.json"
    ok("export-croissant", tmp_path / "parts", out)
    doc = json.loads(out.read_text())
    zips = [d for d in doc["distribution"] if d["@type"] == "cr:FileObject"]
    assert len(zips) >= 2 and all("sha256" in z for z in zips)
    (fileset,) = [d for d in doc["distribution"] if d["@type"] == "cr:FileSet"]
    assert fileset["includes"] == "METADATA/level0.parquet"
    assert {c["@id"] for c in fileset["containedIn"]} == {z["@id"] for z in zips}
    _, issues = croissant_issues(out)
    assert not issues.errors, issues.report()


def with_publications(tmp_path: Path, publications) -> Path:
    """A copy of the flat FOLDER fixture whose COLLECTION.json carries `publications`
    (Publications extension)."""
    import shutil
    folder = tmp_path / "cited"
    shutil.copytree(FLAT_FOLDER, folder)
    collection = json.loads((folder / "COLLECTION.json").read_text())
    collection["publications"] = publications
    (folder / "COLLECTION.json").write_text(json.dumps(collection))
    return folder


@pytest.mark.parametrize("publications, cite", [
    # citation text plus the DOI as a URL; the first publication with either is the one
    ([{"doi": "10.5281/zenodo.42", "citation": "Doe J. (2024) Flat. Data Journal."},
      {"doi": "10.1/other", "citation": "Other 2025"}],
     "Doe J. (2024) Flat. Data Journal. https://doi.org/10.5281/zenodo.42"),
    # a citation that already carries its DOI is kept as written
    ([{"doi": "10.1/x", "citation": "Doe 2024, doi:10.1/x", "summary": "s"}], "Doe 2024, doi:10.1/x"),
    ([{"doi": "10.1/x"}], "https://doi.org/10.1/x"),
    ([{"citation": "@article{doe2024, title={Flat}}"}], "@article{doe2024, title={Flat}}"),
])
def test_croissant_cites_the_collections_publication(tmp_path, publications, cite):
    out = tmp_path / "c.json"
    ok("export-croissant", with_publications(tmp_path, publications), out)
    doc = json.loads(out.read_text())
    assert doc["citeAs"] == cite
    ds, issues = croissant_issues(out)
    assert not issues.errors, issues.report()
    assert ds.metadata.cite_as == cite


def test_croissant_without_publications_has_no_cite_as(tmp_path):
    out = tmp_path / "c.json"
    ok("export-croissant", with_publications(tmp_path, []), out)
    assert "citeAs" not in json.loads(out.read_text())
    ok("export-croissant", FLAT_ZIP, tmp_path / "d.json")
    assert "citeAs" not in json.loads((tmp_path / "d.json").read_text())


def test_croissant_refuses_an_existing_output(tmp_path):
    out = tmp_path / "c.json"
    out.write_text("keep me")
    proc = taco("export-croissant", FLAT_ZIP, out)
    assert proc.returncode == 2 and "already exists" in proc.stderr
    assert out.read_text() == "keep me"
    ok("export-croissant", FLAT_ZIP, out, "--overwrite")
    assert json.loads(out.read_text())["name"] == "test_dataset"
    proc = taco("export-croissant", tmp_path / "missing.tacozip", tmp_path / "d.json")
    assert proc.returncode != 0 and "missing.tacozip" in proc.stderr
    assert not (tmp_path / "d.json").exists()


def datacite_errors(doc: dict) -> list[str]:
    return [e.message for e in schema45.validator.iter_errors(doc)]


def test_datacite_of_a_dataset_with_extent_is_valid_4_5(tmp_path):
    out = tmp_path / "datacite.json"
    proc = ok("export-datacite", FLAT_ZIP, out, "--year", "2025", "--doi", "10.5281/zenodo.1")
    assert proc.stderr == ""
    doc = json.loads(out.read_text())
    assert datacite_errors(doc) == []
    assert schema45.validate(doc)
    assert doc["doi"] == "10.5281/zenodo.1" and doc["publicationYear"] == "2025"
    assert doc["creators"] == [{"name": "Test", "nameType": "Organizational"}]
    assert doc["publisher"] == {"name": "Test"}
    assert doc["titles"][0]["title"] == "test_dataset"
    assert doc["descriptions"] == [{"description": "Test fixture with STAC metadata",
                                    "descriptionType": "Abstract"}]
    assert doc["rightsList"][0]["rightsIdentifier"] == "CC-BY-4.0"
    assert doc["dates"] == [{"date": "2023-01-01T00:00:00Z/2023-05-01T00:00:00Z",
                             "dateType": "Collected"}]
    assert doc["version"] == "1.0.0"
    box = doc["geoLocations"][0]["geoLocationBox"]
    assert (box["westBoundLongitude"], box["northBoundLatitude"]) == (-77.0, 48.85)
    assert {"subject": "classification", "subjectScheme": "TACO task"} in doc["subjects"]
    # The XML form the datacite package makes from it is DataCite 4.5 XML.
    assert "<resourceType resourceTypeGeneral=\"Dataset\">" in schema45.tostring(doc)


def test_datacite_without_time_warns_and_stays_valid(tmp_path):
    out = tmp_path / "d.json"
    proc = ok("export-datacite", SIMPLE_ZIP, out, "--publisher", "ESA")
    assert "dates left out" in proc.stderr and "geoLocations left out" in proc.stderr
    doc = json.loads(out.read_text())
    assert "dates" not in doc and "geoLocations" not in doc
    assert doc["publisher"] == {"name": "ESA"}
    assert datacite_errors(doc) == []


def test_datacite_refuses_bad_options_and_existing_output(tmp_path):
    out = tmp_path / "d.json"
    proc = taco("export-datacite", FLAT_ZIP, out, "--doi", "zenodo.1")
    assert proc.returncode != 0 and "10." in proc.stderr and not out.exists()
    proc = taco("export-datacite", FLAT_ZIP, out, "--year", "99")
    assert proc.returncode != 0 and "four digits" in proc.stderr and not out.exists()
    out.write_text("x")
    proc = taco("export-datacite", FLAT_ZIP, out)
    assert proc.returncode == 2 and out.read_text() == "x"


def test_documents_count_samples_not_padding(tmp_path):
    # --pad-to adds a `__TACOPAD__` row to level 0: DataCite said "4 samples" and Croissant
    # "Level 0: 4 FOLDER samples" where `taco info` and `taco docs` say 3.
    for s in "xyz":
        (tmp_path / "src" / s).mkdir(parents=True)
        (tmp_path / "src" / s / "a").write_text(s)
    ds = tmp_path / "d.tacozip"
    ok("create", "--from", tmp_path / "src", ds, "--pad-to", "4", "--id", "d", "--provider", "P", "-q")
    taco("export-datacite", ds, tmp_path / "dc.json", "-q")
    taco("export-croissant", ds, tmp_path / "cr.json", "-q")
    assert json.loads((tmp_path / "dc.json").read_text())["sizes"] == ["3 samples"]
    assert "Level 0: 3 FOLDER samples" in (tmp_path / "cr.json").read_text()
