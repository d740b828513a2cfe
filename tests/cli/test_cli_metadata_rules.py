"""Issue 18 item 5, the rest: metadata tables in Parquet and JSON follow CSV's case rule (columns
whose names differ only in case are refused, not renamed `cloud_1`), and a level-0 row whose id
is NULL is reported, never hidden like padding: at create, by `validate`, and by every read.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO


pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300)


def small_tree(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    src.mkdir()
    for n in ("a.bin", "b.bin", "c.bin"):
        (src / n).write_bytes(n.encode())
    return src


def write_table(path: Path, rows: list[dict], columns: list[str]) -> None:
    if path.suffix == ".parquet":
        pq.write_table(pa.table({c: [r[c] for r in rows] for c in columns}), path)
    elif path.suffix == ".json":
        path.write_text(json.dumps(rows))
    else:  # newline-delimited JSON
        path.write_text("".join(json.dumps(r) + "\n" for r in rows))


@pytest.mark.parametrize("name", ["meta.parquet", "meta.json", "meta.ndjson"])
@pytest.mark.parametrize("second, needle", [("cloud", "differ only in case"), ("CLOUD", "differ only in case")])
def test_columns_differing_only_in_case_are_refused_in_parquet_and_json(tmp_path, name, second, needle):
    src = small_tree(tmp_path)
    table = tmp_path / name
    rows = [{"path": p, "Cloud": i, second: 10 * i} for i, p in enumerate(("a.bin", "b.bin", "c.bin"))]
    write_table(table, rows, ["path", "Cloud", second])
    proc = taco("create", "--from", src, tmp_path / "out.tacozip", "--metadata", table)
    assert proc.returncode == 1, proc.stderr
    assert needle in proc.stderr and name in proc.stderr
    assert "'Cloud'" in proc.stderr and f"'{second}'" in proc.stderr
    assert not (tmp_path / "out.tacozip").exists()


@pytest.mark.parametrize("name", ["meta.parquet", "meta.json"])
def test_distinct_names_and_nested_fields_are_not_collisions(tmp_path, name):
    # A nested field may share a top-level column's name (any case): only columns are compared.
    src = small_tree(tmp_path)
    table = tmp_path / name
    rows = [{"path": p, "Cloud": i, "info": {"cloud": i, "x": str(i)}} for i, p in
            enumerate(("a.bin", "b.bin", "c.bin"))]
    write_table(table, rows, ["path", "Cloud", "info"])
    proc = taco("create", "--from", src, tmp_path / "out.tacozip", "--metadata", table, "--quiet")
    assert proc.returncode == 0, proc.stderr
    out = taco("sql", tmp_path / "out.tacozip", 'SELECT id, "Cloud" FROM data ORDER BY id', "--json")
    assert out.returncode == 0, out.stderr
    assert [r["Cloud"] for r in json.loads(out.stdout)] == [0, 1, 2]


# --- a NULL id at level 0 ------------------------------------------------------------------------

def dataset_with_null_id(tmp_path: Path) -> Path:
    """A FOLDER dataset as someone else might leave it: level 0's second row has a NULL id."""
    src = small_tree(tmp_path)
    out = tmp_path / "ds"
    proc = taco("create", "--from", src, out, "--format", "folder", "--quiet")
    assert proc.returncode == 0, proc.stderr
    level0 = next(out.rglob("*.parquet"))
    table = pq.read_table(level0)
    ids = table.column("id").to_pylist()
    assert ids == ["a.bin", "b.bin", "c.bin"]
    ids[1] = None
    table = table.set_column(table.schema.get_field_index("id"), "id", pa.array(ids, pa.string()))
    pq.write_table(table, level0)
    return out


def test_null_id_is_a_validate_finding(tmp_path):
    ds = dataset_with_null_id(tmp_path)
    proc = taco("validate", ds, "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    findings = [f for f in report["findings"] if f.get("code") == "row.id"]
    assert findings, report
    assert "level0.parquet row 1" in findings[0]["location"] and "null" in findings[0]["message"]


@pytest.mark.parametrize("command", [["info"], ["ls"], ["sql", "SELECT count(*) FROM data"], ["cat", "a.bin"]])
def test_reading_a_null_id_fails_naming_the_row(tmp_path, command):
    # Before: the row was hidden as padding, `ls` listed 2 samples and `count(*)` said 2.
    ds = dataset_with_null_id(tmp_path)
    proc = taco(command[0], ds, *command[1:])
    assert proc.returncode != 0, proc.stdout
    assert "row 1 has a NULL id" in proc.stderr, proc.stderr
    assert "level0" in proc.stderr or ".parquet" in proc.stderr
