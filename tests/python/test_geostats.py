"""geotiff:stats computed by the core (issue 14): GeotiffStats / add_geotiff_stats against numpy
on the same pixels (read back with GDAL), against tacotoolbox's GeotiffStats on the same files,
written datasets read back by stats_* and by tacoreader, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS

gdal = pytest.importorskip("osgeo.gdal")
gdal.UseExceptions()

GDT = {np.uint8: gdal.GDT_Byte, np.int16: gdal.GDT_Int16, np.uint16: gdal.GDT_UInt16,
       np.int32: gdal.GDT_Int32, np.float32: gdal.GDT_Float32, np.float64: gdal.GDT_Float64}


def write_tif(path, data: np.ndarray, nodata=None, options=("TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=64"),
              interleave="BAND") -> str:
    bands, h, w = data.shape
    ds = gdal.GetDriverByName("GTiff").Create(str(path), w, h, bands, GDT[data.dtype.type],
                                              [*options, f"INTERLEAVE={interleave}"])
    ds.SetGeoTransform([0, 1, 0, 0, 0, -1])
    for b in range(bands):
        band = ds.GetRasterBand(b + 1)
        if nodata is not None:
            band.SetNoDataValue(nodata)
        # Raw bytes through WriteRaster keep this helper free of osgeo.gdal_array. (gdal_array
        # itself works with the venv's numpy 2: scripts/setup_python.sh builds it against it.)
        band.WriteRaster(0, 0, w, h, np.ascontiguousarray(data[b]).tobytes())
    ds = None
    return str(path)


def numpy_stats(path: str) -> list:
    """The continuous layout computed independently: GDAL reads the pixels, numpy does the rest."""
    ds = gdal.Open(path)
    out = []
    for b in range(1, ds.RasterCount + 1):
        band = ds.GetRasterBand(b)
        dtype = {v: k for k, v in GDT.items()}[band.DataType]
        a = np.frombuffer(band.ReadRaster(), dtype=dtype).astype(np.float64)
        valid = ~np.isnan(a)
        nd = band.GetNoDataValue()
        if nd is not None and not np.isnan(nd):
            valid &= a != nd
        v = a[valid]
        out.append([v.min(), v.max(), v.mean(), v.std(), 100.0 * valid.sum() / a.size,
                    *np.percentile(v, [25, 50, 75, 95])])
    return out


def random_rasters(tmp_path) -> dict:
    rng = np.random.default_rng(7)
    floats = rng.normal(100, 25, (2, 97, 131)).astype(np.float32)
    floats[0, :10, :] = np.nan
    floats[1, 5:20, 7:30] = -9999
    ints = rng.integers(-70000, 900000, (1, 50, 61)).astype(np.int32)
    ints[0, 0, :30] = 0
    return {
        "uint8": write_tif(tmp_path / "u8.tif", rng.integers(0, 256, (3, 120, 77)).astype(np.uint8)),
        "uint16-nodata": write_tif(tmp_path / "u16.tif", rng.integers(0, 5000, (4, 130, 140)).astype(np.uint16),
                                   nodata=0),
        "int16-pixel": write_tif(tmp_path / "i16.tif", rng.integers(-300, 300, (3, 64, 64)).astype(np.int16),
                                 interleave="PIXEL"),
        "float32-nan-nodata": write_tif(tmp_path / "f32.tif", floats, nodata=-9999),
        "int32-nodata": write_tif(tmp_path / "i32.tif", ints, nodata=0),
        "float64-striped": write_tif(tmp_path / "f64.tif", rng.random((1, 33, 45)), options=()),
    }


@pytest.fixture
def rasters(tmp_path):
    return random_rasters(tmp_path)


@pytest.mark.parametrize("kind", ["uint8", "uint16-nodata", "int16-pixel", "float32-nan-nodata",
                                  "int32-nodata", "float64-striped"])
def test_continuous_stats_equal_numpy(rasters, kind):
    path = rasters[kind]
    sample = tacocore.Sample("s", path)
    sample.extend_with(tacocore.GeotiffStats())
    got = np.array(sample["geotiff:stats"], dtype=np.float64)
    want = np.array(numpy_stats(path))
    assert got.shape == want.shape and got.shape[1] == 9
    # Stored as float32, as the reference: compare at float32 precision.
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=2e-6, atol=1e-6)


def test_bytes_sample_through_vsimem(rasters):
    path = rasters["uint16-nodata"]
    from_file = tacocore.GeotiffStats().compute(tacocore.Sample("f", path))
    with open(path, "rb") as f:
        from_bytes = tacocore.GeotiffStats().compute(tacocore.Sample("b", f.read()))
    assert from_bytes == from_file


def test_categorical_probabilities_equal_numpy(tmp_path):
    rng = np.random.default_rng(3)
    labels = rng.choice([0, 1, 2, 5, 9], size=(2, 80, 90), p=[.4, .3, .2, .05, .05]).astype(np.uint8)
    path = write_tif(tmp_path / "labels.tif", labels, nodata=9)
    classes = [0, 1, 2, 5, 7]
    got = tacocore.GeotiffStats(categorical=True, class_values=classes).compute(tacocore.Sample("l", path))
    for b in range(2):
        v = labels[b][labels[b] != 9]
        counts = np.array([(v == c).sum() for c in classes], dtype=np.float64)
        np.testing.assert_allclose(got[b], counts / counts.sum(), rtol=1e-6)
    assert got[0][4] == 0.0  # class 7 never occurs


def test_scaling_fields_are_applied_like_the_reference(rasters):
    path = rasters["uint8"]
    plain = np.array(tacocore.GeotiffStats().compute(tacocore.Sample("p", path)))
    scaled = np.array(tacocore.GeotiffStats().compute(
        tacocore.Sample("s", path, **{"scaling:scale_factor": 0.5, "scaling:scale_offset": -3.0})))
    cols = [0, 1, 2, 5, 6, 7, 8]
    np.testing.assert_allclose(scaled[:, cols], plain[:, cols] * 0.5 - 3.0, rtol=1e-6)
    np.testing.assert_allclose(scaled[:, 3], plain[:, 3] * 0.5, rtol=1e-6)
    np.testing.assert_allclose(scaled[:, 4], plain[:, 4])


def test_negative_scale_factor_keeps_the_order(rasters):
    # A negative factor reverses the pixels' order: the scaled minimum is the raw maximum and
    # the scaled p95 the raw p5. Before, "min" was the largest value and p25/p75 swapped.
    path = rasters["uint8"]
    got = np.array(tacocore.GeotiffStats().compute(
        tacocore.Sample("s", path, **{"scaling:scale_factor": -2.0, "scaling:scale_offset": 1.0})))
    ds = gdal.Open(path)
    for b in range(ds.RasterCount):
        v = np.frombuffer(ds.GetRasterBand(b + 1).ReadRaster(), dtype=np.uint8) * -2.0 + 1.0
        want = [v.min(), v.max(), v.mean(), v.std(), 100.0, *np.percentile(v, [25, 50, 75, 95])]
        np.testing.assert_allclose(got[b], want, rtol=1e-5, atol=1e-4)


def test_signed_bytes_are_signed(tmp_path):
    # GDAL < 3.7 opens an int8 GeoTIFF as a Byte band tagged PIXELTYPE=SIGNEDBYTE: -50 was
    # counted as 206.
    a = np.arange(-50, 50, dtype=np.int8).reshape(10, 10)
    path = str(tmp_path / "int8.tif")
    ds = gdal.GetDriverByName("GTiff").Create(path, 10, 10, 1, gdal.GDT_Byte, ["PIXELTYPE=SIGNEDBYTE"])
    ds.SetGeoTransform([0, 1, 0, 0, 0, -1])
    ds.GetRasterBand(1).SetNoDataValue(-1)
    ds.GetRasterBand(1).WriteRaster(0, 0, 10, 10, a.tobytes())
    ds = None
    got = tacocore.GeotiffStats().compute(tacocore.Sample("s", path))[0]
    v = a.ravel().astype(np.float64)
    v = v[v != -1]  # the nodata value, -1 as a signed byte
    want = [v.min(), v.max(), v.mean(), v.std(), 99.0, *np.percentile(v, [25, 50, 75, 95])]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_against_tacotoolbox_on_the_same_files(reference, rasters, tmp_path):
    """tacotoolbox's numbers are GDAL's approximate statistics (a subsample of the pixels, even
    for small files) and 100-bucket histogram percentiles: min/max/valid% agree exactly, mean,
    std and percentiles only within the reference's sampling error - ours equal numpy's on all
    pixels (test_continuous_stats_equal_numpy)."""
    from tacotoolbox.datamodel import Sample as RefSample
    from tacotoolbox.sample.extensions.geotiff_stats import GeotiffStats as RefStats

    for kind in ("uint8", "uint16-nodata", "float32-nan-nodata"):
        # A copy per tool: tacotoolbox writes .aux.xml beside the file it reads.
        path = rasters[kind]
        ref_path = tmp_path / f"ref-{kind}.tif"
        ref_path.write_bytes(open(path, "rb").read())
        ref_sample = RefSample(id="r", path=ref_path)
        ref_sample.extend_with(RefStats())
        ref = np.array(getattr(ref_sample, "geotiff:stats"), dtype=np.float64)
        assert (tmp_path / f"ref-{kind}.tif.aux.xml").exists()  # the reference's side file
        ours = np.array(tacocore.GeotiffStats().compute(tacocore.Sample("o", path)))
        np.testing.assert_allclose(ours, np.float32(numpy_stats(path)), rtol=2e-6, atol=1e-6)
        assert ours.shape == ref.shape
        spread = ref[:, 1] - ref[:, 0]
        # A subsample's extremes lie inside the true ones; its valid% is near ours.
        assert np.all(ours[:, 0] <= ref[:, 0]) and np.all(ours[:, 1] >= ref[:, 1])
        np.testing.assert_allclose(ours[:, 4], ref[:, 4], atol=5)
        assert np.all(np.abs(ours[:, 2] - ref[:, 2]) <= 0.03 * spread)
        np.testing.assert_allclose(ours[:, 3], ref[:, 3], rtol=0.05)
        assert np.all(np.abs(ours[:, 5:] - ref[:, 5:]) <= 0.05 * spread[:, None])
        # Our own call on the tacotoolbox sample gives the same as on ours.
        np.testing.assert_allclose(np.array(tacocore.GeotiffStats().compute(RefSample(id="x", path=path))),
                                   ours)

    labels = np.random.default_rng(1).choice([1, 2, 3], size=(1, 40, 40)).astype(np.uint8)
    lpath = write_tif(tmp_path / "cat.tif", labels)
    ref_sample = RefSample(id="c", path=lpath)
    ref_sample.extend_with(RefStats(categorical=True, class_values=[1, 2, 3]))
    ours = tacocore.GeotiffStats(categorical=True, class_values=[1, 2, 3]).compute(tacocore.Sample("c", lpath))
    # Ours are numpy's shares. tacotoolbox's are not: it asks GDAL for 3 buckets spanning
    # [1, 3], whose edges fall between the integers, so a class's pixels land in a neighbour's
    # bucket (here the top class gets 0) - a reference defect the numbers below show.
    want = [(labels[0] == c).mean() for c in (1, 2, 3)]
    np.testing.assert_allclose(ours[0], want, rtol=1e-6)
    ref_cat = np.array(getattr(ref_sample, "geotiff:stats"))
    assert ref_cat.shape == (1, 3) and abs(ref_cat.sum() - 1) < 1e-5
    assert not np.allclose(ref_cat[0], want, atol=0.05)


def test_tacotoolbox_script_runs_unchanged(rasters, tmp_path):
    import tacocore as tacotoolbox
    from tacocore.sample.extensions.geotiff_stats import GeotiffStats

    sample = tacotoolbox.datamodel.Sample(id="a", path=rasters["uint8"])
    sample.extend_with(GeotiffStats(categorical=False))
    taco = tacotoolbox.datamodel.Taco(tortilla=tacotoolbox.datamodel.Tortilla(samples=[sample]),
                                      **COLLECTION_DEFAULTS)
    out = tacotoolbox.create(taco, tmp_path / "one.tacozip")[0]
    ds = tacocore.load(str(out))
    table = ds.data.to_arrow()
    import pyarrow as pa
    assert table.schema.field("geotiff:stats").type.value_type.value_type == pa.float32()
    assert len(table.column("geotiff:stats")[0].as_py()) == 3
    assert described(ds)["geotiff:stats"] == STATS_DESCRIPTION  # tacotoolbox's text


STATS_DESCRIPTION = ("Per-band statistics (List[List[Float32]]): categorical mode returns class probabilities, "
                     "continuous mode returns [min, max, mean, std, valid%, p25, p50, p75, p95]")


def described(ds) -> dict:
    """{column: description} over every level of the dataset's taco:field_schema."""
    return {name: text for level in ds.field_schema.values() for name, _, text in level}


@pytest.mark.parametrize("how", ["add_geotiff_stats(tortilla)", "add_geotiff_stats(samples)", "create(stats=True)"])
def test_every_way_of_adding_stats_describes_the_columns(rasters, tmp_path, how):
    samples = [tacocore.Sample("a", rasters["uint8"]), tacocore.Sample("b", rasters["uint16-nodata"])]
    for s in samples:
        s.extend_with(Described())
    kwargs = {}
    if how == "add_geotiff_stats(tortilla)":
        tortilla = tacocore.add_geotiff_stats(tacocore.Tortilla(samples))
    elif how == "add_geotiff_stats(samples)":
        tortilla = tacocore.Tortilla(tacocore.add_geotiff_stats(samples))
    else:
        tortilla, kwargs = tacocore.Tortilla(samples), {"stats": True}
    out = tacocore.create(tacocore.Taco(tortilla, **COLLECTION_DEFAULTS), tmp_path / "d.tacozip", **kwargs)[0]
    texts = described(tacocore.load(str(out)))
    assert texts["geotiff:stats"] == STATS_DESCRIPTION
    assert texts["geotiff:stats_valid_count"].startswith("Valid (not nodata")
    assert texts["tag"] == "kept beside the stats"  # the samples' own descriptions stay


def test_stats_added_to_samples_first_thing_in_a_process_are_described(rasters, tmp_path):
    """add_geotiff_stats(samples) as the only described extension of a fresh process."""
    import subprocess
    import sys
    script = f"""
import tacocore
samples = tacocore.add_geotiff_stats([tacocore.Sample("a", {str(rasters["uint8"])!r})])
taco = tacocore.Taco(tacocore.Tortilla(samples), id="x", dataset_version="1", description="d",
                     licenses=["CC-BY-4.0"], providers=[{{"name": "p"}}], tasks=["other"])
out = tacocore.create(taco, {str(tmp_path / "f.tacozip")!r})[0]
fs = tacocore.load(str(out)).field_schema["level0"]
print([text for name, _, text in fs if name == "geotiff:stats"][0])
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == STATS_DESCRIPTION


class Described:
    def get_field_descriptions(self) -> dict:
        return {"tag": "kept beside the stats"}

    def __call__(self, sample):
        import pyarrow as pa
        return pa.table({"tag": ["x" if sample.id == "a" else "y"]})


def test_tortilla_written_read_back_by_stats_and_tacoreader(reference, tmp_path):
    """A nested tree (level-0 FOLDERs holding an image and a mask): every FILE gets the exact
    numbers, stats_* pool them over level 1, tacoreader reads the same column back, and a band
    the masks lack is a QueryError naming a sample (band counts differ between samples)."""
    rng = np.random.default_rng(11)
    folders, images = [], []
    for i in range(4):
        a = rng.integers(1, 1000, (2, 40, 50)).astype(np.uint16)
        images.append(a)
        img = write_tif(tmp_path / f"img{i}.tif", a)
        msk = write_tif(tmp_path / f"msk{i}.tif", (a[:1] % 3).astype(np.uint8))
        folders.append(tacocore.Sample(f"f{i}", tacocore.Tortilla([
            tacocore.Sample("image", img), tacocore.Sample("mask", msk)]), index=i))
    tortilla = tacocore.add_geotiff_stats(tacocore.Tortilla(folders), threads=2)
    assert "geotiff:stats" not in dict(tortilla.schema)  # only FOLDERs at level 0
    out = str(tacocore.create(tacocore.Taco(tortilla, **COLLECTION_DEFAULTS), tmp_path / "n.tacozip")[0])
    ds = tacocore.load(out)
    for i in range(4):
        children = ds.read(i).to_arrow() if hasattr(ds.read(i), "to_arrow") else ds.read(i)
        stats = dict(zip(children.column("id").to_pylist(), children.column("geotiff:stats").to_pylist()))
        np.testing.assert_allclose(stats["image"], np.float32(numpy_stats(str(tmp_path / f"img{i}.tif"))),
                                   rtol=2e-6)
        np.testing.assert_allclose(stats["mask"], np.float32(numpy_stats(str(tmp_path / f"msk{i}.tif"))),
                                   rtol=2e-6)
    # Band 1 exists in the images only: the masks make it an error naming one of them.
    with pytest.raises(tacocore.TacoQueryError, match="band 1 is out of range: sample 'mask'"):
        ds.stats_mean(1, level=1)
    assert float(ds.stats_max(0, level=1)) == max(a[0].max() for a in images)
    # Pooled over level 1 (images and masks, all 40 x 50, equal weights), mean and std are those
    # of all their band-0 pixels together: the population std pooling is exact.
    band0 = np.concatenate([a[0].ravel() for a in images] + [(a[0] % 3).ravel() for a in images])
    np.testing.assert_allclose(ds.stats_mean(0, level=1), band0.mean(), rtol=1e-5)
    np.testing.assert_allclose(ds.stats_std(0, level=1), band0.std(), rtol=1e-5)
    import tacoreader
    ref = tacoreader.load(out)
    ref_rows = ref.read(0)
    ref_rows = ref_rows.to_arrow() if hasattr(ref_rows, "to_arrow") else ref_rows
    got = ref_rows["geotiff:stats"] if not hasattr(ref_rows, "column") else ref_rows.column("geotiff:stats")
    got = got.to_pylist() if hasattr(got, "to_pylist") else list(got)
    assert len(got) == 2 and len(got[0]) == 2 and len(got[1]) == 1


def test_unreadable_file_names_the_sample_or_is_skipped(rasters, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a raster")
    samples = [tacocore.Sample("good", rasters["uint8"]), tacocore.Sample("notes", bad)]
    with pytest.raises(tacocore.TacoIOError, match=r"sample 'notes'.*GDAL cannot open"):
        tacocore.add_geotiff_stats(samples)
    with pytest.raises(tacocore.TacoIOError, match="sample 'notes'"):
        samples[1].extend_with(tacocore.GeotiffStats())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tacocore.add_geotiff_stats(samples, skip_unreadable=True)
    assert any("notes" in str(w.message) for w in caught)
    assert samples[1]["geotiff:stats"] is None
    assert len(samples[0]["geotiff:stats"]) == 3


def test_bad_options_and_empty_rasters(tmp_path):
    with pytest.raises(tacocore.TacoSchemaError, match="class_values"):
        tacocore.GeotiffStats(categorical=True)
    with pytest.raises(tacocore.TacoSchemaError, match="twice"):
        tacocore.add_geotiff_stats([], categorical=True, class_values=[1, 1])
    all_nodata = write_tif(tmp_path / "empty.tif", np.zeros((2, 8, 8), np.uint8), nodata=0)
    assert tacocore.GeotiffStats().compute(tacocore.Sample("e", all_nodata)) is None
    half = np.zeros((2, 8, 8), np.float32)
    half[1] = 3
    got = tacocore.GeotiffStats().compute(tacocore.Sample("h", write_tif(tmp_path / "h.tif", half, nodata=0)))
    assert np.isnan(got[0][0]) and got[0][4] == 0 and got[1][:5] == [3, 3, 3, 0, 100]
    labels = write_tif(tmp_path / "l.tif", np.full((1, 4, 4), 4, np.uint8))
    with pytest.raises(tacocore.TacoSchemaError, match=r"sample 'l'.*band 1.*none equals"):
        tacocore.GeotiffStats(categorical=True, class_values=[0, 1]).compute(tacocore.Sample("l", labels))


def test_schema_only_gives_a_typed_null(rasters):
    table = tacocore.GeotiffStats(return_none=True)(tacocore.Sample("s", rasters["uint8"]))
    assert table.column("geotiff:stats").to_pylist() == [None]


@pytest.mark.parametrize("internal", [True, False])
def test_mask_band_excludes_pixels(tmp_path, internal):
    """A per-dataset mask (internal, or a .msk sidecar found by name) hides its zero pixels."""
    data = np.arange(100, dtype=np.uint16).reshape(1, 10, 10) + 1
    path = write_tif(tmp_path / "m.tif", data, options=())
    gdal.SetConfigOption("GDAL_TIFF_INTERNAL_MASK", "YES" if internal else "NO")
    try:
        ds = gdal.Open(path, gdal.GA_Update)
        ds.CreateMaskBand(gdal.GMF_PER_DATASET)
        mask = np.zeros((10, 10), np.uint8)
        mask[:5] = 255  # the first 50 pixels (values 1..50) are valid
        ds.GetRasterBand(1).GetMaskBand().WriteRaster(0, 0, 10, 10, mask.tobytes())
        ds = None
    finally:
        gdal.SetConfigOption("GDAL_TIFF_INTERNAL_MASK", None)
    assert (tmp_path / "m.tif.msk").exists() != internal
    got = tacocore.GeotiffStats().compute(tacocore.Sample("m", path))[0]
    v = np.arange(1, 51, dtype=np.float64)
    np.testing.assert_allclose(got, np.float32([v.min(), v.max(), v.mean(), v.std(), 50.0,
                                                *np.percentile(v, [25, 50, 75, 95])]), rtol=2e-6)
