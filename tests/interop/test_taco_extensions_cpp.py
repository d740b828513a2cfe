"""TACO-level extensions made in C++ (issue 14): the expected keys the C++ unit tests use
(tests/fixtures/expected/taco_extensions_tacotoolbox.json) still equal tacotoolbox's output;
tacocore's Python classes are thin wrappers over the C++ and give the same; `taco create --sensor
/--split-strategy/--extension` writes the same keys into COLLECTION.json, which tacoreader reads;
the band tables exist once, in the native library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from importlib import resources
from pathlib import Path

import pytest

import tacocore
from tacocore.taco.extensions.labels import LabelClass, Labels
from tacocore.taco.extensions.opticaldata import OpticalData
from tacocore.taco.extensions.scientific import Publication, Publications
from tacocore.taco.extensions.split import SplitStrategy

REPO_ROOT = Path(__file__).resolve().parents[2]
EXPECTED_DIR = REPO_ROOT / "tests" / "fixtures" / "expected"
EXPECTED = json.loads((EXPECTED_DIR / "taco_extensions_tacotoolbox.json").read_text(encoding="utf-8"))
TACO = Path(os.environ.get("TACO_BUILD_DIR", REPO_ROOT / "build")) / "bin" / "taco"


def test_expected_file_still_equals_tacotoolbox():
    pytest.importorskip("tacotoolbox")
    sys.path.insert(0, str(EXPECTED_DIR))
    try:
        import make_taco_extensions
    finally:
        sys.path.remove(str(EXPECTED_DIR))
    assert make_taco_extensions.cases() == EXPECTED


def test_python_classes_give_the_cpp_keys():
    for sensor in tacocore.taco.extensions.opticaldata.SUPPORTED_SENSORS:
        assert OpticalData(sensor=sensor).to_dict() == EXPECTED[f"OpticalData:{sensor}"]
    assert OpticalData(sensor="sentinel2msi[B02,B03,B04,B8A]").to_dict() == \
        EXPECTED["OpticalData:sentinel2msi[B02,B03,B04,B8A]"]
    labels = Labels(label_classes=[LabelClass(name="a", category=0),
                                   LabelClass(name="b", category="B", description="bee")],
                    label_description="two classes")
    assert labels.to_dict() == EXPECTED["Labels"]
    pubs = Publications(publications=[Publication(doi="10.1/x", citation="Someone 2024"),
                                      Publication(doi="10.2/y", citation="Other 2025", summary="the method")])
    assert pubs.to_dict() == EXPECTED["Publications"]
    assert SplitStrategy(strategy="stratified").to_dict() == EXPECTED["SplitStrategy"]
    # The same call the wrappers make, straight to the core.
    keys = dict(tacocore._core.taco_extension_fields("SplitStrategy", '{"strategy": "stratified"}'))
    assert {k: json.loads(v) for k, v in keys.items()} == EXPECTED["SplitStrategy"]


def test_band_tables_exist_once():
    assert not resources.files("tacocore").joinpath("data/sensor_bands.json").is_file()
    source = json.loads((REPO_ROOT / "src" / "ext" / "sensor_bands.json").read_text(encoding="utf-8"))
    assert json.loads(tacocore._core.sensor_bands_json()) == source
    assert list(source["sensors"]) == tacocore.taco.extensions.opticaldata.SUPPORTED_SENSORS


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(not TACO.is_file(), reason="the taco CLI is not built")
def test_cli_writes_the_same_keys_and_tacoreader_reads_them(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for i in range(2):
        (src / f"s{i}.bin").write_bytes(bytes([i]) * 10)
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"label_classes": [{"name": "a", "category": 0},
                                                    {"name": "b", "category": "B", "description": "bee"}],
                                  "label_description": "two classes"}))
    pubs = tmp_path / "pubs.json"
    pubs.write_text(json.dumps({"publications": [
        {"doi": "10.1/x", "citation": "Someone 2024"},
        {"doi": "10.2/y", "citation": "Other 2025", "summary": "the method"}]}))
    out = tmp_path / "ext.tacozip"
    r = run("create", "--from", src, out, "--quiet", "--sensor", "sentinel2msi[B02,B03,B04,B8A]",
            "--split-strategy", "stratified", "--extension", f"Labels={labels}",
            "--extension", f"Publications={pubs}")
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(out) as z:
        doc = json.loads(z.read("COLLECTION.json"))
    want = {}
    for name in ("Labels", "Publications", "OpticalData:sentinel2msi[B02,B03,B04,B8A]", "SplitStrategy"):
        want.update(EXPECTED[name])
    assert {k: doc[k] for k in want} == want
    # The order the options were given in: --extension files, then --sensor, then --split-strategy.
    keys = [k for k in doc if k in want]
    assert keys == list(EXPECTED["Labels"]) + list(EXPECTED["Publications"]) + \
        list(EXPECTED["OpticalData:sentinel2msi[B02,B03,B04,B8A]"]) + ["split:strategy"]
    tacoreader = pytest.importorskip("tacoreader")
    ds = tacoreader.load(str(out))
    assert {k: ds.collection[k] for k in want} == want
    assert len(ds.data) == 2


@pytest.mark.skipif(not TACO.is_file(), reason="the taco CLI is not built")
@pytest.mark.parametrize("args, message", [
    (["--sensor", "hubble"], "unsupported sensor 'hubble'"),
    (["--sensor", "sentinel2msi[B99]"], "B99"),
    (["--split-strategy", "sometimes"], "'sometimes' is not one of"),
    (["--extension", "Labels"], "expected NAME=FILE.json"),
    (["--extension", "Optical={bad}"], "unknown TACO extension 'Optical'"),
    (["--extension", "Labels={bad}"], "bad.json"),
    (["--extension", "Labels={missing}"], "missing.json"),
])
def test_cli_bad_extension_input_is_clear_and_leaves_nothing(tmp_path, args, message):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"x")
    bad = tmp_path / "bad.json"
    bad.write_text('{"label_classes": [{"name": "a"}]}')
    args = [a.format(bad=bad, missing=tmp_path / "missing.json") for a in args]
    out = tmp_path / "out.tacozip"
    r = run("create", "--from", src, out, *args)
    assert r.returncode != 0
    assert message in r.stderr, r.stderr
    assert not out.exists()
