"""Issue 18 item 8 in Python: paths that are not UTF-8 (Linux paths are bytes) load and write like
any other, given as bytes, as a str with surrogate escapes (os.fsdecode) or as a pathlib.Path;
samples are read through GDAL and as bytes; messages name such paths escaped (`\\xff`), never as a
UnicodeDecodeError. The reference reader is tried on the same datasets: its weakness is recorded.

Fails on main f1e9635 (a "not supported yet" TacoIOError for a surrogate str, nanobind's TypeError
for bytes).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS, FIXTURES

GEOTIFFS = FIXTURES / "tacotoolbox" / "geotiffs"
BAD = {"ff": b"\xff", "continuation": b"\x80", "overlong": b"\xc0\xaf"}


@pytest.fixture(params=sorted(BAD))
def bad(request) -> bytes:
    return BAD[request.param]


def escaped(raw: bytes) -> str:
    return raw.decode("utf-8", "backslashreplace")


def geotiff_taco(src: Path) -> tacocore.Taco:
    samples = [tacocore.Sample(p.name, p) for p in sorted(src.glob("*.tif"))]
    return tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)


@pytest.fixture
def written(tmp_path, bad) -> dict:
    """A ZIP written to a bytes output and a FOLDER to a surrogate-escaped str output, both under a
    parent directory that is not UTF-8, from sample files that live under such a directory too."""
    parent_raw = os.fsencode(tmp_path) + b"/parent" + bad
    os.mkdir(parent_raw)
    src = Path(os.fsdecode(parent_raw + b"/src" + bad))
    src.mkdir()
    for tif in GEOTIFFS.glob("*.tif"):
        shutil.copy(tif, src / tif.name)
    zip_raw = parent_raw + b"/z" + bad + b".tacozip"
    folder_str = os.fsdecode(parent_raw + b"/f" + bad)
    made_zip = tacocore.create(geotiff_taco(src), zip_raw)
    made_folder = tacocore.create(geotiff_taco(src), folder_str)
    assert [os.fsencode(p) for p in made_zip] == [zip_raw]
    assert [str(p) for p in made_folder] == [folder_str]
    return {"parent": parent_raw, "zip": zip_raw, "folder": os.fsencode(folder_str), "src": src}


SPELLINGS = {
    "bytes": lambda raw: raw,
    "surrogate-str": os.fsdecode,
    "pathlib": lambda raw: Path(os.fsdecode(raw)),
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_load_query_and_read_every_spelling(written, kind, spelling):
    raw = written[kind]
    ds = tacocore.load(SPELLINGS[spelling](raw))
    assert os.fsencode(ds._native.path) == raw  # given back as os.fsdecode() would
    ids = sorted(ds.data.to_arrow().column("id").to_pylist())
    assert ids == sorted(p.name for p in GEOTIFFS.glob("*.tif"))
    assert ds.data.read_bytes("rgb_256x256.tif") == (GEOTIFFS / "rgb_256x256.tif").read_bytes()
    array = ds.data.read_array("single_band_128x128.tif")  # GDAL through /proc/self/fd/N
    assert array.shape[-2:] == (128, 128)
    picked = ds.sql("SELECT id FROM data WHERE id LIKE 'cat%'")
    assert picked.data.to_arrow().column("id").to_pylist() == ["categorical_128x128.tif"]
    assert tacocore.validate(SPELLINGS[spelling](raw)) == []
    ds.close()
    boxed = tacocore.load(SPELLINGS[spelling](raw), sandbox=True)
    assert boxed.data.read_bytes("rgb_256x256.tif") == (GEOTIFFS / "rgb_256x256.tif").read_bytes()
    boxed.close()


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_export_and_convert_to_outputs_that_are_not_utf8(written, bad, kind):
    ds = tacocore.load(written[kind])
    exported = written["parent"] + b"/e" + bad + b".tacozip"
    tacocore.export(ds.sql("SELECT * FROM data WHERE id = 'rgb_256x256.tif'"), exported)
    got = tacocore.load(exported)
    assert got.data.read_bytes(0) == (GEOTIFFS / "rgb_256x256.tif").read_bytes()
    converted = os.fsdecode(written["parent"] + b"/c" + bad + (b"" if kind == "zip" else b".tacozip"))
    tacocore.convert(os.fsdecode(written[kind]), converted)
    assert tacocore.load(converted).data.read_bytes("categorical_128x128.tif") == \
        (GEOTIFFS / "categorical_128x128.tif").read_bytes()
    assert not [n for n in os.listdir(written["parent"]) if b".partial" in n]


def test_errors_name_such_paths_escaped(tmp_path, bad):
    missing = os.fsencode(tmp_path) + b"/gone" + bad + b".tacozip"
    with pytest.raises(tacocore.TacoIOError) as info:
        tacocore.load(missing)
    assert escaped(b"gone" + bad + b".tacozip") in str(info.value)
    broken = os.fsencode(tmp_path) + b"/broken" + bad
    os.makedirs(broken + b"/METADATA")
    with open(broken + b"/COLLECTION.json", "w") as f:
        f.write("{}")
    with open(broken + b"/METADATA/level0.parquet", "wb") as f:
        f.write(b"PAR1" + b"\x00" * 64 + b"PAR1")
    with pytest.raises(tacocore.TacoError) as info:
        tacocore.load(broken)
    message = str(info.value)
    message.encode("utf-8")  # no lone surrogate: the message is text, not smuggled bytes
    assert escaped(b"broken" + bad) in message and "/proc/self/fd" not in message, message


def test_from_directory_with_a_name_that_is_not_utf8_is_refused(tmp_path, bad):
    src = tmp_path / "src"
    src.mkdir()
    (src / "ok.bin").write_bytes(b"1")
    (src / os.fsdecode(b"x" + bad + b".bin")).write_bytes(b"2")
    out = tmp_path / "out.tacozip"
    with pytest.raises(tacocore.TacoSchemaError) as info:
        tacocore.create(tacocore.Taco(tacocore._core.directory_tortilla(src), **COLLECTION_DEFAULTS),
                        out)
    assert escaped(b"x" + bad + b".bin") in str(info.value) and "not UTF-8" in str(info.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


def test_sample_ids_stay_utf8_while_files_need_not(written):
    # bytes in Sample(id, ...) are the sample's contents (as in tacotoolbox): a file path that is
    # not UTF-8 is given as a surrogate-escaped str or a Path.
    raw = os.fsencode(written["src"]) + b"/rgb_256x256.tif"
    for given in (os.fsdecode(raw), Path(os.fsdecode(raw))):
        sample = tacocore.Sample("a.tif", given)
        assert os.fsencode(sample.path) == raw
        assert sample.size == (GEOTIFFS / "rgb_256x256.tif").stat().st_size
    with pytest.raises((tacocore.TacoSchemaError, ValueError)):
        tacocore.Sample(os.fsdecode(b"\xff.tif"), b"x")


# argv arrives decoded as os.fsdecode() does: a str with surrogate escapes, as a user would pass it.
REFERENCE_READER = r"""
import sys, tacoreader
print(len(tacoreader.load(sys.argv[1]).data))
"""


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_reference_reader_on_our_datasets(written, kind):
    """What tacoreader makes of a dataset we wrote under a path that is not UTF-8. It fails (its
    DuckDB queries take the path as text): a reference weakness, recorded here and in the user
    guide. The same bytes copied to a UTF-8 path load in tacoreader, so the data is fine."""
    proc = subprocess.run([sys.executable, "-c", REFERENCE_READER, written[kind]],
                          capture_output=True, text=True, errors="backslashreplace", timeout=300)
    if proc.returncode == 0:  # a later tacoreader that handles them: then it must read it right
        assert proc.stdout.split() == ["4"]
    else:  # tacoreader 2.4.21: tacozip / DuckDB are given the path as UTF-8 text
        assert "UnicodeEncodeError" in proc.stderr, proc.stderr
    plain = Path(os.fsdecode(written["parent"])).parent / ("plain" + (".tacozip" if kind == "zip" else ""))
    if kind == "zip":
        shutil.copy(os.fsdecode(written[kind]), plain)
    else:
        shutil.copytree(os.fsdecode(written[kind]), plain)
    ok = subprocess.run([sys.executable, "-c", REFERENCE_READER, str(plain)], capture_output=True,
                        text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.split() == ["4"]


def test_log_lines_show_such_paths_escaped(written):
    import logging

    records = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append
    root = logging.getLogger("tacocore")
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        tacocore.load(written["zip"]).close()
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    text = "\n".join(r.getMessage() for r in records)
    text.encode("utf-8")  # a handler writing UTF-8 can print it
    assert escaped(written["zip"]) in text, text
