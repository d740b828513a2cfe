"""Outputs that could destroy or hide data, found by a hostile-input hunt (2026-11-29):

- `export-croissant`, `export-datacite` and `docs` with --overwrite never replace a dataset or
  one of its files (they replaced the input dataset itself);
- `create x.tacozip/` writes the ZIP x.tacozip (it wrote a FOLDER no reader opens), and
  `export` / `convert` name their output by the same rule;
- a command that fails leaves no directory it created for its output (`tacocat -o a/b/c`);
- a FOLDER dataset whose taco:pit_schema describes a level with no table is refused at load (its
  samples were silently absent from ls, convert and export).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference" / "tacoreader"


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def digest(path: Path) -> list:
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    return [(str(p.relative_to(path.parent)), p.read_bytes()) for p in files]


@pytest.fixture()
def datasets(tmp_path):
    zip_path = tmp_path / "d.tacozip"
    shutil.copy(FIXTURES / "zip/flat/flat.tacozip", zip_path)
    folder = tmp_path / "dF"
    shutil.copytree(FIXTURES / "folder/nested", folder)
    return zip_path, folder


@pytest.mark.parametrize("command", [
    ["export-croissant", "{ds}", "{target}", "--overwrite"],
    ["export-datacite", "{ds}", "{target}", "--overwrite"],
    ["docs", "{ds}", "--output", "{target}", "--overwrite"],
])
@pytest.mark.parametrize("target", ["zip itself", "folder table", "other zip"])
def test_document_writers_never_replace_a_dataset(datasets, tmp_path, command, target):
    zip_path, folder = datasets
    other = tmp_path / "other.tacozip"
    shutil.copy(zip_path, other)
    ds, path = {"zip itself": (zip_path, zip_path),
                "folder table": (folder, folder / "METADATA" / "level0.parquet"),
                "other zip": (zip_path, other)}[target]
    before = digest(zip_path) + digest(folder) + digest(other)
    proc = taco(*[part.format(ds=ds, target=path) for part in command])
    assert proc.returncode == 2, proc.stdout
    assert "refusing to overwrite" in proc.stderr and str(path) in proc.stderr
    assert digest(zip_path) + digest(folder) + digest(other) == before
    assert taco("info", ds).returncode == 0


def test_document_writers_still_replace_their_own_documents(datasets, tmp_path):
    zip_path, _ = datasets
    out = tmp_path / "card.json"
    assert taco("export-croissant", zip_path, out).returncode == 0
    assert taco("export-croissant", zip_path, out).returncode == 2  # exists, no --overwrite
    assert taco("export-croissant", zip_path, out, "--overwrite").returncode == 0
    md = tmp_path / "README.md"
    md.write_text("old")
    assert taco("docs", zip_path, "--output", md, "--overwrite").returncode == 0
    assert md.read_text() != "old"


def test_create_with_a_trailing_slash_writes_the_zip(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "a.bin").write_bytes(b"abc")
    proc = taco("create", str(tmp_path / "x.tacozip") + "/", "--from", src)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "x.tacozip").is_file()
    assert taco("info", tmp_path / "x.tacozip").returncode == 0
    # a FOLDER asked for under a ZIP name is written without the suffix, as tacotoolbox does
    proc = taco("create", tmp_path / "y.tacozip", "--format", "folder", "--from", src)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "y").is_dir() and not (tmp_path / "y.tacozip").exists()
    assert str(tmp_path / "y") in proc.stdout


def test_a_failed_command_leaves_no_directory_it_made(tmp_path):
    out = tmp_path / "idx" / "a" / "b"
    proc = taco("tacocat", FIXTURES / "zip/flat/flat.tacozip", FIXTURES / "zip/nested/nested.tacozip",
                "-o", out)
    assert proc.returncode == 1, proc.stderr
    assert not (tmp_path / "idx").exists()
    # a directory that existed before stays, empty or not
    (tmp_path / "kept").mkdir()
    taco("tacocat", FIXTURES / "zip/flat/flat.tacozip", FIXTURES / "zip/nested/nested.tacozip",
         "-o", tmp_path / "kept" / "new")
    assert (tmp_path / "kept").is_dir() and not (tmp_path / "kept" / "new").exists()


def test_a_level_the_pit_schema_describes_but_no_table_holds_is_refused(tmp_path):
    ds = tmp_path / "n"
    shutil.copytree(FIXTURES / "folder/nested", ds)
    (ds / "METADATA" / "level1.parquet").unlink()
    for command in (["info", ds], ["ls", ds], ["convert", ds, tmp_path / "n.tacozip"]):
        proc = taco(*command)
        assert proc.returncode == 1, (command, proc.stdout)
        assert "taco:pit_schema describes 2 levels" in proc.stderr
        assert "METADATA/level1.parquet is missing" in proc.stderr
    assert not (tmp_path / "n.tacozip").exists()


def test_export_and_convert_name_their_output_as_create_does(tmp_path):
    flat = FIXTURES / "zip/flat/flat.tacozip"
    proc = taco("export", flat, str(tmp_path / "x.tacozip") + "/", "--where", "true")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "x.tacozip").is_file() and taco("info", tmp_path / "x.tacozip").returncode == 0
    proc = taco("export", flat, tmp_path / "y.tacozip", "--where", "true", "--format", "folder")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "y").is_dir() and not (tmp_path / "y.tacozip").exists()
    proc = taco("convert", flat, tmp_path / "z.tacozip", "--format", "folder")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "z").is_dir() and taco("info", tmp_path / "z").returncode == 0
