"""Python surface of the catalog exports (issue 16): tacocore.export_stac (read back with pystac,
asset hrefs opened by GDAL), export_croissant (records loaded by mlcroissant equal data()) and
export_datacite (valid DataCite 4.5); warnings for what a dataset lacks; no silent overwrite."""

from __future__ import annotations

import json
import logging
import warnings

import pytest

import tacocore

pystac = pytest.importorskip("pystac")
mlc = pytest.importorskip("mlcroissant")
schema45 = pytest.importorskip("datacite.schema45")
logging.getLogger("absl").setLevel(logging.ERROR)


def test_export_stac_of_a_view_reads_back_with_pystac(fixture_paths, tmp_path):
    ds = tacocore.load(fixture_paths["reader-zip-nested"])
    view = ds.sql("SELECT * FROM data WHERE id <> 'americas'")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # geometry and time present: no warning
        result = tacocore.export_stac(view, tmp_path / "stac")
    assert result["items"] == 2 and result["warnings"] == []
    collection = pystac.Collection.from_file(result["path"])
    items = {i.id: i for i in collection.get_items()}
    assert set(items) == {str(x) for x in view.data["id"]}
    for item in items.values():
        assert item.geometry["type"] == "Polygon" and item.datetime is not None
        asset = item.assets["children"]  # FOLDER samples point at their __meta__ table
        assert asset.media_type == "application/vnd.apache.parquet"
        from osgeo import gdal
        assert gdal.VSIStatL(asset.href).size > 0
    # where= as the CLI's --where
    again = tacocore.export_stac(fixture_paths["reader-zip-flat"], tmp_path / "flat",
                                 where="cloud_cover < 50")
    assert again["items"] == 4


def test_export_stac_without_geometry_warns_and_never_overwrites(fixture_paths, tmp_path):
    with pytest.warns(UserWarning, match="no stac:geometry or istac:geometry"):
        result = tacocore.export_stac(fixture_paths["toolbox-zip-simple"], tmp_path / "s")
    item = json.loads((tmp_path / "s" / "items" / "rgb_256x256.json").read_text())
    assert item["geometry"] is None and "bbox" not in item
    with pytest.raises(tacocore.TacoIOError, match="already exists"):
        tacocore.export_stac(fixture_paths["toolbox-zip-simple"], tmp_path / "s")
    with pytest.warns(UserWarning):
        tacocore.export_stac(fixture_paths["toolbox-zip-simple"], tmp_path / "s", overwrite=True)
    assert result["items"] == 4


def test_export_croissant_records_equal_data(fixture_paths, tmp_path):
    ds = tacocore.load(fixture_paths["reader-folder-flat"])
    result = tacocore.export_croissant(ds, tmp_path / "croissant.json")
    assert result["items"] == 1 and result["warnings"] == []
    records = list(mlc.Dataset(result["path"]).records("level0"))
    frame = ds.data.to_pandas() if hasattr(ds.data, "to_pandas") else ds.data
    assert len(records) == len(frame)
    for rec, (_, row) in zip(records, frame.iterrows()):
        assert rec["level0/id"].decode() == row["id"]
        assert rec["level0/cloud_cover"] == pytest.approx(row["cloud_cover"])
        assert rec["level0/location"].decode() == row["location"]
        assert list(rec["level0/stac:tensor_shape"]) == list(row["stac:tensor_shape"])
        assert rec["level0/istac:geometry"] == bytes(row["istac:geometry"])
    with pytest.raises(tacocore.TacoIOError, match="already exists"):
        tacocore.export_croissant(ds, tmp_path / "croissant.json")


def test_export_croissant_checksum_choice(fixture_paths, tmp_path):
    with pytest.warns(UserWarning, match="no sha256"):
        result = tacocore.export_croissant(fixture_paths["reader-zip-flat"], tmp_path / "c.json",
                                           checksum="no")
    doc = json.loads(open(result["path"]).read())
    assert "sha256" not in doc["distribution"][0]
    # A bad argument is a ValueError, as everywhere in the package, and writes nothing.
    with pytest.raises(ValueError, match="'auto', 'yes' or 'no', not 'maybe'"):
        tacocore.export_croissant(fixture_paths["reader-zip-flat"], tmp_path / "d.json",
                                  checksum="maybe")
    assert not (tmp_path / "d.json").exists()


def test_export_datacite_is_valid(fixture_paths, tmp_path):
    result = tacocore.export_datacite(fixture_paths["reader-zip-flat"], tmp_path / "d.json",
                                      year=2024, publisher="Image Processing Lab")
    doc = json.loads(open(result["path"]).read())
    assert [e.message for e in schema45.validator.iter_errors(doc)] == []
    assert doc["publicationYear"] == "2024"
    assert doc["publisher"] == {"name": "Image Processing Lab"}
    with pytest.warns(UserWarning, match="dates left out"):
        tacocore.export_datacite(fixture_paths["toolbox-zip-simple"], tmp_path / "s.json")


@pytest.mark.parametrize("year, error", [(-1, ValueError), (0, ValueError), (12345, ValueError),
                                         (True, TypeError), ("2020", TypeError)])
def test_export_datacite_refuses_a_bad_year_as_an_argument_error(fixture_paths, tmp_path, year,
                                                                 error):
    with pytest.raises(error, match="year"):
        tacocore.export_datacite(fixture_paths["reader-zip-flat"], tmp_path / "d.json", year=year)
    assert not (tmp_path / "d.json").exists()



def test_export_datacite_takes_any_integer_year(fixture_paths, tmp_path):
    import numpy as np

    tacocore.export_datacite(fixture_paths["reader-zip-flat"], tmp_path / "d.json",
                             year=np.int64(2024))
    assert json.loads((tmp_path / "d.json").read_text())["publicationYear"] == "2024"
