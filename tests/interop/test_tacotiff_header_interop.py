"""TACOTIFFHeader (tacotoolbox.sample.extensions.tacotiff.Header) on tacocore: the same
`taco:header` bytes as tacotoolbox computes with the tacotiff package, for tiled GeoTIFFs of
every layout GDAL writes (byte orders, BigTIFF, band-interleaved, predictors, COG), the same
column description, and clear errors where tacotiff refuses.

tacotoolbox's side (tacotoolbox, tacotiff and tifffile, which make setup installs) runs in a
subprocess, whose failure the test reports with its stderr: importing tacotiff points
GDAL_DRIVER_PATH at a driver built for another GDAL, which breaks GDAL's registration in that
process and its children."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tacocore
from tacocore.datamodel.sample import TACOTIFFHeader
from tacocore.sample.extensions.tacotiff import Header


LAYOUTS = {
    "u16_zstd_pred2": ("UInt16", 3, ["TILED=YES", "COMPRESS=ZSTD", "PREDICTOR=2", "BLOCKXSIZE=64", "BLOCKYSIZE=64"]),
    "f32_deflate_pred3_bigtiff": ("Float32", 2, ["TILED=YES", "COMPRESS=DEFLATE", "PREDICTOR=3", "BIGTIFF=YES",
                                                 "BLOCKXSIZE=32", "BLOCKYSIZE=32"]),
    "u8_lzw_band_interleaved_big_endian": ("Byte", 4, ["TILED=YES", "COMPRESS=LZW", "PREDICTOR=1", "INTERLEAVE=BAND",
                                                       "ENDIANNESS=BIG", "BLOCKXSIZE=16", "BLOCKYSIZE=16"]),
    "i16_zstd": ("Int16", 1, ["TILED=YES", "COMPRESS=ZSTD", "BLOCKXSIZE=32", "BLOCKYSIZE=32"]),
    "f64_deflate_bigtiff_big_endian": ("Float64", 1, ["TILED=YES", "BIGTIFF=YES", "ENDIANNESS=BIG", "COMPRESS=DEFLATE",
                                                      "PREDICTOR=1", "BLOCKXSIZE=16", "BLOCKYSIZE=16"]),
}

REFERENCE = r"""
import json, sys
from tacotoolbox.datamodel import Sample
from tacotoolbox.datamodel.sample import TACOTIFFHeader
out = {}
for path in sys.argv[1:]:
    try:
        s = Sample(id="s", path=path)
        s.extend_with(TACOTIFFHeader())
        out[path] = s.export_metadata().column("taco:header")[0].as_py().hex()
    except Exception as exc:
        out[path] = "error: " + type(exc).__name__
print(json.dumps({"headers": out, "descriptions": TACOTIFFHeader().get_field_descriptions()}))
"""


def write_tiff(path: Path, dtype: str, bands: int, options: list) -> Path:
    from osgeo import gdal

    gdal.UseExceptions()
    ds = gdal.GetDriverByName("GTiff").Create(str(path), 100, 70, bands, gdal.GetDataTypeByName(dtype), options)
    for b in range(bands):
        values = bytes((i * 7 + b) % 251 for i in range(100 * 70))
        ds.GetRasterBand(b + 1).WriteRaster(0, 0, 100, 70, values, buf_type=gdal.GDT_Byte)
    ds.SetGeoTransform((500000.0, 10, 0, 4500000.0, 0, -10))
    ds = None
    return path


@pytest.fixture(scope="module")
def tiffs(tmp_path_factory) -> dict:
    from osgeo import gdal

    root = tmp_path_factory.mktemp("tacotiff")
    out = {name: write_tiff(root / f"{name}.tif", *spec) for name, spec in LAYOUTS.items()}
    cog = root / "cog.tif"
    gdal.Translate(str(cog), str(out["u16_zstd_pred2"]), format="COG",
                   creationOptions=["COMPRESS=ZSTD", "PREDICTOR=YES", "BLOCKSIZE=128", "OVERVIEWS=NONE"])
    out["cog"] = cog
    out["striped"] = write_tiff(root / "striped.tif", "Byte", 1, ["COMPRESS=ZSTD", "PREDICTOR=2"])
    # uncompressed: GDAL writes no Predictor tag, which tacotiff requires
    out["uncompressed"] = write_tiff(root / "uncompressed.tif", "UInt16", 1, ["TILED=YES"])
    return out


@pytest.fixture(scope="module")
def reference(tiffs) -> dict:
    proc = subprocess.run([sys.executable, "-c", REFERENCE, *map(str, tiffs.values())],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_headers_equal_tacotoolbox_for_every_layout(tiffs, reference):
    compared = 0
    for name, path in tiffs.items():
        if name in ("striped", "uncompressed"):
            continue
        expected = reference["headers"][str(path)]
        assert not expected.startswith("error"), (name, expected)
        sample = tacocore.Sample(id=name, path=path).extend_with(TACOTIFFHeader())
        got = tacocore.Tortilla([sample])._metadata_table.column("taco:header")[0].as_py()
        assert got.hex() == expected, name
        assert got[:4] == b"LOVE"  # tacotiff's magic 0x45564F4C, little-endian
        compared += 1
    assert compared == 6  # the five layouts and the COG


def test_the_header_survives_create_with_its_description(tiffs, reference, tmp_path):
    samples = [tacocore.Sample(id=n, path=p).extend_with(Header()) for n, p in tiffs.items()
               if n not in ("striped", "uncompressed")]
    taco = tacocore.Taco(tortilla=tacocore.Tortilla(samples), id="tiffs", dataset_version="1.0.0",
                         description="TACOTIFF headers", licenses=["CC-BY-4.0"],
                         providers=[{"name": "tacocore tests"}], tasks=["other"])
    out = tacocore.create(taco, tmp_path / "tiffs.tacozip")
    out = out[0] if isinstance(out, list) else out
    ds = tacocore.load(out)
    rows = ds.data.to_arrow().to_pylist()
    for row in rows:
        assert row["taco:header"].hex() == reference["headers"][str(tiffs[row["id"]])]
    schema = ds.collection["taco:field_schema"]["level0"]
    described = {f[0]: f[2] for f in schema} if isinstance(schema[0], list) else \
        {f["name"]: f["description"] for f in schema}
    assert described["taco:header"] == reference["descriptions"]["taco:header"]


def test_where_tacotiff_refuses_the_error_names_the_sample(tiffs, reference, tmp_path):
    assert reference["headers"][str(tiffs["striped"])].startswith("error")
    assert reference["headers"][str(tiffs["uncompressed"])].startswith("error")
    with pytest.raises(tacocore.TacoSchemaError, match=r"sample 'striped' .*is not tiled"):
        tacocore.Sample(id="striped", path=tiffs["striped"]).extend_with(TACOTIFFHeader())
    with pytest.raises(tacocore.TacoSchemaError, match=r"sample 'plain' .*lacks the TIFF tag Predictor"):
        tacocore.Sample(id="plain", path=tiffs["uncompressed"]).extend_with(TACOTIFFHeader())
    text = tmp_path / "notes.tif"
    text.write_bytes(b"not a tiff at all")
    with pytest.raises(tacocore.TacoFormatError, match=r"sample 'notes' .*is not a TIFF file"):
        tacocore.Sample(id="notes", path=text).extend_with(TACOTIFFHeader())
    truncated = tmp_path / "cut.tif"
    truncated.write_bytes(tiffs["u16_zstd_pred2"].read_bytes()[:12])
    with pytest.raises(tacocore.TacoFormatError, match=r"sample 'cut' .*(truncated|damaged)"):
        tacocore.Sample(id="cut", path=truncated).extend_with(TACOTIFFHeader())
    with pytest.raises(tacocore.TacoSchemaError, match="needs a FILE sample with a path"):
        tacocore.Sample(id="mem", path=b"II*\x00").extend_with(TACOTIFFHeader())
    inner = tacocore.Tortilla([tacocore.Sample(id="a", path=tiffs["cog"])])
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'folder': TACOTIFFHeader needs a FILE"):
        tacocore.Sample(id="folder", path=inner).extend_with(TACOTIFFHeader())
