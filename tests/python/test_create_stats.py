"""tacocore.create(..., stats=True) (issue 14): geotiff:stats computed in C++ for every FILE
sample at write time, as `taco create --stats` does, with the same options (classes, threads,
skip-unreadable). Values against numpy on the same pixels; the Taco given is left unchanged."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS
from test_geostats import numpy_stats, write_tif

pytest.importorskip("osgeo.gdal")
REPO_ROOT = Path(__file__).resolve().parents[2]
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"


def make_taco(tmp_path, extra=()):
    rng = np.random.default_rng(5)
    arrays = [rng.integers(0, 4, (2, 30, 20 + 5 * i)).astype(np.uint8) for i in range(3)]
    paths = [write_tif(tmp_path / f"r{i}.tif", a) for i, a in enumerate(arrays)]
    samples = [tacocore.Sample(f"r{i}", p) for i, p in enumerate(paths)] + list(extra)
    return tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS), arrays, paths


def rows(path, column="geotiff:stats"):
    return tacocore.load(str(path)).data.to_arrow().column(column).to_pylist()


def test_stats_true_writes_exact_stats(tmp_path):
    taco, arrays, paths = make_taco(tmp_path)
    out = tacocore.create(taco, tmp_path / "s.tacozip", stats=True, stats_threads=2)[0]
    got = rows(out)
    for g, p in zip(got, paths):
        np.testing.assert_allclose(g, np.float32(numpy_stats(p)), rtol=2e-6)
    assert rows(out, "geotiff:stats_valid_count") == [[a[b].size for b in range(2)] for a in arrays]
    # The Taco given is not changed: written again without stats, it has no such column.
    plain = tacocore.create(taco, tmp_path / "plain.tacozip")[0]
    assert "geotiff:stats" not in tacocore.load(str(plain)).data.to_arrow().column_names


def test_stats_classes_gives_class_shares(tmp_path):
    taco, arrays, _ = make_taco(tmp_path)
    out = tacocore.create(taco, tmp_path / "c.tacozip", stats_classes=[0, 1, 2, 3])[0]
    for g, a in zip(rows(out), arrays):
        for b in range(2):
            want = np.array([(a[b] == c).sum() for c in range(4)]) / a[b].size
            np.testing.assert_allclose(g[b], want, rtol=1e-6)


def test_unreadable_file_fails_or_is_skipped(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a raster")
    taco, _, _ = make_taco(tmp_path, [tacocore.Sample("notes", str(notes))])
    with pytest.raises(tacocore.TacoIOError, match="sample 'notes'"):
        tacocore.create(taco, tmp_path / "f.tacozip", stats=True)
    assert not (tmp_path / "f.tacozip").exists()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tacocore.create(taco, tmp_path / "k.tacozip", stats=True, stats_skip_unreadable=True)[0]
    assert any("notes" in str(w.message) for w in caught)
    assert rows(out)[3] is None and len(rows(out)[0]) == 2


def test_bad_options_are_clear(tmp_path):
    taco, _, _ = make_taco(tmp_path)
    with pytest.raises(tacocore.TacoSchemaError, match="stats_threads"):
        tacocore.create(taco, tmp_path / "x.tacozip", stats=True, stats_threads=-1)
    with pytest.raises(tacocore.TacoSchemaError, match="twice"):
        tacocore.create(taco, tmp_path / "x.tacozip", stats_classes=[1, 1])
    with pytest.raises(TypeError, match="stat_threads"):
        tacocore.create(taco, tmp_path / "x.tacozip", stats=True, stat_threads=2)
    assert not (tmp_path / "x.tacozip").exists()


@pytest.mark.skipif(not TACO.is_file(), reason="the taco CLI is not built")
def test_same_values_as_the_cli(tmp_path):
    """Python create(stats=True) and `taco create --from DIR --stats` give the same values."""
    import subprocess
    src = tmp_path / "tree"
    src.mkdir()
    rng = np.random.default_rng(9)
    for i in range(3):
        write_tif(src / f"t{i}.tif", rng.integers(0, 255, (1, 16, 16)).astype(np.uint8), nodata=0)
    cli_out = tmp_path / "cli.tacozip"
    subprocess.run([str(TACO), "create", "--from", str(src), str(cli_out), "--stats", "-q", "--id", "t", "--description", "d",
                    "--license", "CC-BY-4.0", "--provider", "p", "--task", "classification"], check=True)
    samples = [tacocore.Sample(f"t{i}.tif", str(src / f"t{i}.tif")) for i in range(3)]
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    py_out = tacocore.create(taco, tmp_path / "py.tacozip", stats=True)[0]
    assert rows(py_out) == rows(cli_out)
    assert rows(py_out, "geotiff:stats_valid_count") == rows(cli_out, "geotiff:stats_valid_count")
