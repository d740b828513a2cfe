"""Hostile inputs and outputs (hardening issue): --overwrite replaces only a TACO dataset, reads
never leave a FOLDER dataset, deep JSON is refused instead of crashing, non-regular files are
refused instead of blocking.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"


def taco(*args, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("timeout", 120)
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True, **kwargs)


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def src(tmp_path) -> Path:
    return tree(tmp_path / "in", {"a.bin": b"aa", "b.bin": b"bbb"})


# --- 1. --overwrite replaces only a TACO dataset ------------------------------------------------


def test_overwrite_refuses_a_directory_of_unrelated_files(src, tmp_path):
    out = tree(tmp_path / "photos", {"holiday.jpg": b"precious", "sub/more.jpg": b"also"})
    proc = taco("create", "--from", src, out, "--overwrite")
    assert proc.returncode == 2, proc.stderr
    assert "refusing to overwrite" in proc.stderr and "COLLECTION.json" in proc.stderr
    assert snapshot(out) == {"holiday.jpg": b"precious", "sub/more.jpg": b"also"}


def test_overwrite_refuses_a_file_that_is_not_a_taco_zip(src, tmp_path):
    out = tmp_path / "thesis.zip"
    out.write_bytes(b"PK\x03\x04 not a taco zip")
    proc = taco("create", "--from", src, out, "--overwrite")
    assert proc.returncode == 2 and "not a TACO ZIP" in proc.stderr
    assert out.read_bytes() == b"PK\x03\x04 not a taco zip"


def test_overwrite_refuses_a_device_node(src, tmp_path):
    link_free = tmp_path / "null-device"
    os.mkfifo(link_free)  # a FIFO stands for any non-regular file a user may create
    proc = taco("create", "--from", src, link_free, "--overwrite")
    assert proc.returncode == 2 and "not a regular file or directory" in proc.stderr
    assert Path(link_free).is_fifo()
    proc = taco("create", "--from", src, "/dev/null", "--overwrite", "--format", "folder")
    assert proc.returncode == 2 and "/dev/null" in proc.stderr
    assert Path("/dev/null").is_char_device()


def test_overwrite_refuses_a_symlink(src, tmp_path):
    real = tmp_path / "real.tacozip"
    assert taco("create", "--from", src, real).returncode == 0
    link = tmp_path / "link.tacozip"
    link.symlink_to(real)
    proc = taco("create", "--from", src, link, "--overwrite")
    assert proc.returncode == 2 and "symbolic link" in proc.stderr
    assert link.is_symlink()


def test_overwrite_refuses_the_input_and_its_parent(tmp_path):
    sandbox = tree(tmp_path / "sb", {"in/a.bin": b"a", "in/b.bin": b"b", "sibling.txt": b"keep"})
    before = snapshot(sandbox)
    for out in (sandbox, sandbox / "in"):
        proc = taco("create", "--from", sandbox / "in", out, "--overwrite")
        assert proc.returncode == 2, proc.stderr
        assert "refusing to overwrite" in proc.stderr
    assert snapshot(sandbox) == before


def test_overwrite_refuses_a_dataset_holding_an_input(tmp_path):
    ds = tmp_path / "ds"
    assert taco("create", "--from", tree(tmp_path / "in", {"a.bin": b"a"}), ds).returncode == 0
    tree(ds, {"extra/x.bin": b"x"})  # an input inside the dataset about to be replaced
    before = snapshot(ds)
    proc = taco("create", "--from", ds / "extra", ds, "--overwrite")
    assert proc.returncode == 2 and "contains an input" in proc.stderr
    assert snapshot(ds) == before


def test_overwrite_replaces_a_taco_dataset_atomically(src, tmp_path):
    for name in ("ds.tacozip", "ds"):
        out = tmp_path / name
        assert taco("create", "--from", tree(tmp_path / "old", {"o.bin": b"old"}), out).returncode == 0
        proc = taco("create", "--from", src, out, "--overwrite")
        assert proc.returncode == 0, proc.stderr
        assert taco("cat", out, "b.bin").stdout == "bbb"
    assert not [p for p in tmp_path.iterdir() if ".partial-" in p.name or ".replaced-" in p.name]


# --- 2. reads never leave a FOLDER dataset ------------------------------------------------------


def _rewrite_column(parquet: Path, column: str, values: list) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(parquet)
    i = table.schema.get_field_index(column)
    table = table.set_column(i, table.schema.field(i), pa.array(values, table.schema.field(i).type))
    pq.write_table(table, parquet)


@pytest.fixture
def folder_ds(tmp_path) -> Path:
    ds = tmp_path / "ds"
    assert taco("create", "--from", tree(tmp_path / "in", {"a.bin": b"aa", "b.bin": b"bbb"}), ds).returncode == 0
    return ds


@pytest.mark.parametrize("hostile", ["../../../../../../../../etc/passwd", "..", "__meta__"])
def test_hostile_level0_id_reads_nothing_outside(folder_ds, hostile):
    _rewrite_column(folder_ds / "METADATA/level0.parquet", "id", ["a.bin", hostile])
    if "/" not in hostile:  # a ROWPATH splits at '/'; the library test reads that one by position
        proc = taco("cat", folder_ds, hostile)
        assert proc.returncode != 0 and "root:" not in proc.stdout
        assert "does not stay inside the dataset" in proc.stderr, proc.stderr
    proc = taco("ls", folder_ds, "--json")
    assert "root:" not in proc.stdout
    proc = taco("validate", folder_ds, "--json")
    assert proc.returncode == 1, proc.stdout
    assert any(f["code"] == "row.id" for f in json.loads(proc.stdout)["findings"])


def test_symlink_out_of_data_is_refused_and_reported(folder_ds):
    target = folder_ds / "DATA/b.bin"
    target.unlink()
    target.symlink_to("/etc/passwd")
    proc = taco("cat", folder_ds, "b.bin")
    assert proc.returncode != 0 and "root:" not in proc.stdout
    assert "symbolic link" in proc.stderr
    assert taco("cat", folder_ds, "a.bin").stdout == "aa"
    proc = taco("validate", folder_ds, "--json")
    assert proc.returncode == 1
    codes = [f["code"] for f in json.loads(proc.stdout)["findings"]]
    assert "folder.outside" in codes, codes


# --- 3. deep or repeated JSON is refused, never a crash -----------------------------------------


def _set_collection(ds: Path, text: str) -> None:
    (ds / "COLLECTION.json").write_text(text)


@pytest.fixture
def deep_extension(folder_ds) -> str:
    doc = json.loads((folder_ds / "COLLECTION.json").read_text())
    text = json.dumps(doc)[:-1] + ', "x:deep": ' + "[" * 100_000 + "]" * 100_000 + "}"
    return text


def test_deeply_nested_collection_json_is_refused(folder_ds, deep_extension):
    _set_collection(folder_ds, deep_extension)
    for args in (["info", folder_ds], ["ls", folder_ds], ["sql", folder_ds, "SELECT 1"]):
        proc = taco(*args)
        assert proc.returncode == 1, (args, proc.returncode, proc.stderr[-300:])
        assert "nested deeper than 256 levels" in proc.stderr and "COLLECTION.json" in proc.stderr
    proc = taco("validate", folder_ds, "--json")
    assert proc.returncode == 1, proc.stderr[-300:]
    assert "nested deeper than 256" in proc.stdout


def test_deeply_nested_collection_file_is_refused_by_create(src, tmp_path):
    collection = tmp_path / "collection.json"
    collection.write_text('{"x:deep": ' + "[" * 100_000 + "]" * 100_000 + "}")
    proc = taco("create", "--from", src, tmp_path / "out.tacozip", "--collection", collection)
    assert proc.returncode == 1, proc.stderr[-300:]
    assert "nested deeper than 256" in proc.stderr
    assert not (tmp_path / "out.tacozip").exists()


def test_nesting_up_to_the_limit_loads(folder_ds):
    doc = json.loads((folder_ds / "COLLECTION.json").read_text())
    text = json.dumps(doc)[:-1] + ', "x:deep": ' + "[" * 250 + "]" * 250 + "}"
    _set_collection(folder_ds, text)
    proc = taco("info", folder_ds, "--json")
    assert proc.returncode == 0, proc.stderr


def test_duplicate_key_in_collection_json_is_refused(folder_ds):
    text = (folder_ds / "COLLECTION.json").read_text()
    _set_collection(folder_ds, text.replace('"id":', '"id": "first", "id":', 1))
    proc = taco("info", folder_ds)
    assert proc.returncode == 1 and "duplicate key 'id'" in proc.stderr, proc.stderr


def test_huge_number_gives_a_short_message(folder_ds):
    doc = (folder_ds / "COLLECTION.json").read_text()
    _set_collection(folder_ds, doc[:-1] + ', "x:big": ' + "9" * 100_000 + "e99999999999}")
    proc = taco("info", folder_ds)
    assert proc.returncode == 1
    assert len(proc.stderr) < 1000 and "COLLECTION.json" in proc.stderr, proc.stderr[:2000]


# --- 4. no hangs: non-regular files, pad_to, runaway queries, termination signals ---------------

import signal  # noqa: E402
import time  # noqa: E402

RUNAWAY = "SELECT sum(hash(i)) FROM range(1000000000000) t(i)"  # hours of work, no memory


def test_fifo_as_dataset_path_is_refused(tmp_path):
    for name in ("fifo.tacozip", "fifo"):
        fifo = tmp_path / name
        os.mkfifo(fifo)
        for command in ("info", "validate", "ls"):
            proc = taco(command, fifo, timeout=20)
            assert proc.returncode in (1, 2), proc.stderr
            assert "FIFO" in proc.stderr or "FIFO" in proc.stdout or "not a TACO dataset" in proc.stderr, (
                command, proc.stderr, proc.stdout)


@pytest.mark.parametrize("member", ["COLLECTION.json", "METADATA/level0.parquet", "METADATA/level1.parquet"])
def test_fifo_inside_a_folder_dataset_is_refused(folder_ds, member):
    (folder_ds / member).unlink(missing_ok=True)
    os.mkfifo(folder_ds / member)
    for command in ("info", "validate", "ls"):
        proc = taco(command, folder_ds, timeout=20)
        assert proc.returncode in (1, 2), (command, proc.stderr)


def test_fifo_as_collection_or_input_is_refused(src, tmp_path):
    fifo = tmp_path / "collection.json"
    os.mkfifo(fifo)
    proc = taco("create", "--from", src, tmp_path / "o.tacozip", "--collection", fifo, timeout=20)
    assert proc.returncode == 2 and "FIFO" in proc.stderr, proc.stderr
    os.mkfifo(src / "c.bin")
    proc = taco("create", "--from", src, tmp_path / "o.tacozip", timeout=20)
    assert proc.returncode == 2 and "neither a regular file nor a directory" in proc.stderr, proc.stderr
    assert not (tmp_path / "o.tacozip").exists()


def test_pad_to_is_bounded(src, tmp_path):
    start = time.monotonic()
    proc = taco("create", "--from", src, tmp_path / "o.tacozip", "--pad-to", "100000000", timeout=60)
    assert proc.returncode == 1 and "pad_to 100000000" in proc.stderr, proc.stderr
    assert time.monotonic() - start < 30
    assert taco("create", "--from", src, tmp_path / "p.tacozip", "--pad-to", "1000").returncode == 0


def test_sql_timeout_interrupts_a_runaway_query(folder_ds):
    start = time.monotonic()
    proc = taco("sql", folder_ds, RUNAWAY, "--timeout", "1", timeout=60)
    assert proc.returncode == 3, proc.stderr
    assert "--timeout" in proc.stderr
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_termination_signal_ends_a_running_query(folder_ds, sig):
    proc = subprocess.Popen([str(TACO), "sql", str(folder_ds), RUNAWAY], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    time.sleep(1.0)
    proc.send_signal(sig)
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"{sig!r} did not end taco sql")
    # 128 + N for the signal that stopped it (USER-GUIDE "Exit codes"): 143, 130, 129
    stderr = proc.stderr.read().decode()
    assert proc.returncode == 128 + sig, (proc.returncode, stderr)
    # Said as an interruption, not as the DuckDB error the stop raised inside the query.
    assert stderr.strip() in ("taco: error: interrupted", "taco: interrupted"), stderr


def test_a_stop_asked_before_the_query_starts_ends_it_at_once(folder_ds):
    # The interrupt reached only a statement already running: a Ctrl-C during load() (before the
    # query) was lost, the runaway query ran on, and after the 3 s grace the process died saying
    # only "taco: interrupted", even under --json.
    for extra, expected in (([], "taco: error: interrupted"),
                            (["--json"], '{"error":"interrupted","kind":"Interrupted"')):
        # Started with SIGINT blocked (the mask survives exec, and taco blocks it too before its
        # watcher takes it): the signal sent now is taken as soon as taco starts, before load()
        # has run a single statement.
        proc = subprocess.Popen([str(TACO), "sql", str(folder_ds), RUNAWAY, *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_BLOCK,
                                                                          {signal.SIGINT}))
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=15)
        assert proc.returncode == 130, stderr
        assert stderr.strip().startswith(expected), stderr
        assert time.monotonic() - start < 2.5, "waited for the grace period"


def test_validate_stopped_midway_says_interrupted_not_invalid_or_valid(tmp_path):
    # A collection of 60 parts: validate compares each part with the index, query after query.
    # Stopped midway it printed INVALID (a check cut short became a finding naming DuckDB's
    # "INTERRUPT Error") or, when the stop fell between two queries, "valid".
    files = {f"f{i:03d}.bin": bytes([i]) * 2000 for i in range(60)}
    out = tmp_path / "out" / "ds.tacozip"
    assert taco("create", "--from", tree(tmp_path / "in", files), out, "--split-size", "2KB",
                "--quiet").returncode == 0
    start = time.monotonic()
    assert taco("validate", out.parent).returncode == 0
    full = time.monotonic() - start
    for fraction in (0.3, 0.6):
        proc = subprocess.Popen([str(TACO), "validate", str(out.parent), "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(max(0.2, full * fraction))
        if proc.poll() is not None:  # ended before the signal (a fast run): nothing to see
            proc.communicate()
            continue
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=30)
        assert proc.returncode == 130, (proc.returncode, stdout[-300:], stderr)
        assert json.loads(stderr)["kind"] == "Interrupted", stderr
        assert "INTERRUPT" not in stdout + stderr


# --- 5. sizes from a file are checked against the file before anything is allocated ------------

import resource  # noqa: E402
import struct  # noqa: E402


def _limit_memory(limit: int):
    def apply():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def test_validate_does_not_trust_a_directory_size(src, tmp_path):
    out = tmp_path / "ds.tacozip"
    assert taco("create", "--from", src, out).returncode == 0
    data = bytearray(out.read_bytes())
    data[41] = 0  # header slot count 0 with filled slots: validate falls back on the directory
    at = data.find(b"PK\x01\x02")
    patched = False
    while at >= 0:
        name_len = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46:at + 46 + name_len] == b"COLLECTION.json":
            struct.pack_into("<I", data, at + 24, 0xFFFFFFF0)  # uncompressed size: 4 GiB
            patched = True
        at = data.find(b"PK\x01\x02", at + 4)
    assert patched
    out.write_bytes(bytes(data))
    # The allocation a trusted 4 GiB size would make fails: under ASan (which reserves terabytes
    # of address space, so no RLIMIT_AS) through its own allocation limit.
    sanitized = bool(os.environ.get("TACO_SANITIZED"))
    env = dict(os.environ, ASAN_OPTIONS="max_allocation_size_mb=3072:allocator_may_return_null=0")
    proc = subprocess.run([str(TACO), "validate", str(out), "--json"], capture_output=True, text=True,
                          timeout=120, env=env, preexec_fn=None if sanitized else _limit_memory(3 << 30))
    assert proc.returncode == 1, proc.stderr
    findings = json.loads(proc.stdout)["findings"]
    # The local header (the real size) contradicts the directory: the directory is refused, so
    # the size is never used (before local headers were compared: "past the end of the file").
    assert any(f["code"] == "zip.directory" and re.search(r"the directory says \d+/4294967280", f["message"])
               for f in findings), findings


# --- 6. integrity: the header CRC and pit_schema's root count are verified at load ---------------

import zlib  # noqa: E402


@pytest.fixture
def nested_zip(tmp_path) -> Path:
    src = tree(tmp_path / "nin", {"s1/x.bin": b"1", "s1/y.bin": b"2", "s2/x.bin": b"3", "s2/y.bin": b"4",
                                  "s3/x.bin": b"5", "s3/y.bin": b"6"})
    out = tmp_path / "nested.tacozip"
    assert taco("create", "--from", src, out).returncode == 0
    return out


def test_damaged_header_crc_is_refused(nested_zip):
    data = bytearray(nested_zip.read_bytes())
    data[14] ^= 0xFF
    nested_zip.write_bytes(bytes(data))
    for command in ("info", "ls"):
        proc = taco(command, nested_zip)
        assert proc.returncode == 1 and "stored CRC-32" in proc.stderr, proc.stderr
    proc = taco("validate", nested_zip, "--json")
    assert proc.returncode == 1
    assert any(f["code"] == "zip.header-crc" for f in json.loads(proc.stdout)["findings"])


def test_header_pointing_level0_at_level1_is_refused(nested_zip):
    data = bytearray(nested_zip.read_bytes())
    slot0, slot1 = data[45:61], data[61:77]
    data[45:61], data[61:77] = slot1, slot0  # level 0 <-> level 1, CRC recomputed as a writer would
    struct.pack_into("<I", data, 14, zlib.crc32(bytes(data[41:157])))
    nested_zip.write_bytes(bytes(data))
    proc = taco("info", nested_zip)
    assert proc.returncode == 1, proc.stdout
    assert "root.n is 3" in proc.stderr and "6 rows" in proc.stderr, proc.stderr
    proc = taco("validate", nested_zip)
    assert proc.returncode == 1


def test_header_with_deeper_levels_swapped_is_refused(tmp_path):
    # Levels 1 and 2 swapped: root.n still matches, so only the deeper counts can tell.
    src = tree(tmp_path / "deep", {f"s{i}/{f}/{n}": b"x" for i in range(3) for f in ("a", "b")
                                   for n in ("p.bin", "q.bin", "r.bin")})
    out = tmp_path / "deep.tacozip"
    assert taco("create", "--from", src, out).returncode == 0
    data = bytearray(out.read_bytes())
    assert data[41] == 4  # three levels and COLLECTION.json
    slot1, slot2 = data[61:77], data[77:93]
    data[61:77], data[77:93] = slot2, slot1
    struct.pack_into("<I", data, 14, zlib.crc32(bytes(data[41:157])))
    out.write_bytes(bytes(data))
    proc = taco("sql", out, "SELECT count(*) FROM level1")
    assert proc.returncode == 1, proc.stdout
    assert "gives level 1 6 rows" in proc.stderr and "level1.parquet has 18" in proc.stderr, proc.stderr


# --- 7. messages: short, no internal SQL or descriptor paths, one exit code per kind ------------


def _corrupt_level0(ds_or_zip: Path) -> None:
    """Overwrites the middle of level 0's Parquet bytes (its footer stays readable)."""
    if ds_or_zip.is_dir():
        p = ds_or_zip / "METADATA/level0.parquet"
        data = bytearray(p.read_bytes())
        for i in range(8, len(data) // 3):
            data[i] = 0xAB
        p.write_bytes(bytes(data))
        return
    data = bytearray(ds_or_zip.read_bytes())
    offset, size = struct.unpack_from("<QQ", data, 45)
    for i in range(offset + 8, offset + size // 3):
        data[i] = 0xAB
    ds_or_zip.write_bytes(bytes(data))


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_corrupt_parquet_is_exit_1_without_internal_sql(src, tmp_path, kind):
    out = tmp_path / ("ds.tacozip" if kind == "zip" else "ds")
    assert taco("create", "--from", src, out).returncode == 0
    _corrupt_level0(out)
    for args in (["info", out], ["ls", out], ["sql", out, "SELECT * FROM data"], ["validate", out]):
        proc = taco(*args)
        text = proc.stderr + proc.stdout
        assert proc.returncode == 1, (args, proc.returncode, text)
        assert "/proc/self/fd" not in text and "WITH data AS" not in text and "read_parquet(" not in text, text


def test_user_sql_error_shows_no_rewrite(folder_ds):
    proc = taco("sql", folder_ds, "SELECT nosuchcolumn FROM data")
    assert proc.returncode == 2
    assert "nosuchcolumn" in proc.stderr and "WITH data AS" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_explain_shows_the_plan_without_internal_sql(src, tmp_path, kind):
    out = tmp_path / ("ds.tacozip" if kind == "zip" else "ds")
    assert taco("create", "--from", src, out).returncode == 0
    query = "EXPLAIN ANALYZE SELECT id FROM data WHERE type = 'FILE'"
    proc = taco("sql", out, query)
    assert proc.returncode == 0, proc.stderr
    # Printed as DuckDB's shell prints a plan: the boxes on their own lines, not a flattened cell.
    assert "Query Profiling Information" in proc.stdout and "READ_PARQUET" in proc.stdout
    assert "\n" + query + "\n" in proc.stdout, proc.stdout  # the echo is the user's statement
    assert "WITH data AS" not in proc.stdout and "/proc/self/fd" not in proc.stdout, proc.stdout
    rows = json.loads(taco("sql", "--json", out, "EXPLAIN SELECT count(*) FROM data").stdout)
    assert [r["explain_key"] for r in rows] == ["physical_plan"]
    assert "READ_PARQUET" in rows[0]["explain_value"]
    bad = taco("sql", out, "EXPLAIN SELECT nosuchcolumn FROM data")
    assert bad.returncode == 2 and "nosuchcolumn" in bad.stderr and "WITH data" not in bad.stderr


def test_long_id_is_shortened_in_messages(folder_ds):
    proc = taco("cat", folder_ds, "x" * 100_000)
    assert proc.returncode == 2
    assert len(proc.stderr) < 1000 and "100000 bytes" in proc.stderr, proc.stderr[:300]


def test_csv_lines_end_with_lf(folder_ds):
    proc = taco("sql", folder_ds, "SELECT id FROM data ORDER BY id", "--csv")
    assert proc.returncode == 0
    assert proc.stdout == "id\na.bin\nb.bin\n"


# --- 8. --sandbox: the query reaches only the dataset ------------------------------------------


@pytest.mark.parametrize("kind", ["zip", "folder"])
def test_sandbox_limits_sql_to_the_dataset(src, tmp_path, kind):
    out = tmp_path / ("ds.tacozip" if kind == "zip" else "ds")
    assert taco("create", "--from", src, out).returncode == 0
    # Without the sandbox a user may join their own files (the default stays).
    proc = taco("sql", out, "SELECT count(*) AS n FROM read_csv('/etc/passwd', header=false)", "--json")
    assert proc.returncode == 0, proc.stderr
    for query in ("SELECT * FROM read_csv('/etc/passwd', header=false)", "SELECT * FROM glob('/etc/*')",
                  "SET enable_external_access = true", "SELECT * FROM read_text('/etc/hostname')",
                  "COPY (SELECT 1) TO '/tmp/escape.csv'"):
        proc = taco("sql", out, query, "--sandbox")
        assert proc.returncode == 2, (query, proc.stdout)
        assert "root:" not in proc.stdout
    proc = taco("sql", out, "SELECT id FROM data ORDER BY id", "--sandbox", "--csv")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "id\na.bin\nb.bin\n"
    proc = taco("sql", out, "SELECT current_setting('memory_limit') AS m", "--sandbox", "--csv")
    assert proc.returncode == 0 and proc.stdout.splitlines()[1].strip().startswith(("1.0 GiB", "953.6 MiB")), proc.stdout


def test_sandbox_does_not_follow_links_planted_in_a_folder_dataset(tmp_path):
    """A FOLDER dataset with `root -> /` (or a link under DATA/): the sandbox used to allow the
    dataset's directory, so a query read any file through the link. It now allows the level
    tables by name; navigation still reads every `__meta__` (through copies)."""
    ds = tmp_path / "nested"
    shutil.copytree(FIXTURES / "tacoreader" / "folder" / "nested", ds)
    secret = tmp_path / "secret.txt"
    secret.write_text("root-secret")
    (ds / "root").symlink_to(tmp_path)
    (ds / "DATA" / "notes").symlink_to(secret)
    for path in (ds / "root" / "secret.txt", ds / "DATA" / "notes"):
        proc = taco("sql", ds, f"SELECT content FROM read_text('{path}')", "--sandbox")
        assert proc.returncode == 2, proc.stdout
        assert "root-secret" not in proc.stdout + proc.stderr
        # without the sandbox the user reads their own files, as before
        assert "root-secret" in taco("sql", ds, f"SELECT content FROM read_text('{path}')", "--json").stdout
    proc = taco("sql", ds, "SELECT count(*) AS n FROM level1", "--sandbox", "--csv")
    assert proc.returncode == 0 and proc.stdout.splitlines()[1] == "9", proc.stderr
    # navigation reads __meta__ files, which the sandbox no longer lets DuckDB open by name
    import tacocore
    with tacocore.load(str(ds), sandbox=True) as sandboxed:
        children = sandboxed.read("europe").to_arrow().column("id").to_pylist()
    with tacocore.load(str(ds)) as plain:
        assert children == plain.read("europe").to_arrow().column("id").to_pylist()
    assert len(children) == 3
