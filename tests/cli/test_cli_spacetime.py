"""`taco filter` and `taco stats` (issue 14): rows and numbers, argument errors and exit codes.
The numbers are checked against the fixture's own geotiff:stats with numpy."""
from __future__ import annotations

import json
import subprocess

import numpy as np
import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
NESTED_FOLDER = FIXTURES / "tacoreader/folder/nested"


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def rows(*args) -> list:
    proc = taco(*args, "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def all_rows() -> list:
    return rows("sql", FLAT_ZIP, "SELECT id, \"istac:geometry\", \"geotiff:stats\", "
                "\"stac:tensor_shape\" FROM data")


def test_filter_bbox_datetime_where():
    got = [r["id"] for r in rows("filter", FLAT_ZIP, "--bbox", "-10,35,5,50")]
    assert got == ["sample_0", "sample_1"]
    got = [r["id"] for r in rows("filter", FLAT_ZIP, "--bbox", "-10,35,5,50",
                                 "--datetime", "2023-01-15/..")]
    assert got == ["sample_1"]
    got = [r["id"] for r in rows("filter", FLAT_ZIP, "--where", "cloud_cover >= 0",
                                 "--datetime", "../2023-03-02")]
    assert got == ["sample_0", "sample_1", "sample_2"]
    # cascade at level 1
    got = [r["id"] for r in rows("filter", NESTED_FOLDER, "--bbox", "-75,40,-73,41.5",
                                 "--level", "1")]
    assert got == ["americas"]
    csv_out = taco("filter", FLAT_ZIP, "--datetime", "2023-05-01", "--csv").stdout
    assert csv_out.splitlines()[1].startswith("sample_4")


@pytest.mark.parametrize("args,fragment", [
    (["--bbox", "1,2,3"], "four numbers"),
    (["--bbox", "a,2,3,4"], "not a finite number"),
    (["--bbox", "nan,2,3,4"], "not a finite number"),
    (["--bbox", "0,5,1,1"], "miny > maxy"),
    (["--bbox", "0,0,1,1", "--crs", "EPSG:0"], "not a CRS"),
    (["--bbox", "0,0,1,1", "--level", "4"], "level 4 does not exist"),
    (["--datetime", "2023-02-01/2023-01-01"], "reversed"),
    (["--datetime", "last week"], "ISO 8601"),
    (["--datetime", "2023", "--time-col", "nope"], "ISO 8601"),
    (["--datetime", "2023-01-01", "--time-col", "nope"], "column 'nope' not found"),
    ([], "at least one of"),
])
def test_filter_bad_input(args, fragment):
    proc = taco("filter", FLAT_ZIP, *args)
    assert proc.returncode == 2, proc.stdout
    assert fragment in proc.stderr
    assert proc.stdout == ""


def test_stats_numbers_follow_the_filter():
    table = all_rows()
    ids = [r["id"] for r in rows("filter", FLAT_ZIP, "--bbox", "-80,-15,5,50")]
    stats = {r["id"]: r for r in table}
    chosen = [stats[i] for i in ids]
    s = np.array([r["geotiff:stats"] for r in chosen], dtype=float)
    pixels = np.array([r["stac:tensor_shape"][-1] * r["stac:tensor_shape"][-2] for r in chosen])
    w = pixels[:, None] * s[:, :, 4] / 100
    mean = (w * s[:, :, 2]).sum(0) / w.sum(0)
    out = rows("stats", FLAT_ZIP, "--band", "0,2", "--bbox", "-80,-15,5,50")
    assert [o["band"] for o in out] == [0, 2]
    assert [o["samples"] for o in out] == [len(ids)] * 2
    np.testing.assert_allclose([o["mean"] for o in out], mean[[0, 2]], rtol=1e-9)
    np.testing.assert_allclose([o["min"] for o in out], s[:, [0, 2], 0].min(0))
    text = taco("stats", FLAT_ZIP, "--band", "1")
    assert text.returncode == 0 and text.stdout.startswith("band 1 (5 samples) min ")


@pytest.mark.parametrize("args,fragment", [
    (["--band", "7"], "band 7 is out of range"),
    (["--band", "x"], "not a band index"),
    (["--band", "0", "--level", "1"], "level 1 does not exist"),
    (["--band", "0", "--datetime", "1999-01-01"], "no row of the view"),
])
def test_stats_bad_input(args, fragment):
    proc = taco("stats", FLAT_ZIP, *args)
    assert proc.returncode == 2, proc.stdout
    assert fragment in proc.stderr


def test_stats_without_column_lists_columns():
    proc = taco("stats", NESTED_FOLDER, "--band", "0")
    assert proc.returncode == 2
    assert "no column 'geotiff:stats'" in proc.stderr and "the columns are: id, type" in proc.stderr


def test_export_takes_the_same_place_and_time_filters(tmp_path):
    """taco export --bbox/--datetime keeps exactly the rows taco filter shows, with their bytes."""
    out = tmp_path / "subset.tacozip"
    proc = taco("export", FLAT_ZIP, out, "--bbox", "-10,35,5,50", "--datetime", "2023-01-15/..",
                "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert [r["id"] for r in rows("sql", out, "SELECT id FROM data")] == ["sample_1"]
    original = subprocess.run([str(TACO), "cat", str(FLAT_ZIP), "sample_1"], capture_output=True,
                              timeout=60)
    copied = subprocess.run([str(TACO), "cat", str(out), "sample_1"], capture_output=True,
                            timeout=60)
    assert original.returncode == 0 and len(original.stdout) > 0, original.stderr
    assert copied.stdout == original.stdout
    # A box that keeps nothing writes nothing.
    empty = tmp_path / "empty.tacozip"
    proc = taco("export", FLAT_ZIP, empty, "--bbox", "100,-5,101,-4")
    assert proc.returncode != 0 and not empty.exists()
