"""Sample data: read_bytes, read_array (GDAL decode to numpy) and read_arrays (parallel), checked
against GDAL's own Python bindings (osgeo) on the demo GeoTIFFs and the reference fixtures."""

from __future__ import annotations

import os

import numpy as np
import pytest
from osgeo import gdal

import tacocore

gdal.UseExceptions()


def gdal_pixels(path: str) -> np.ndarray:
    ds = gdal.Open(path)
    a = ds.ReadAsArray()
    return a if a.ndim == 3 else a[np.newaxis]


@pytest.mark.parametrize("fmt", ["zip", "folder"])
def test_read_array_matches_gdal_on_demo_geotiffs(fmt, demo_datasets, demo_input):
    df = tacocore.load(demo_datasets[fmt]).data
    for scene in ("valencia", "lima", "tokyo"):
        child = df.read(scene)
        for name in ("image", "mask"):
            got = child.read_array(name)
            expected = gdal_pixels(str(demo_input / scene / f"{name}.tif"))
            assert isinstance(got, np.ndarray)
            assert got.dtype == expected.dtype
            assert got.shape == expected.shape  # (bands, height, width), also for one band
            np.testing.assert_array_equal(got, expected)
            np.testing.assert_array_equal(got, gdal_pixels(child.read(name)))  # GDAL on the VSI path
            assert got.flags.c_contiguous and got.flags.writeable


def test_read_array_dtypes_on_reference_fixture(fixture_paths, fixtures_dir):
    df = tacocore.load(fixture_paths["toolbox-zip-simple"]).data
    ids = df.to_arrow()["id"].to_pylist()
    dtypes = set()
    for i, sample_id in enumerate(ids):
        got = df.read_array(sample_id)
        expected = gdal_pixels(str(fixtures_dir / "tacotoolbox" / "geotiffs" / f"{sample_id}.tif"))
        np.testing.assert_array_equal(got, expected)
        np.testing.assert_array_equal(df.read_array(i), got)
        dtypes.add(str(got.dtype))
    assert {"uint8", "float32"} <= dtypes


def test_read_array_keeps_its_memory_alive(demo_datasets):
    df = tacocore.load(demo_datasets["zip"]).data.read("lima")
    a = df.read_array("image")
    copy = a.copy()
    del df
    import gc

    gc.collect()
    np.testing.assert_array_equal(a, copy)
    view = a[1:, ::2]
    del a
    gc.collect()
    np.testing.assert_array_equal(view, copy[1:, ::2])


def test_read_arrays_matches_read_array_in_order(geotiff_zip, geotiffs):
    _, pixels = geotiffs
    df = tacocore.load(geotiff_zip).data
    keys = [5, "g03", 0, 47, "g05", 5]
    arrays = df.read_arrays(keys)
    assert isinstance(arrays, list) and len(arrays) == len(keys)
    for key, got in zip(keys, arrays):
        index = key if isinstance(key, int) else int(key[1:])
        assert got.shape == (4, 256, 256) and got.dtype == np.uint16
        np.testing.assert_array_equal(got, pixels[index])
    assert df.read_arrays([]) == []


@pytest.mark.parametrize("threads", [None, 0, 1, 2, 3, 64])
def test_read_arrays_any_thread_count(threads, geotiff_zip, geotiffs):
    _, pixels = geotiffs
    df = tacocore.load(geotiff_zip).data
    arrays = df.read_arrays(range(len(pixels)), threads=threads)
    assert [int(a.sum(dtype=np.uint64)) for a in arrays] == [int(p.sum(dtype=np.uint64)) for p in pixels]


def test_read_arrays_uses_all_cores_by_default(geotiff_zip, monkeypatch):
    from tacocore import _core

    seen = {}
    real = _core.read_arrays

    def spy(paths, threads):
        seen["threads"] = threads
        return real(paths, threads)

    monkeypatch.setattr(_core, "read_arrays", spy)
    tacocore.load(geotiff_zip).data.read_arrays([0, 1])
    assert seen["threads"] == 0  # 0 = std::thread::hardware_concurrency() in the core


def test_read_arrays_nested_children(demo_datasets, demo_input):
    child = tacocore.load(demo_datasets["folder"]).data.read("valencia")
    image, mask = child.read_arrays(["image", "mask"], threads=2)
    np.testing.assert_array_equal(image, gdal_pixels(str(demo_input / "valencia" / "image.tif")))
    np.testing.assert_array_equal(mask, gdal_pixels(str(demo_input / "valencia" / "mask.tif")))


def test_read_bytes_returns_the_exact_file(geotiff_zip, geotiffs):
    directory, _ = geotiffs
    df = tacocore.load(geotiff_zip).data
    for key in (0, "g07", 47):
        name = f"g{key:02d}.tif" if isinstance(key, int) else f"{key}.tif"
        data = df.read_bytes(key)
        assert isinstance(data, bytes)
        assert data == (directory / name).read_bytes()


def test_raster_errors(demo_datasets, make_taco, tmp_path):
    df = tacocore.load(demo_datasets["zip"]).data
    with pytest.raises(tacocore.TacoNavigationError, match="FOLDER"):
        df.read_array("lima")  # a FOLDER: read() into it first
    with pytest.raises(tacocore.TacoNavigationError):
        df.read_arrays(["lima"])
    with pytest.raises(tacocore.TacoNavigationError):
        df.read_array(99)
    text = tacocore.create(make_taco([tacocore.Sample("t", b"not a raster at all")]), tmp_path / "t.tacozip")[0]
    tdf = tacocore.load(text).data
    with pytest.raises(tacocore.TacoIOError, match="GDAL"):
        tdf.read_array("t")
    with pytest.raises(tacocore.TacoIOError, match="GDAL"):
        tdf.read_arrays(["t", "t"], threads=2)
    assert tdf.read_bytes("t") == b"not a raster at all"


def test_read_arrays_failure_in_the_middle(tmp_path, geotiffs):
    directory, _ = geotiffs
    samples = [tacocore.Sample(f"g{i}", directory / f"g{i:02d}.tif") for i in range(6)]
    samples.insert(3, tacocore.Sample("bad", b"garbage"))
    taco = tacocore.Taco(tacocore.Tortilla(samples), id="mixed", dataset_version="1", description="d",
                         licenses=["MIT"], providers=[{"name": "p"}], tasks=["other"])
    df = tacocore.load(tacocore.create(taco, tmp_path / "m.tacozip")[0]).data
    for threads in (1, 2):
        with pytest.raises(tacocore.TacoIOError, match="GDAL"):
            df.read_arrays(range(7), threads=threads)
    assert len(df.read_arrays([0, 1, 2, 4], threads=2)) == 4


def test_osgeo_opens_the_vsi_paths_of_read(demo_datasets):
    for path in demo_datasets.values():
        vsi = tacocore.load(path).data.read("tokyo").read("image")
        ds = gdal.Open(vsi)
        assert (ds.RasterCount, ds.RasterXSize, ds.RasterYSize) == (3, 64, 64)
        assert ds.GetProjection()


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="Linux only")
@pytest.mark.allowed_skip(reason="os.sched_getaffinity exists only on Linux")
def test_gdal_vsi_paths_survive_many_threads(geotiff_zip):
    """Many threads decoding through /vsisubfile/ of one ZIP give the same pixels as one."""
    df = tacocore.load(geotiff_zip).data
    keys = list(range(48)) * 2
    one = df.read_arrays(keys, threads=1)
    many = df.read_arrays(keys, threads=8)
    for a, b in zip(one, many):
        np.testing.assert_array_equal(a, b)


def test_decode_error_says_why(make_taco, tmp_path):
    path = tacocore.create(make_taco([tacocore.Sample("t", b"plain text")]), tmp_path / "t.tacozip")[0]
    with pytest.raises(tacocore.TacoIOError) as info:
        tacocore.load(path).data.read_array("t")
    message = str(info.value)
    assert not message.rstrip().endswith(":"), message
    assert "not recognized" in message or "format" in message, message
