"""`taco sql` over tacoreader 2.4's flat views l0..lN (columns prefixed by level, no JOIN to write)."""

from __future__ import annotations

import csv
import io
import subprocess

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"


def test_sql_reads_the_flat_views():
    for dataset in ("tacoreader/zip/nested/nested.tacozip", "tacoreader/folder/nested"):
        proc = subprocess.run([str(TACO), "sql", str(FIXTURES / dataset),
                               'SELECT "l0:id", "l1:id" FROM l1 WHERE "l1:id" = \'item_2\' ORDER BY 1', "--csv"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        rows = list(csv.reader(io.StringIO(proc.stdout)))
        assert rows == [["l0:id", "l1:id"], ["americas", "item_2"], ["asia", "item_2"], ["europe", "item_2"]]
