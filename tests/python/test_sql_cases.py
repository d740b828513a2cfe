"""Data-driven SQL tests: files of (dataset, [view...], query, expected rows) in sql_cases/*.test,
run by this one driver (as DuckDB's test/sql/*.test). Cases marked `reference` also run with
tacoreader 2.4.21 (one subprocess for all of them) and must give the same rows there.

Format: blocks separated by blank lines; lines starting with '#' are comments.
    case <name>
    dataset <fixture name from conftest.FIXTURE_DATASETS>
    reference                      (optional)
    view <sql>                     (optional, repeatable: ds = ds.sql(view) before the query)
    query <sql>                    ({root} is replaced by the dataset path)
    ----
    expected rows, '|'-separated, NULL for null
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

import tacocore

CASES_DIR = pathlib.Path(__file__).with_name("sql_cases")
COMPAT = pathlib.Path(__file__).with_name("compat")


def parse(path: pathlib.Path) -> list:
    cases = []
    for block in path.read_text().split("\n\n"):
        lines = [l for l in block.strip().splitlines() if l and not l.startswith("#")]
        if not lines:
            continue
        case = {"file": path.name, "views": [], "reference": False, "expected": []}
        rows = None
        for line in lines:
            if rows is not None:
                rows.append(line)
                continue
            word, _, rest = line.partition(" ")
            if word == "----":
                rows = case["expected"]
            elif word == "view":
                case["views"].append(rest)
            elif word == "reference":
                case["reference"] = True
            elif word in ("case", "dataset", "query"):
                case[word] = rest
            else:
                raise ValueError(f"{path.name}: unknown line {line!r}")
        assert {"case", "dataset", "query"} <= set(case) and rows is not None, f"{path.name}: {block}"
        cases.append(case)
    return cases


CASES = [c for f in sorted(CASES_DIR.glob("*.test")) for c in parse(f)]


def cell(v) -> str:
    return "NULL" if v is None else str(v)


def rows_of(table) -> list:
    return ["|".join(cell(v) for v in row.values()) for row in table.to_pylist()]


def run_case(case: dict, path: str) -> list:
    ds = tacocore.load(path)
    for view in case["views"]:
        ds = ds.sql(view)
    return rows_of(ds.sql(case["query"].replace("{root}", path)).data_raw.to_arrow())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['file']}: {c['case']}" for c in CASES])
def test_sql_case(case, fixture_paths):
    assert run_case(case, fixture_paths[case["dataset"]]) == case["expected"]


REFERENCE_SCRIPT = """
import json, sys
import tacoreader
out = []
for dataset, query in json.loads(sys.argv[1]):
    table = tacoreader.load(dataset).sql(query)
    out.append([["NULL" if v is None else str(v) for v in row.values()] for row in table.to_pylist()])
print(json.dumps(out))
"""


def test_reference_cases_agree_with_tacoreader(reference, fixture_paths, tmp_path):
    cases = [c for c in CASES if c["reference"]]
    assert cases and not any(c["views"] for c in cases)
    jobs = [(fixture_paths[c["dataset"]], c["query"].replace("{root}", fixture_paths[c["dataset"]]))
            for c in cases]
    script = tmp_path / "flat_reference.py"
    script.write_text(REFERENCE_SCRIPT)
    proc = subprocess.run([sys.executable, str(COMPAT / "run_reference.py"), str(script), json.dumps(jobs)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    for case, rows in zip(cases, json.loads(proc.stdout)):
        assert ["|".join(r) for r in rows] == case["expected"], case["case"]
