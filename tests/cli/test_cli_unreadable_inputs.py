"""Unreadable inputs during `taco create` (hardening, faults while writing): a clear error naming
the file, exit 2, and nothing at OUTPUT or beside it.

The tests run as root, for whom permission bits mean nothing, so `taco` runs as the unprivileged
user nobody (setpriv --reuid=65534): the kernel then really refuses the open() or the listing.
Run by an ordinary user, the tests run `taco` as that user directly."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
NOBODY = 65534

if os.geteuid() == 0 and not shutil.which("setpriv"):
    pytest.skip("running as root without setpriv: cannot drop privileges", allow_module_level=True)


@pytest.fixture
def sandbox():
    # Not pytest's tmp_path: its parents are 0700 root, which nobody cannot traverse.
    root = Path(tempfile.mkdtemp(prefix="taco-unreadable-", dir="/tmp"))
    root.chmod(0o755)
    for name in ("s1/a.bin", "s1/b.bin", "s2/a.bin", "s2/b.bin"):  # PIT: same shape in both
        (root / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "in" / name).write_bytes(name.encode() * 100)
    (root / "out").mkdir()
    (root / "out").chmod(0o777)  # nobody writes the output here
    yield root
    for p in root.rglob("*"):  # give back what a test took away, so the tree can be removed
        if not p.is_symlink():
            p.chmod(0o755)
    shutil.rmtree(root)


def taco_as_nobody(*args) -> subprocess.CompletedProcess:
    cmd = [str(TACO), *map(str, args)]
    if os.geteuid() == 0:
        cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd]
    env = dict(os.environ, HOME="/nonexistent")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)


def assert_refused(proc, sandbox: Path, fragment: str):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert fragment in proc.stderr, proc.stderr
    assert "Permission denied" in proc.stderr, proc.stderr
    assert list((sandbox / "out").iterdir()) == [], "something was left at or beside OUTPUT"


@pytest.mark.parametrize("output", ["ds.tacozip", "ds"])
def test_unreadable_sample_file(sandbox, output):
    bad = sandbox / "in" / "s2" / "b.bin"
    bad.chmod(0)
    assert_refused(taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / output),
                   sandbox, f"'{bad}'")


@pytest.mark.parametrize("output", ["ds.tacozip", "ds"])
def test_unreadable_sub_directory(sandbox, output):
    bad = sandbox / "in" / "s2"
    bad.chmod(0)
    assert_refused(taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / output),
                   sandbox, f"cannot list directory {bad}")


@pytest.mark.parametrize("mode", [0, 0o311])  # nothing at all; traversable but not listable
def test_unreadable_input_directory(sandbox, mode):
    (sandbox / "in").chmod(mode)
    assert_refused(taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / "ds"),
                   sandbox, f"cannot list directory {sandbox / 'in'}")


def test_unreadable_collection_file(sandbox):
    doc = sandbox / "collection.json"
    doc.write_text('{"id": "x", "description": "d"}')
    doc.chmod(0)
    assert_refused(taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / "ds.tacozip",
                                  "--collection", doc), sandbox, f"'{doc}'")


def test_unreadable_metadata_table(sandbox):
    table = sandbox / "labels.csv"
    table.write_text("path,label\ns1,1\ns2,2\n")
    table.chmod(0)
    proc = taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / "ds.tacozip",
                          "--metadata", table)
    assert_refused(proc, sandbox, f"cannot read metadata table {table}")


def test_unwritable_output_directory(sandbox):
    (sandbox / "out").chmod(0o755)  # root's: nobody may not create anything in it
    proc = taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / "ds.tacozip")
    assert proc.returncode == 2, proc.stderr
    assert str(sandbox / "out") in proc.stderr and "Permission denied" in proc.stderr, proc.stderr
    assert list((sandbox / "out").iterdir()) == []


def test_readable_again_creates_the_dataset(sandbox):
    """The same setup without the fault succeeds as nobody: the refusals above are the fault's."""
    proc = taco_as_nobody("create", "--from", sandbox / "in", sandbox / "out" / "ds.tacozip")
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in (sandbox / "out").iterdir()] == ["ds.tacozip"]
