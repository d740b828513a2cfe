"""Issue 18 item 8 on the command line: paths that are not UTF-8 (Linux paths are bytes) open,
query, read, validate, export, convert and write like any other, whether the file name or a parent
directory holds byte 0xff, a lone continuation byte or an overlong form. Messages show such names
escaped (`\\xff`), `--json` stays valid JSON, and a `--from` tree holding a file name that is not
UTF-8 is refused naming it, with nothing left behind.

Each test fails on main f1e9635 (DuckDB's "Invalid unicode" error, or U+FFFD in JSON).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
GEOTIFFS = REPO_ROOT / "tests" / "fixtures" / "reference" / "tacotoolbox" / "geotiffs"
REFERENCE_ZIP = REPO_ROOT / "tests" / "fixtures" / "reference" / "tacotoolbox" / "zip" / "simple" / "simple.tacozip"


# The three kinds of invalid UTF-8 the issue names, each in a parent directory and a file name.
BAD_PARTS = {"ff": b"\xff", "continuation": b"\x80", "overlong": b"\xc0\xaf"}


def fs(raw: bytes) -> str:
    """A path component as Python's os.fsdecode gives it (surrogate escapes)."""
    return os.fsdecode(raw)


def escaped(raw: bytes) -> str:
    """How tacocore shows such a name in messages: Python's backslashreplace."""
    return raw.decode("utf-8", "backslashreplace")


def taco(*args) -> subprocess.CompletedProcess:
    # bytes, not text: the output may name a path that is not UTF-8 (plain output prints it raw)
    return subprocess.run([os.fsencode(TACO), *[os.fsencode(a) if isinstance(a, (str, Path)) else a
                                                for a in args]],
                          capture_output=True, timeout=300)


def ok(*args) -> bytes:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "backslashreplace")
    return proc.stdout


def as_json(data: bytes):
    return json.loads(data.decode("utf-8"))  # strict: invalid UTF-8 would raise here


@pytest.fixture(scope="module", params=sorted(BAD_PARTS))
def bad(request) -> bytes:
    return BAD_PARTS[request.param]


@pytest.fixture(scope="module")
def datasets(tmp_path_factory, bad) -> dict[str, Path]:
    """ZIP, FOLDER and both collection layouts written by `taco create` under a parent directory
    and with a file name that are not UTF-8, from GeoTIFFs with geotiff:stats."""
    root = tmp_path_factory.mktemp("nonutf8") / fs(b"parent" + bad)
    src = root / fs(b"src" + bad)  # the --from directory itself is not UTF-8 either
    src.mkdir(parents=True)
    for tif in sorted(GEOTIFFS.glob("*.tif")):
        shutil.copy(tif, src / tif.name)
    out = {"zip": root / fs(b"z" + bad + b".tacozip"), "folder": root / fs(b"f" + bad)}
    for path in out.values():
        ok("create", "--from", src, path, "--stats", "--quiet")
    parts = root / fs(b"parts" + bad)
    parts.mkdir()
    for name in ("p1.tacozip", "p2.tacozip"):
        shutil.copy(out["zip"], parts / name)
    ok("tacocat", parts / "p1.tacozip", parts / "p2.tacozip", "-o", parts)
    ok("tacocat", parts / "p1.tacozip", parts / "p2.tacozip", "-o", parts, "--format", "file")
    out["tacocat"] = parts / ".tacocat"
    out["__tacocat__"] = parts / "__TACOCAT__"
    out["root"] = root
    return out


KINDS = ["zip", "folder", "tacocat", "__tacocat__"]


@pytest.mark.parametrize("kind", KINDS)
def test_info_ls_sql_filter_read_every_layout(datasets, kind):
    path = datasets[kind]
    info = as_json(ok("info", "--json", path))
    assert info["path"] == escaped(os.fsencode(path)), info["path"]
    listed = ok("ls", path).decode()
    assert "rgb_256x256.tif" in listed and "single_band_128x128.tif" in listed
    rows = as_json(ok("sql", path, "SELECT id, \"internal:gdal_vsi\" AS vsi FROM data ORDER BY id",
                      "--json"))
    assert sorted({r["id"] for r in rows}) == sorted(p.name for p in GEOTIFFS.glob("*.tif"))
    # DuckDB columns are UTF-8: the GDAL path names the dataset through its open descriptor.
    assert all("/proc/self/fd/" in r["vsi"] for r in rows), rows
    sandboxed = as_json(ok("sql", path, "SELECT count(*) AS n FROM data", "--sandbox", "--json"))
    assert sandboxed[0]["n"] == len(rows)
    kept = as_json(ok("filter", path, "--where", "id = 'rgb_256x256.tif'", "--json"))
    assert [r["id"] for r in kept] == ["rgb_256x256.tif"] * len(kept) and kept


def test_ls_json_names_the_real_path_escaped(datasets):
    listed = as_json(ok("ls", datasets["folder"], "--json"))
    shown = escaped(os.fsencode(datasets["folder"].resolve()))
    assert {e["path"] for e in listed} == {f"{shown}/DATA/{e['id']}" for e in listed}


@pytest.mark.parametrize("table", ["csv", "parquet", "json"])
def test_create_with_a_metadata_table_whose_path_is_not_utf8(tmp_path, bad, table):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"aa")
    (src / "b.bin").write_bytes(b"bb")
    tables = tmp_path / fs(b"tables" + bad)
    tables.mkdir()
    for name in (b"meta." + table.encode(), b"meta" + bad + b"." + table.encode()):
        meta = tables / fs(name)
        if table == "csv":
            meta.write_text("id,cloud\na.bin,1.5\nb.bin,2.5\n")
        elif table == "json":
            meta.write_text('[{"id": "a.bin", "cloud": 1.5}, {"id": "b.bin", "cloud": 2.5}]')
        else:
            pq = pytest.importorskip("pyarrow.parquet")
            import pyarrow as pa
            staged = tmp_path / "staged.parquet"  # pyarrow itself refuses such a path
            pq.write_table(pa.table({"id": ["a.bin", "b.bin"], "cloud": [1.5, 2.5]}), staged)
            os.rename(staged, meta)
        out = tmp_path / fs(b"o" + bad + name)
        ok("create", "--from", src, out, "--metadata", meta, "--key", "id", "--quiet")
        rows = as_json(ok("sql", out, "SELECT id, cloud FROM data ORDER BY id", "--json"))
        assert rows == [{"id": "a.bin", "cloud": 1.5}, {"id": "b.bin", "cloud": 2.5}]


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_cat_gives_the_source_bytes(datasets, kind):
    data = ok("cat", datasets[kind], "rgb_256x256.tif")
    assert data == (GEOTIFFS / "rgb_256x256.tif").read_bytes()


@pytest.mark.parametrize("kind", KINDS)
def test_validate_finds_them_valid(datasets, kind):
    proc = taco("validate", datasets[kind])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert b"valid (0 errors" in proc.stdout


@pytest.mark.parametrize("kind", ["zip", "folder", "tacocat"])
def test_stats_pools_geotiff_stats(datasets, kind):
    bands = as_json(ok("stats", datasets[kind], "--band", "0", "--json"))
    assert len(bands) == 1 and bands[0]["mean"] is not None, bands


@pytest.mark.parametrize("kind", ["zip", "folder"])
@pytest.mark.parametrize("target", ["zip", "folder"])
def test_export_and_convert_to_outputs_that_are_not_utf8(datasets, bad, kind, target):
    outdir = datasets["root"] / fs(b"out" + bad + kind.encode() + target.encode())
    outdir.mkdir()
    suffix = b".tacozip" if target == "zip" else b""
    exported = outdir / fs(b"e" + bad + suffix)
    summary = as_json(ok("export", datasets[kind], exported, "--where", "id = 'rgb_256x256.tif'",
                         "--json"))
    assert summary["path"].endswith(escaped(os.fsencode(exported.name))), summary
    assert ok("cat", exported, "rgb_256x256.tif") == (GEOTIFFS / "rgb_256x256.tif").read_bytes()
    other = "folder" if kind == "zip" else "zip"
    converted = outdir / fs(b"c" + bad + (b".tacozip" if other == "zip" else b""))
    ok("convert", datasets[kind], converted)
    assert ok("cat", converted, "single_band_128x128.tif") == \
        (GEOTIFFS / "single_band_128x128.tif").read_bytes()
    # Nothing staged is left beside the outputs (.partial names built from the bad name).
    assert sorted(p.name for p in outdir.iterdir()) == sorted([exported.name, converted.name])


def test_create_writes_zip_and_folder_with_json_summary(datasets, bad):
    src = next(p for p in datasets["root"].iterdir() if p.name.startswith("src"))
    for name in (b"n" + bad + b".tacozip", b"n" + bad):
        out = datasets["root"] / fs(name)
        summary = as_json(ok("create", "--from", src, out, "--json"))
        assert summary["path"].endswith(escaped(name)), summary
        assert ok("cat", out, "categorical_128x128.tif") == \
            (GEOTIFFS / "categorical_128x128.tif").read_bytes()
        # --overwrite replaces it through the same staging and atomic rename
        ok("create", "--from", src, out, "--overwrite", "--quiet")
        leftovers = [p.name for p in datasets["root"].iterdir() if ".partial" in p.name]
        assert leftovers == []


def test_create_into_a_missing_non_utf8_directory(tmp_path, bad):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"aa")
    out = tmp_path / fs(b"new" + bad) / fs(b"deeper" + bad)
    ok("create", "--from", src, out, "--quiet")
    assert ok("cat", out, "a.bin") == b"aa"


def test_tacocat_refuses_a_part_whose_name_is_not_utf8(tmp_path, bad):
    part = tmp_path / fs(b"p" + bad + b".tacozip")
    shutil.copy(REFERENCE_ZIP, part)
    proc = taco("tacocat", part, "-o", tmp_path)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode("utf-8")  # strict
    assert escaped(os.fsencode(part.name)) in err and "not UTF-8" in err, err
    assert not (tmp_path / ".tacocat").exists()


def test_from_tree_with_a_file_name_that_is_not_utf8_is_refused(tmp_path, bad):
    src = tmp_path / "src"
    (src / "s1").mkdir(parents=True)
    (src / "s1" / "ok.bin").write_bytes(b"1")
    (src / "s1" / fs(b"x" + bad + b".bin")).write_bytes(b"2")
    for out, flags in ((tmp_path / "o.tacozip", []), (tmp_path / "o", []),
                       (tmp_path / "j.tacozip", ["--json"])):
        proc = taco("create", "--from", src, out, *flags)
        assert proc.returncode == 1, proc.stderr  # a schema violation (USER-GUIDE §8)
        text = proc.stderr.decode("utf-8")  # strict: the message itself is UTF-8
        if flags:
            text = as_json(proc.stderr)["error"]
        assert escaped(b"s1/x" + bad + b".bin") in text, text
        assert "not UTF-8" in text
        if flags:
            assert as_json(proc.stderr)["kind"] == "TacoSchemaError"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]  # nothing left behind


@pytest.mark.parametrize("json_flag", [False, True])
def test_errors_name_the_path_escaped(tmp_path, bad, json_flag):
    missing = tmp_path / fs(b"gone" + bad) / fs(b"x" + bad + b".tacozip")
    broken = tmp_path / fs(b"broken" + bad + b".tacozip")
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    for path in (missing, broken):
        proc = taco("info", path, *(["--json"] if json_flag else []))
        assert proc.returncode in (1, 2), proc.stderr
        text = proc.stderr.decode("utf-8")  # strict
        if json_flag:
            text = as_json(proc.stderr)["error"]
        assert escaped(os.fsencode(path.name)) in text, text
        assert "/proc/self/fd" not in text
        if json_flag:
            err = as_json(proc.stderr)
            assert err["path"] == escaped(os.fsencode(path))
            assert err["exit_code"] == proc.returncode


def test_folder_dataset_with_damaged_level_names_the_real_path(tmp_path, bad):
    ds = tmp_path / fs(b"d" + bad)
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.bin").write_bytes(b"aa")
    ok("create", "--from", src, ds, "--quiet")
    level0 = ds / "METADATA" / "level0.parquet"
    level0.write_bytes(b"PAR1" + b"\x00" * 64 + b"PAR1")
    for cmd in (["info"], ["validate"]):
        proc = taco(*cmd, ds)
        assert proc.returncode == 1, proc.stderr
        # Plain output prints the dataset path as given (raw bytes, as ls and cat do); messages on
        # standard error are escaped.
        proc.stderr.decode("utf-8")  # strict
        text = (proc.stdout + proc.stderr).decode("utf-8", "backslashreplace")
        assert "/proc/self/fd" not in text and "in memory" not in text, text
        assert escaped(b"d" + bad) + "/METADATA/level0.parquet" in text, text


def test_cog_writes_and_checks_a_tog_under_such_names(tmp_path, bad):
    folder = tmp_path / fs(b"g" + bad)
    folder.mkdir()
    src = folder / fs(b"in" + bad + b".tif")
    shutil.copy(GEOTIFFS / "rgb_256x256.tif", src)
    out = folder / fs(b"out" + bad + b".tif")
    ok("cog", src, out)
    # IMAGE_INFO (gdalinfo -json, which names the file) stays valid JSON: the name is escaped
    checked = as_json(ok("cog", "--check", out, "--json"))
    assert checked == [{"path": escaped(os.fsencode(out)), "tog": True, "problems": []}]
