"""`taco create --from DIR OUTPUT`: summary, progress, errors, exit codes and crash safety.

Exit codes: 0 success, 1 invalid data (schema / PIT), 2 usage or I/O. After every failure the
output directory holds nothing new: no dataset and no `.NAME.partial-*` staging leftovers.
"""

from __future__ import annotations

import json
import os
import pty
import resource
import select
import signal
import subprocess
import zipfile
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO


def taco(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, timeout=300, **kwargs)


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return root


@pytest.fixture
def src(tmp_path) -> Path:
    """Two FOLDER samples with the same two FILE children."""
    return tree(tmp_path / "src", {"a/x.bin": b"ax", "a/y.bin": b"ay!", "b/x.bin": b"bx", "b/y.bin": b"by!!"})


@pytest.fixture
def out_dir(tmp_path) -> Path:
    d = tmp_path / "out"
    d.mkdir()
    return d


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".partial-" in p.name or ".replaced-" in p.name)


def assert_failed(proc, code: int, *needles: str):
    assert proc.returncode == code, f"exit {proc.returncode}, expected {code}\nstderr: {proc.stderr}"
    assert proc.stdout == ""
    assert proc.stderr.startswith("taco: error: ") or code == 2, proc.stderr
    for needle in needles:
        assert needle in proc.stderr, f"{needle!r} not in: {proc.stderr}"


# ---- success: summary and progress ---------------------------------------------------------------


@pytest.mark.parametrize("name,fmt", [("ds.tacozip", "zip"), ("ds", "folder")])
def test_json_summary(src, out_dir, name, fmt):
    out = out_dir / name
    proc = taco("create", "--from", src, out, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # piped: no progress bar
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert list(summary) == ["path", "format", "id", "bytes", "files", "levels", "seconds"]
    assert summary["path"] == str(out) and Path(summary["path"]).exists()
    assert summary["format"] == fmt
    assert summary["id"] == "ds"  # derived from the output name
    assert summary["files"] == 4 and summary["levels"] == [2, 4]
    assert isinstance(summary["seconds"], float) and summary["seconds"] >= 0
    if fmt == "zip":
        assert summary["bytes"] == out.stat().st_size
    else:
        assert summary["bytes"] == sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert leftovers(out_dir) == []


def test_text_summary_and_no_progress_when_piped(src, out_dir):
    proc = taco("create", "--from", src, out_dir / "ds.tacozip")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"created {out_dir / 'ds.tacozip'} (zip, ")
    assert "4 files, 2 levels: 2, 4 rows" in proc.stdout
    assert proc.stderr == ""


def test_quiet_prints_nothing(src, out_dir):
    proc = taco("create", "--from", src, out_dir / "ds.tacozip", "-q")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


def test_progress_bar_on_a_terminal(src, out_dir):
    master, slave = pty.openpty()
    try:
        proc = subprocess.run([str(TACO), "create", "--from", str(src), str(out_dir / "ds.tacozip")],
                              stdout=subprocess.PIPE, stderr=slave, timeout=300)
        os.close(slave)
        slave = -1
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the terminal is closed and drained
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert proc.returncode == 0
    shown = b"".join(chunks).decode()
    assert "\r[" in shown and "100%" in shown and "4/4 files" in shown


# ---- invalid data: exit 1 ------------------------------------------------------------------------


def test_pit_violation_child_count_names_root_sample_and_depth(tmp_path, out_dir):
    src = tree(tmp_path / "src", {"a/x.bin": b"1", "a/y.bin": b"2", "b/x.bin": b"3"})
    proc = taco("create", "--from", src, out_dir / "ds.tacozip")
    assert_failed(proc, 1, "PIT-1", "root sample 'b'", "depth 0", "1 children, expected 2")
    assert list(out_dir.iterdir()) == []


def test_pit_violation_position_names_the_position(tmp_path, out_dir):
    src = tree(tmp_path / "src", {"a/x.bin": b"1", "a/y.bin": b"2", "b/x.bin": b"3", "b/z.bin": b"4"})
    proc = taco("create", "--from", src, out_dir / "ds")
    assert_failed(proc, 1, "PIT-1", "root sample 'b'", "depth 1", "position 1", "'z.bin'", "'y.bin'")
    assert list(out_dir.iterdir()) == []


def test_pit_violation_mixed_root_types(tmp_path, out_dir):
    src = tree(tmp_path / "src", {"a/x.bin": b"1", "b.bin": b"2"})
    proc = taco("create", "--from", src, out_dir / "ds.tacozip")
    assert_failed(proc, 1, "root sample", "'b.bin'", "FILE", "FOLDER")
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("bad_id,why", [("BadId", "uppercase"), ("has space", "' '"), ("__", "lowercase")])
def test_bad_dataset_id(src, out_dir, bad_id, why):
    proc = taco("create", "--from", src, out_dir / "ds.tacozip", "--id", bad_id)
    assert_failed(proc, 1, "'id'", bad_id, why)
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("name,why", [("__reserved.bin", "'__'"), ("a:b.bin", "':'")])
def test_bad_sample_id(tmp_path, out_dir, name, why):
    src = tree(tmp_path / "src", {"ok.bin": b"1", name: b"2"})
    proc = taco("create", "--from", src, out_dir / "ds.tacozip")
    assert_failed(proc, 1, "invalid sample id", name, why)
    assert list(out_dir.iterdir()) == []


def test_metadata_table_without_key_column(src, tmp_path, out_dir):
    (tmp_path / "meta.csv").write_text("file,label\na/x.bin,cat\n")
    proc = taco("create", "--from", src, out_dir / "ds.tacozip", "--metadata", tmp_path / "meta.csv")
    assert_failed(proc, 1, "meta.csv", "no key column 'path'", "file, label")
    assert list(out_dir.iterdir()) == []


def test_metadata_table_with_unknown_path(src, tmp_path, out_dir):
    (tmp_path / "meta.csv").write_text("path,label\na/x.bin,cat\na/nope.bin,dog\n")
    proc = taco("create", "--from", src, out_dir / "ds", "--metadata", tmp_path / "meta.csv")
    assert_failed(proc, 1, "meta.csv", "not in the input directory", "'a/nope.bin'")
    assert list(out_dir.iterdir()) == []


def test_metadata_table_with_invalid_column_name(src, tmp_path, out_dir):
    (tmp_path / "meta.csv").write_text("path,internal:offset\na/x.bin,1\n")
    proc = taco("create", "--from", src, out_dir / "ds", "--metadata", tmp_path / "meta.csv")
    assert_failed(proc, 1, "meta.csv", "internal:offset", "reserved")
    assert list(out_dir.iterdir()) == []


# ---- usage and I/O errors: exit 2 ----------------------------------------------------------------


def test_missing_input_directory(tmp_path, out_dir):
    proc = taco("create", "--from", tmp_path / "nowhere", out_dir / "ds.tacozip")
    assert_failed(proc, 2, "input directory not found", str(tmp_path / "nowhere"))
    assert list(out_dir.iterdir()) == []


def test_missing_from_option_is_a_usage_error(out_dir):
    proc = taco("create", out_dir / "ds.tacozip")
    assert proc.returncode == 2
    assert "--from" in proc.stderr
    assert list(out_dir.iterdir()) == []


def test_missing_metadata_table(src, tmp_path, out_dir):
    proc = taco("create", "--from", src, out_dir / "ds.tacozip", "--metadata", tmp_path / "absent.parquet")
    assert_failed(proc, 2, "metadata table not found", "absent.parquet")
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("name,content", [("meta.parquet", b"PAR1 this is not parquet PAR1"),
                                          ("meta.json", b"{\"path\": [unterminated")])
def test_malformed_metadata_table(src, tmp_path, out_dir, name, content):
    (tmp_path / name).write_bytes(content)
    proc = taco("create", "--from", src, out_dir / "ds.tacozip", "--metadata", tmp_path / name)
    assert_failed(proc, 2, "cannot read metadata table", name)
    assert list(out_dir.iterdir()) == []


def test_reserved_folder_name_is_refused(src, out_dir):
    proc = taco("create", "--from", src, out_dir / "DATA")
    assert_failed(proc, 2, "'DATA'", "reserved")
    assert list(out_dir.iterdir()) == []


# ---- existing outputs and crash safety -----------------------------------------------------------


def test_existing_zip_is_refused_and_untouched(src, out_dir):
    out = out_dir / "ds.tacozip"
    out.write_bytes(b"precious")
    proc = taco("create", "--from", src, out)
    assert_failed(proc, 2, "already exists", str(out))
    assert out.read_bytes() == b"precious"
    assert sorted(p.name for p in out_dir.iterdir()) == ["ds.tacozip"]


def test_existing_folder_is_refused_and_untouched(src, out_dir):
    out = out_dir / "ds"
    tree(out, {"keep.txt": b"precious"})
    proc = taco("create", "--from", src, out)
    assert_failed(proc, 2, "already exists", str(out))
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert sorted(p.name for p in out_dir.iterdir()) == ["ds"]


def test_overwrite_replaces_a_zip(src, out_dir):
    out = out_dir / "ds.tacozip"
    assert taco("create", "--from", tree(src.parent / "old", {"o.bin": b"old"}), out).returncode == 0
    proc = taco("create", "--from", src, out, "--overwrite", "--json")
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out) as zf:
        assert zf.namelist()[0] == "TACO_HEADER"
        assert zf.read("DATA/b/y.bin") == b"by!!"
    assert sorted(p.name for p in out_dir.iterdir()) == ["ds.tacozip"]


def test_overwrite_replaces_a_folder(src, out_dir):
    out = out_dir / "ds"
    assert taco("create", "--from", tree(src.parent / "old", {"o.bin": b"old"}), out).returncode == 0
    tree(out, {"stale.txt": b"old", "DATA/zzz": b"old"})
    proc = taco("create", "--from", src, out, "--overwrite")
    assert proc.returncode == 0, proc.stderr
    assert not (out / "stale.txt").exists() and not (out / "DATA/zzz").exists()
    assert (out / "DATA/a/y.bin").read_bytes() == b"ay!"
    assert sorted(p.name for p in out_dir.iterdir()) == ["ds"]


def test_failed_overwrite_keeps_the_old_dataset(tmp_path, out_dir):
    src = tree(tmp_path / "src", {"a/x.bin": b"1", "b.bin": b"2"})  # PIT violation
    out = out_dir / "ds.tacozip"
    assert taco("create", "--from", tree(tmp_path / "old", {"o.bin": b"old"}), out).returncode == 0
    before = out.read_bytes()
    proc = taco("create", "--from", src, out, "--overwrite")
    assert proc.returncode == 1
    assert out.read_bytes() == before
    assert leftovers(out_dir) == []


def _limit_file_size(limit: int):
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writes past the limit fail with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("name", ["ds.tacozip", "ds"])
def test_write_error_midway_leaves_nothing_behind(tmp_path, out_dir, name):
    """A write that fails half-way (file size limit) removes the partial output."""
    src = tree(tmp_path / "src", {"small.bin": b"s", "big.bin": os.urandom(1 << 20), "z.bin": b"z"})
    proc = subprocess.run([str(TACO), "create", "--from", str(src), str(out_dir / name)],
                          capture_output=True, text=True, timeout=300, preexec_fn=_limit_file_size(256 << 10))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("taco: error: ")
    assert list(out_dir.iterdir()) == [], "partial output left behind"


def test_missing_sample_file_behind_a_broken_symlink(tmp_path, out_dir):
    src = tree(tmp_path / "src", {"ok.bin": b"1"})
    (src / "gone.bin").symlink_to(tmp_path / "deleted.bin")
    proc = taco("create", "--from", src, out_dir / "ds.tacozip")
    assert_failed(proc, 2, str(src / "gone.bin"))
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("name", ["ds.tacozip", "ds"])
def test_non_utf8_file_name_is_refused(tmp_path, out_dir, name):
    src = tmp_path / "src"
    src.mkdir()
    (src / "ok.bin").write_bytes(b"1")
    with open(os.fsencode(src) + b"/caf\xe9.bin", "wb") as f:  # a Latin-1 file name
        f.write(b"2")
    proc = subprocess.run([str(TACO), "create", "--from", str(src), str(out_dir / name)], capture_output=True, timeout=60)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, stderr
    assert "invalid sample id" in stderr and "UTF-8" in stderr, stderr
    assert list(out_dir.iterdir()) == []


def test_ctrl_c_stops_and_removes_the_partial_output(tmp_path, out_dir):
    """SIGINT while writing: exit 130 and nothing left. The signal is sent when the progress bar
    shows the first file done; the next file is a > 4 GiB sparse one (seconds of CRC work, no disk
    use: the ZIP writer keeps holes), so the signal always lands before the last file."""
    src = tree(tmp_path / "src", {"a_small.bin": b"a", "c_small.bin": b"c"})
    with open(src / "b_big.bin", "wb") as f:
        f.truncate((4 << 30) + 1)
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(TACO), "create", "--from", str(src), str(out_dir / "ds.tacozip")],
                            stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    try:
        shown = b""
        while b"\r[" not in shown:
            ready, _, _ = select.select([master], [], [], 120)  # a guard against hanging, not a wait
            assert ready, f"no progress shown: {shown!r}"
            shown += os.read(master, 4096)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=300)
        rest = b""
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            rest += data
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
        (src / "b_big.bin").unlink()  # sparse, but 4 GiB to anything that copies it
    assert proc.returncode == 130, (shown + rest).decode(errors="replace")
    assert b"interrupted" in rest
    assert list(out_dir.iterdir()) == []


def test_a_split_create_names_the_collection_with_its_totals(tmp_path):
    # The totals are the collection's: the summary line names the output asked for and the
    # number of parts, not part 1 (which holds 2 of the 6 files).
    files = tree(tmp_path / "six", {f"f{i}.bin": bytes([i]) * 10000 for i in range(6)})
    out = tmp_path / "out.tacozip"
    proc = taco("create", "--from", files, out, "--split-size", "25KB")
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith(f"created 3 parts of {out} (zip, "), first
    assert ", 6 files, 1 level: 6 rows)" in first


def test_collection_integer_beyond_64_bits_is_refused_not_rounded(src, tmp_path):
    # nlohmann (like JavaScript) reads such a literal as a double: written back, the user's
    # 123456789012345678901234567890 would become 1.2345678901234568e+29 without a word.
    fields = tmp_path / "c.json"
    fields.write_text('{"mission": {"orbits": [1, 123456789012345678901234567890]}}')
    out = tmp_path / "out.tacozip"
    proc = taco("create", "--from", src, out, "--collection", fields)
    assert proc.returncode == 1
    assert ("'mission.orbits[1]' is the integer 123456789012345678901234567890, which does not "
            "fit in 64 bits") in proc.stderr
    assert "Give it as a string" in proc.stderr
    assert not out.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["c.json", "src"]
    fields.write_text('{"mission": {"orbits": [1, "123456789012345678901234567890"], '
                      '"max": 18446744073709551615}}')
    proc = taco("create", "--from", src, out, "--collection", fields, "-q")
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out) as z:
        doc = json.loads(z.read("COLLECTION.json"))
    assert doc["mission"] == {"orbits": [1, "123456789012345678901234567890"],
                              "max": 18446744073709551615}
