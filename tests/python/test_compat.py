"""Compatibility: scripts written for tacotoolbox / tacoreader run unchanged on tacocore and
print the same values as with the reference packages.

The scripts live in compat/ as plain files:
  create_and_read.py   create a nested dataset (tacotoolbox.datamodel Sample/Tortilla/Taco,
                       tacotoolbox.create), load it (tacoreader.load), read the metadata and
                       `.data`, filter with `sql`, `read` down the hierarchy by position and id,
                       open the samples with GDAL; for ZIP and FOLDER output
  read_dataset.py      load datasets and walk every level down to every FILE, hashing the bytes
                       GDAL reads through the VSI paths and decoding the rasters
Each runs twice in a fresh interpreter: with the reference packages (compat/run_reference.py)
and with tacocore mapped onto their module names (compat/shim.py). The JSON they print must be
equal. read_dataset.py also reads the datasets each side created, so each reader is checked on
both writers' files.

Known differences of API (each handled in the script text, so the same script runs on both):
  - tacoreader 2.4.21 (installed here) made `TacoDataset.sql()` eager: it returns the result
    table (pyarrow) at once, over new flat views `l0`, `l1`, ... next to `data`. tacoreader 2.4.12
    (described in shared/reference/REFERENCE-API.md), the TACO 2.0 specification and tacocore return a
    lazy TacoDataset that chains; the script takes `.data.to_arrow()` when the result has `.data`.
    (tacocore's lazy view also answers as the table, see test_dropin.py and the user guide.)
  - tacotoolbox's classes live in `tacotoolbox.datamodel`; tacocore has them at the top level
    and in `tacocore.datamodel` (the shim maps the module names).
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from conftest import FIXTURE_DATASETS

COMPAT = pathlib.Path(__file__).with_name("compat")


def run(side: str, script: str, *args) -> dict:
    runner = COMPAT / ("run_reference.py" if side == "reference" else "shim.py")
    proc = subprocess.run([sys.executable, str(runner), str(COMPAT / script), *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"{script} with {side} failed:\n{proc.stderr[-4000:]}"
    if side == "tacocore":
        assert "reference modules imported: []" in proc.stderr, proc.stderr[-2000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def created(tmp_path_factory, reference, demo_input):
    """create_and_read.py on both sides: {side: (printed JSON, output directory)}."""
    out = {}
    for side in ("reference", "tacocore"):
        directory = tmp_path_factory.mktemp(f"compat-{side}")
        out[side] = (run(side, "create_and_read.py", directory, demo_input, "zip", "folder"), directory)
    return out


def test_create_and_read_script_gives_the_same_values(created):
    ref, ours = created["reference"][0], created["tacocore"][0]
    assert set(ref) == {"zip", "folder"}
    for fmt in ("zip", "folder"):
        for section in ref[fmt]:
            assert ours[fmt][section] == ref[fmt][section], f"{fmt}: section {section!r} differs"
        assert ours[fmt] == ref[fmt]


def test_create_and_read_script_observed_real_values(created):
    """Guards against two empty documents comparing equal."""
    doc = created["tacocore"][0]["zip"]
    assert doc["written"] == ["compat.tacozip"]
    assert doc["data"]["len"] == 3
    assert doc["sql"] == ["lima", "valencia"]
    assert doc["nav"]["lima"]["image"]["shape"] == [3, 64, 64]
    assert doc["nav"]["2"]["1"]["bands"] == 1
    assert doc["errors"] == {"99": "TacoNavigationError", "nowhere": "TacoNavigationError"}
    assert created["tacocore"][0]["folder"]["written"] == ["compat"]


def test_read_script_gives_the_same_values_on_every_dataset(created, fixture_paths):
    paths = [fixture_paths[name] for name in sorted(FIXTURE_DATASETS)]
    for side in ("reference", "tacocore"):
        directory = created[side][1]
        paths += [str(directory / "compat.tacozip"), str(directory / "compat")]
    # load([a, b]) of the two writers' datasets, ZIP and FOLDER.
    ref_dir, our_dir = created["reference"][1], created["tacocore"][1]
    pairs = [(str(ref_dir / "compat.tacozip"), str(our_dir / "compat.tacozip")),
             (str(our_dir / "compat"), str(ref_dir / "compat"))]
    concat_args = [x for a, b in pairs for x in ("--concat", a, b)]
    ref = run("reference", "read_dataset.py", *paths, *concat_args)
    ours = run("tacocore", "read_dataset.py", *paths, *concat_args)
    concat_keys = [f"concat {a} + {b}" for a, b in pairs]
    assert list(ours) == list(ref) == sorted(paths + concat_keys)
    for key in concat_keys:
        assert ours[key]["len"] == 6
        assert ours[key] == ref[key], key
    for path in paths:
        for key in ref[path]:
            assert ours[path][key] == ref[path][key], f"{path}: {key!r} differs"
    # every FILE of every dataset was reached and hashed
    def files(tree):
        for node in tree:
            yield from files(node["children"]) if "children" in node else [node["file"]]

    counts = {p: len(list(files(ref[p]["tree"]))) for p in paths}
    assert counts[fixture_paths["reader-zip-nested"]] == 9
    assert counts[fixture_paths["toolbox-zip-simple"]] == 4
    assert all(n > 0 for n in counts.values())


def test_import_as_alias_works_where_the_names_match(demo_input, tmp_path):
    """`import tacocore as tacotoolbox` / `as tacoreader` with the reference's attribute spelling."""
    import tacocore as tacoreader
    import tacocore as tacotoolbox

    Sample, Tortilla, Taco = (tacotoolbox.datamodel.Sample, tacotoolbox.datamodel.Tortilla,
                              tacotoolbox.datamodel.Taco)
    samples = [Sample(id=f"s{i}", path=demo_input / "lima" / "mask.tif", cloud_cover=float(i)) for i in range(3)]
    taco = Taco(tortilla=Tortilla(samples=samples), id="alias", dataset_version="1.0.0", description="d",
                licenses=["MIT"], providers=[{"name": "p"}], tasks=["classification"])
    written = tacotoolbox.create(taco, tmp_path / "alias.tacozip")
    ds = tacoreader.load(written[0])
    assert isinstance(ds, tacoreader.TacoDataset)
    assert isinstance(ds.data, tacoreader.TacoDataFrame)
    assert ds.sql("SELECT * FROM data WHERE cloud_cover > 0").data.to_arrow()["id"].to_pylist() == ["s1", "s2"]
    assert ds.data.read("s2").startswith("/vsisubfile/")
