"""geotiff:stats_valid_count (issue 14): tacocore writes the number of valid pixels per band beside
geotiff:stats, and stats_mean/std weight by it — the spec's "weighted by valid pixels". Checked
against numpy over every valid pixel of every sample, on samples of different sizes and mostly
nodata, without stac:tensor_shape (where the older weighting by valid% alone was wrong)."""

from __future__ import annotations

import numpy as np
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS
from test_geostats import write_tif

gdal = pytest.importorskip("osgeo.gdal")


def nodata_heavy(tmp_path):
    """Three uint16 rasters, nodata 0: a big one mostly nodata with high values, a small fully
    valid one with low values, and a medium one; bands differ in where their nodata falls."""
    rng = np.random.default_rng(7)
    arrays = []
    big = rng.integers(900, 1000, (2, 120, 100)).astype(np.uint16)
    big[0, :, 10:] = 0                     # band 0: 10% valid
    big[1, 60:, :] = 0                     # band 1: 50% valid
    arrays.append(big)
    arrays.append(rng.integers(1, 50, (2, 10, 12)).astype(np.uint16))
    mid = rng.integers(300, 400, (2, 40, 40)).astype(np.uint16)
    mid[:, :20, :] = 0
    arrays.append(mid)
    paths = [write_tif(tmp_path / f"s{i}.tif", a, nodata=0) for i, a in enumerate(arrays)]
    return arrays, paths


def valid(arrays, band):
    return np.concatenate([a[band][a[band] != 0].astype(np.float64) for a in arrays])


@pytest.fixture
def written(tmp_path):
    arrays, paths = nodata_heavy(tmp_path)
    tortilla = tacocore.add_geotiff_stats(
        tacocore.Tortilla([tacocore.Sample(f"s{i}", p) for i, p in enumerate(paths)]), threads=2)
    out = tacocore.create(tacocore.Taco(tortilla, **COLLECTION_DEFAULTS), tmp_path / "v.tacozip")[0]
    return arrays, str(out)


def test_count_column_is_written_beside_the_stats(written):
    arrays, out = written
    table = tacocore.load(out).data.to_arrow()
    import pyarrow as pa
    assert table.schema.field("geotiff:stats_valid_count").type == pa.list_(pa.int64())
    counts = table.column("geotiff:stats_valid_count").to_pylist()
    assert counts == [[int((a[b] != 0).sum()) for b in range(2)] for a in arrays]


@pytest.mark.parametrize("band", [0, 1])
def test_mean_and_std_weighted_by_valid_pixels_equal_numpy(written, band):
    arrays, out = written
    ds = tacocore.load(out)
    want = valid(arrays, band)
    np.testing.assert_allclose(ds.stats_mean(band), want.mean(), rtol=1e-5)
    np.testing.assert_allclose(ds.stats_std(band), want.std(), rtol=1e-4)
    # The data makes the weighting matter: an equal-weight mean of the sample means is far off.
    unweighted = np.mean([a[band][a[band] != 0].mean() for a in arrays])
    assert abs(unweighted - want.mean()) > 50
    # The view narrows it too.
    two = ds.sql("SELECT * FROM data WHERE id IN ('s0', 's1')")
    np.testing.assert_allclose(two.stats_mean(band), valid(arrays[:2], band).mean(), rtol=1e-5)


def test_tacoreader_reads_the_file(written):
    tacoreader = pytest.importorskip("tacoreader")
    _, out = written
    ds = tacoreader.load(out)
    assert len(ds.data) == 3


def test_geotiff_stats_extension_writes_the_count(tmp_path):
    arrays, paths = nodata_heavy(tmp_path)
    sample = tacocore.Sample("s0", paths[0])
    sample.extend_with(tacocore.GeotiffStats())
    assert sample["geotiff:stats_valid_count"] == [int((arrays[0][b] != 0).sum()) for b in range(2)]
