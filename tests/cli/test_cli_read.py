"""`taco info / ls / sql / cat / validate`: output, error messages and exit codes.

Exit codes: 0 success (validate: valid), 1 invalid data (a broken dataset; validate: findings of
severity error), 2 usage or I/O (bad arguments, missing path, unknown ROWPATH, bad SQL).
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
NESTED_ZIP = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
NESTED_FOLDER = FIXTURES / "tacoreader/folder/nested"
FLAT_FOLDER = FIXTURES / "tacoreader/folder/flat"


def taco(*args, text=True) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=text, timeout=300)


def ok(*args) -> str:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


# ---- info ------------------------------------------------------------------------------------------


def test_info_text():
    out = ok("info", NESTED_ZIP)
    assert "id:              test_dataset" in out
    assert "format:          zip" in out
    assert "taco_version:    0.5.0" in out
    assert "level 0: 3 rows" in out
    assert "level 1: 9 rows" in out
    assert "level 1: n=9 [item_0 FILE, item_1 FILE, item_2 FILE]" in out


def test_info_json():
    info = json.loads(ok("info", NESTED_FOLDER, "--json"))
    assert info["id"] == "test_dataset"
    assert info["format"] == "folder"
    assert info["taco_version"] == "0.5.0"
    assert [(lv["level"], lv["rows"]) for lv in info["levels"]] == [(0, 3), (1, 9)]
    assert info["levels"][1]["columns"][0:2] == ["id", "type"]
    assert info["levels"][1]["columns"][-1] == "internal:gdal_vsi"
    assert info["pit_schema"]["root"] == {"n": 3, "type": "FOLDER"}
    assert info["extent"]["spatial"] == [-77.0, -33.85, 151.2, 52.5]


def test_info_errors(tmp_path):
    proc = taco("info", tmp_path / "missing.tacozip")
    assert proc.returncode == 2
    assert "missing.tacozip" in proc.stderr
    bad = tmp_path / "bad.tacozip"
    data = bytearray(FLAT_ZIP.read_bytes())
    data[0] = ord("X")
    bad.write_bytes(bytes(data))
    proc = taco("info", bad)
    assert proc.returncode == 1
    assert "bad.tacozip" in proc.stderr and "TACO_HEADER" in proc.stderr
    legacy = tmp_path / "old.tortilla"
    legacy.write_bytes(b"#y" + bytes(100))
    proc = taco("info", legacy)
    assert proc.returncode == 1
    assert "old.tortilla: truncated: a legacy v1 file" in proc.stderr
    (tmp_path / "empty").mkdir()
    proc = taco("info", tmp_path / "empty")
    assert proc.returncode == 1
    assert "COLLECTION.json not found" in proc.stderr


# ---- ls --------------------------------------------------------------------------------------------


def test_ls_text():
    assert ok("ls", NESTED_ZIP).splitlines() == ["FOLDER    -  europe/", "FOLDER    -  americas/", "FOLDER    -  asia/"]
    assert ok("ls", FLAT_FOLDER).splitlines()[0] == "FILE     16  sample_0"


def test_ls_json_inside_a_folder():
    entries = json.loads(ok("ls", NESTED_ZIP, "americas", "--json"))
    assert [e["id"] for e in entries] == ["item_0", "item_1", "item_2"]
    assert all(e["type"] == "FILE" and e["size"] == 15 for e in entries)
    assert entries[0]["path"] == f"/vsisubfile/390_15,{NESTED_ZIP.resolve()}"


def test_ls_of_a_file_lists_it():
    entries = json.loads(ok("ls", NESTED_FOLDER, "asia/item_1", "--json"))
    assert entries == [
        {"id": "item_1", "type": "FILE", "size": 11, "path": f"{NESTED_FOLDER.resolve()}/DATA/asia/item_1"}
    ]


def test_ls_unknown_rowpath():
    proc = taco("ls", NESTED_ZIP, "oceania")
    assert proc.returncode == 2
    assert "no sample 'oceania' at level 0" in proc.stderr
    proc = taco("ls", NESTED_ZIP, "asia/item_9")
    assert proc.returncode == 2
    assert "'asia' has no child 'item_9'" in proc.stderr
    proc = taco("ls", NESTED_ZIP, "asia/item_1/deeper")
    assert proc.returncode == 2
    assert "'asia/item_1' is a FILE" in proc.stderr


# ---- sql -------------------------------------------------------------------------------------------


def test_sql_table():
    out = ok("sql", FLAT_ZIP, "SELECT id, cloud_cover FROM data WHERE cloud_cover >= 45 ORDER BY id")
    assert out.splitlines() == [
        "id        cloud_cover",
        "--------  -----------",
        "sample_3  45",
        "sample_4  60",
        "(2 rows)",
    ]


def test_sql_json_values():
    rows = json.loads(ok(
        "sql", FLAT_ZIP,
        'SELECT id, "istac:time_start" AS t, "stac:tensor_shape" AS shape, "geotiff:stats"[1][3] AS mean, '
        '"istac:centroid" AS c FROM data LIMIT 1',
        "--json",
    ))
    assert rows == [{
        "id": "sample_0",
        "t": "2023-01-01T00:00:00Z",
        "shape": [3, 256, 256],
        "mean": 128.5,
        "c": "0101000000666666666666d6bf9a99999999b94340",  # WKB POINT (-0.35 39.45), as hex
    }]


def test_sql_levels_and_chained_data():
    rows = json.loads(ok(
        "sql", NESTED_ZIP,
        'SELECT count(*) AS n FROM level1 l JOIN data d ON l."internal:parent_id" = d."internal:current_id" '
        "WHERE d.id = 'asia'",
        "--json",
    ))
    assert rows == [{"n": 3}]


def test_sql_csv():
    out = ok("sql", FLAT_ZIP, "SELECT id, location, [1, 2] AS l, NULL AS n FROM data ORDER BY id LIMIT 2", "--csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows == [["id", "location", "l", "n"], ["sample_0", "valencia", "[1,2]", ""], ["sample_1", "paris", "[1,2]", ""]]


def test_sql_errors():
    proc = taco("sql", FLAT_ZIP, "SELECT nope FROM data")
    assert proc.returncode == 2
    assert 'Referenced column "nope" not found' in proc.stderr
    assert "flat.tacozip" in proc.stderr
    proc = taco("sql", FLAT_ZIP, "SELECT 1; SELECT 2")
    assert proc.returncode == 2
    assert "one SQL statement" in proc.stderr
    proc = taco("sql", FLAT_ZIP, "SELECT 1", "--json", "--csv")
    assert proc.returncode == 2


# ---- cat -------------------------------------------------------------------------------------------


def test_cat_bytes():
    proc = taco("cat", NESTED_ZIP, "americas/item_2", text=False)
    assert proc.returncode == 0
    assert proc.stdout == (NESTED_FOLDER / "DATA/americas/item_2").read_bytes()
    proc = taco("cat", FLAT_FOLDER, "sample_4", text=False)
    assert proc.stdout == (FLAT_FOLDER / "DATA/sample_4").read_bytes()


def test_cat_errors(tmp_path):
    proc = taco("cat", NESTED_ZIP, "europe")
    assert proc.returncode == 2
    assert "'europe' is a FOLDER" in proc.stderr
    proc = taco("cat", NESTED_ZIP, "europe/nothing")
    assert proc.returncode == 2
    proc = taco("cat", tmp_path / "none.tacozip", "x")
    assert proc.returncode == 2
    proc = taco("cat", NESTED_ZIP)
    assert proc.returncode == 2  # ROWPATH is required


# ---- validate --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [FLAT_ZIP, FLAT_FOLDER, NESTED_FOLDER])
def test_validate_valid(path):
    proc = taco("validate", path)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.strip().endswith("valid (0 errors, 0 warnings)")


def test_validate_reports_the_nested_defect():
    proc = taco("validate", NESTED_ZIP, "--json")
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    assert report["valid"] is False
    assert report["errors"] == 9
    assert report["format"] == "zip"
    first = report["findings"][0]
    assert first["severity"] == "error"
    assert first["code"] == "zip.offset-mismatch"
    assert first["location"] == "METADATA/level1.parquet row 0 (europe/item_0)"
    text = taco("validate", NESTED_ZIP)
    assert text.returncode == 1
    assert "INVALID (9 errors, 0 warnings)" in text.stdout


def test_validate_limits_findings():
    report = json.loads(taco("validate", NESTED_ZIP, "--json", "--max-findings", "3").stdout)
    assert len(report["findings"]) == 4
    assert report["suppressed"] == 6


def test_validate_damaged_copy(tmp_path):
    copy = tmp_path / "nested"
    shutil.copytree(NESTED_FOLDER, copy)
    (copy / "DATA/europe/item_1").unlink()
    proc = taco("validate", copy)
    assert proc.returncode == 1
    assert "folder.missing-file  METADATA/level1.parquet row 1 (europe/item_1)" in proc.stdout
    cut = tmp_path / "cut.tacozip"
    cut.write_bytes(FLAT_ZIP.read_bytes()[:4000])
    assert taco("validate", cut).returncode == 1


def test_validate_usage_and_io_errors(tmp_path):
    assert taco("validate", tmp_path / "missing").returncode == 2
    assert taco("validate").returncode == 2
    assert taco("validate", FLAT_ZIP, "--max-findings", "0").returncode == 2


@pytest.mark.parametrize("command", ["info", "ls", "sql", "cat", "validate"])
def test_help(command):
    proc = taco(command, "--help")
    assert proc.returncode == 0
    assert "Usage:" in proc.stdout
