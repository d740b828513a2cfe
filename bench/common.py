"""Shared pieces of the benchmark harness: the case catalogue, data preparation, the measuring
loop (fresh process per run, page cache warmed the same way, peak RSS from GNU time) and the
output checks. Used by run.py, reference_runner.py and tacocore_runner.py."""
from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.environ.get("TACOCORE_BENCH_OUT") or os.path.join(HERE, "out")   # see set_out()
DATA = os.path.join(OUT, "data")
PY = sys.executable


def set_out(path: str) -> None:
    """Where generated inputs, fixtures, run directories and raw results go (git-ignored)."""
    global OUT, DATA
    OUT = os.path.abspath(path)
    DATA = os.path.join(OUT, "data")
    os.environ["TACOCORE_BENCH_OUT"] = OUT


PROFILES = ("tiny", "quick", "full")
RUNS = {"tiny": (0, 1), "quick": (1, 5), "full": (1, 5)}          # (warm-up runs, measured runs)
TIMEOUT = {"tiny": 120, "quick": 600, "full": 7200}                # seconds per run


@dataclasses.dataclass
class Case:
    name: str                 # unique id, e.g. "create_zip_4kib"
    scenario: int             # 1..7, the scenario number
    title: str                # human description, sizes included
    op: str                   # create_zip | create_folder | load | sql | read_position | read_id
                              # | raw | decode | decode_first | nav
    data: dict                # generate.py parameters
    keys: int = 0             # random keys (read/raw/decode/nav)
    query: str = ""           # sql cases
    threads: int = 1          # decode and raw cases
    fixture: bool = False     # reads a ZIP made once from `data` by the reference writer

    @property
    def data_dir(self) -> str:
        d = self.data
        key = (f"n{d['samples']}_{d['size_dist'].replace(':', '-')}_d{d['depth']}f{d['fanout']}"
               f"_k{d['columns']}{'_tif' if d['geotiff'] else ''}_s{d['seed']}"
               f"{'_nofiles' if d.get('files') is False else ''}")
        return os.path.join(DATA, key)


SCENARIOS = {
    1: "create ZIP",
    2: "create FOLDER",
    3: "load + materialize level 0",
    4: "sql filter",
    5: "read by position / by id",
    6: "raw bytes and GeoTIFF decode",
    7: "navigation down a 3-level hierarchy",
}
SQL_NUMERIC = "SELECT * FROM data WHERE int_0 < 1000"
SQL_STRING = "SELECT * FROM data WHERE str_2 LIKE 'k%'"
SQL_1PCT = "SELECT * FROM data WHERE int_0 < 100"      # int_0 is uniform in 0..9999
SQL_50PCT = "SELECT * FROM data WHERE int_0 < 5000"


def gen(samples, size="fixed:0", depth=1, fanout=1, columns=0, geotiff=False, seed=0,
        files=True) -> dict:
    d = {"samples": samples, "size_dist": size, "depth": depth, "fanout": fanout,
         "columns": columns, "geotiff": geotiff, "seed": seed}
    if not files:          # only when set, so the names and caches of the other inputs stay
        d["files"] = False
    return d


def cases(profile: str) -> list[Case]:
    """The benchmark cases; sizes are (tiny, quick, full) and full is what issue 5 asks for."""
    p = PROFILES.index(profile)

    def pick(t, q, f):
        return (t, q, f)[p]

    big = pick(2, 200, 200)            # issue 2's writer floors are at 200 x 8 MiB ...
    zip_small = pick(20, 10_000, 10_000)  # ... and 10,000 x 4 KiB: cheap enough for quick
    small = pick(20, 2_000, 10_000)
    empty = pick(20, 10_000, 100_000)
    n10k = pick(30, 10_000, 10_000)
    n1m = pick(50, 100_000, 1_000_000)
    keys = pick(10, 1_000, 10_000)
    raw2 = pick(10, 10_000, 10_000)    # issue 15: 10,000 read_bytes from one dataset on 2 threads
    tifs = pick(4, 100, 1_000)
    million = pick(50, 1_000_000, 1_000_000)  # issue 15's 1M-row rows, in the quick profile too
    roots = pick(4, 100, 1_000)
    nav_keys = pick(10, 200, 1_000)
    tree = pick(4, 300, 2_000)         # a hierarchical create: one __meta__ per FOLDER
    d_small = gen(small, "fixed:4KiB")
    d_meta = gen(n1m, columns=5)
    d_tif = gen(tifs, geotiff=True)
    d_million = gen(million, columns=5, files=False)
    return [
        Case("create_zip_8mib", 1, f"{big:,} x 8 MiB", "create_zip", gen(big, "fixed:8MiB")),
        Case("create_zip_4kib", 1, f"{zip_small:,} x 4 KiB", "create_zip", gen(zip_small, "fixed:4KiB")),
        Case("create_zip_0b_5col", 1, f"{empty:,} x 0 B, 5 columns", "create_zip",
             gen(empty, columns=5)),
        Case("create_zip_tree", 1, f"{tree:,} x 4 x 4 tree of 1 KiB files ({tree * 5:,} FOLDERs), "
             "5 columns", "create_zip", gen(tree, "fixed:1KiB", depth=3, fanout=4, columns=5)),
        Case("create_folder_4kib", 2, f"{small:,} x 4 KiB", "create_folder", d_small),
        Case("load_10k", 3, f"{n10k:,} samples, 5 columns", "load", gen(n10k, columns=5),
             fixture=True),
        Case("load_1m", 3, f"{n1m:,} samples, 5 columns", "load", d_meta, fixture=True),
        Case("sql_numeric", 4, f"{n1m:,} rows: {SQL_NUMERIC}", "sql", d_meta, query=SQL_NUMERIC,
             fixture=True),
        Case("sql_string", 4, f"{n1m:,} rows: {SQL_STRING}", "sql", d_meta, query=SQL_STRING,
             fixture=True),
        Case("load_data_1m", 3, f"{million:,} samples, 5 columns (peak RSS is the row)", "load",
             d_million, fixture=True),
        Case("sql_1pct_1m", 4, f"{million:,} rows, 1 %: {SQL_1PCT}", "sql", d_million,
             query=SQL_1PCT, fixture=True),
        Case("sql_50pct_1m", 4, f"{million:,} rows, 50 %: {SQL_50PCT}", "sql", d_million,
             query=SQL_50PCT, fixture=True),
        Case("read_position", 5, f"{keys:,} random positions in {small:,} samples",
             "read_position", d_small, keys=keys, fixture=True),
        Case("read_id", 5, f"{keys:,} random ids in {small:,} samples", "read_id", d_small,
             keys=keys, fixture=True),
        Case("raw_bytes", 6, f"bytes of {keys:,} random 4 KiB samples", "raw", d_small, keys=keys,
             fixture=True),
        Case("decode_t1", 6, f"GDAL decode of {tifs:,} GeoTIFFs (256x256x4 uint16 ZSTD), 1 thread",
             "decode", d_tif, keys=tifs, threads=1, fixture=True),
        Case("decode_t2", 6, f"GDAL decode of {tifs:,} GeoTIFFs (256x256x4 uint16 ZSTD), 2 threads",
             "decode", d_tif, keys=tifs, threads=2, fixture=True),
        # Issue 15's new read rows: the cold first decode, and read_bytes from threads.
        Case("decode_first", 6, "first decode after load() (GDAL cold: its first open in the process)",
             "decode_first", d_tif, keys=1, fixture=True),
        Case("raw_bytes_t2", 6, f"bytes of {raw2:,} random 4 KiB samples of one dataset, 2 threads",
             "raw", d_small, keys=raw2, threads=2, fixture=True),
        Case("nav_3level", 7, f"{nav_keys:,} random leaf paths, {roots:,} x 4 x 4 tree",
             "nav", gen(roots, "fixed:1KiB", depth=3, fanout=4), keys=nav_keys, fixture=True),
    ]


# --- data preparation ----------------------------------------------------------------------------

def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def manifest(case: Case) -> dict:
    with open(os.path.join(case.data_dir, "manifest.json")) as fh:
        return json.load(fh)


def ensure_data(case: Case) -> dict:
    """Generates the case's inputs unless an identical generation is already on disk."""
    path = os.path.join(case.data_dir, "manifest.json")
    if os.path.exists(path):
        with open(path) as fh:
            m = json.load(fh)
        if m["params"] == case.data:
            return m
    log(f"generate {os.path.basename(case.data_dir)}")
    d = case.data
    cmd = [PY, os.path.join(HERE, "generate.py"), "--out", case.data_dir,
           "--samples", str(d["samples"]), "--size-dist", d["size_dist"], "--depth", str(d["depth"]),
           "--fanout", str(d["fanout"]), "--columns", str(d["columns"]), "--seed", str(d["seed"])]
    if d["geotiff"]:
        cmd.append("--geotiff")
    if d.get("files") is False:
        cmd.append("--no-files")
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return manifest(case)


def fixture_path(case: Case) -> str:
    return os.path.join(case.data_dir, "reference.tacozip")


def ensure_fixture(case: Case) -> str:
    """The ZIP every read scenario reads (both tools read the same file): written once by the
    reference writer and checked with the reference reader before use. Should the reference writer
    fail (e.g. past the memory cap), `taco create` writes it instead, checked the same way; the
    writer is recorded next to the fixture and in the report."""
    path = fixture_path(case)
    if os.path.exists(path):
        return path
    ensure_data(case)
    tmp = path + ".tmp.tacozip"
    if os.path.exists(tmp):
        os.remove(tmp)
    if case.data.get("files") is False:
        return metadata_only_fixture(case, path, tmp)
    log(f"fixture {os.path.relpath(path, REPO)} (reference writer)")
    spec = {"op": "create_zip", "impl": "reference", "data_dir": case.data_dir, "output": tmp}
    t0 = time.perf_counter()
    r = run_process([PY, os.path.join(HERE, "reference_runner.py"), "--child", json.dumps(spec)],
                    TIMEOUT["full"], tmp + ".log")
    writer, note = "tacotoolbox", ""
    if r["rc"] != 0:
        taco = os.path.join(os.environ.get("TACOCORE_BIN_DIR", os.path.join(REPO, "build", "bin")),
                            "taco")
        note = f"the reference writer failed ({r['error'][:200]})"
        log(f"fixture: {note}; trying {taco} create")
        if os.path.exists(tmp):
            os.remove(tmp)
        t0 = time.perf_counter()
        r = run_process([taco, "create", "--from", os.path.join(case.data_dir, "input"), tmp,
                         "--metadata", os.path.join(case.data_dir, "metadata.parquet"), "--id",
                         "bench", "--description", "tacocore benchmark input", "--license",
                         "CC-BY-4.0", "--provider", "tacocore-bench", "--task", "other"],
                        TIMEOUT["full"], tmp + ".log")
        writer = "taco create (tacocore)"
        if r["rc"] != 0:
            raise RuntimeError(f"fixture {path}: {note}; taco create failed too ({r['error']})")
    seconds = time.perf_counter() - t0
    ok, err = check_created(case, tmp)
    if not ok:
        raise RuntimeError(f"fixture {tmp} written by {writer} does not validate: {err}")
    os.rename(tmp, path)
    with open(path + ".json", "w") as fh:
        json.dump({"writer": writer, "seconds": seconds, "peak_rss_bytes": r["rss"], "note": note},
                  fh)
    for f in (tmp + ".log", tmp + ".log.err", tmp + ".log.rss"):
        if os.path.exists(f):
            os.remove(f)
    return path


def metadata_only_fixture(case: Case, path: str, tmp: str) -> str:
    """The fixture of an input set without files (zero-byte samples, the 1M-row read cases),
    written by tacocore's Python writer from the metadata table. tacotoolbox would need ~20
    minutes and more memory than the harness allows for a million samples (its Sample objects
    cost ~17 KB each); the file is checked with the reference reader like every fixture."""
    log(f"fixture {os.path.relpath(path, REPO)} (tacocore writer, metadata only)")
    code = (
        "import sys, pyarrow.parquet as pq, tacocore\n"
        "t = pq.read_table(sys.argv[1])\n"
        "tort = tacocore.Tortilla([tacocore.Sample(id=i, path=b'') "
        "for i in t.column('path').to_pylist()])\n"
        "ext = t.drop_columns(['path'])\n"
        "tort.extend_with({c: ext.column(c).to_pylist() for c in ext.column_names})\n"
        "taco = tacocore.Taco(tort, id='bench', dataset_version='1.0.0', "
        "description='tacocore benchmark input', licenses=['CC-BY-4.0'], "
        "providers=[{'name': 'tacocore-bench'}], tasks=['other'])\n"
        "tacocore.create(taco, sys.argv[2], output_format='zip')\n")
    t0 = time.perf_counter()
    r = run_process([PY, "-c", code, os.path.join(case.data_dir, "metadata.parquet"), tmp],
                    TIMEOUT["full"], tmp + ".log")
    if r["rc"] != 0:
        raise RuntimeError(f"fixture {path}: the tacocore writer failed ({r['error']})")
    seconds = time.perf_counter() - t0
    ok, err = check_created(case, tmp)
    if not ok:
        raise RuntimeError(f"fixture {tmp} written by tacocore does not validate: {err}")
    os.rename(tmp, path)
    with open(path + ".json", "w") as fh:
        json.dump({"writer": "tacocore (Python, zero-byte samples from the metadata table)",
                   "seconds": seconds, "peak_rss_bytes": r["rss"],
                   "note": "no input tree: tacotoolbox cannot write 1M samples within the cap"}, fh)
    for f in (tmp + ".log", tmp + ".log.err", tmp + ".log.rss"):
        if os.path.exists(f):
            os.remove(f)
    return path


def root_name(i: int, n: int) -> str:
    return f"s{i:0{max(len(str(n - 1)), 1)}d}"


def keys_file(case: Case) -> str:
    """Deterministic random keys, one per line: positions, ids, or id paths (nav)."""
    import numpy as np
    path = os.path.join(case.data_dir, f"keys_{case.name}_{case.keys}.txt")
    if os.path.exists(path):
        return path
    m = manifest(case)
    n = m["root_samples"]
    rng = np.random.default_rng([zlib.crc32(case.name.encode()), case.keys])
    if case.op == "nav":
        fan, depth = case.data["fanout"], case.data["depth"]
        width = max(len(str(fan - 1)), 1)
        lines = []
        for _ in range(case.keys):
            parts = [root_name(int(rng.integers(n)), n)]
            parts += [f"c{int(rng.integers(fan)):0{width}d}" for _ in range(depth - 1)]
            lines.append("/".join(parts))
    else:
        pos = rng.permutation(n)[:case.keys] if case.keys <= n else rng.integers(0, n, case.keys)
        if case.op == "read_id":
            lines = [root_name(int(i), n) for i in pos]
        else:
            lines = [str(int(i)) for i in pos]
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    return path


def read_lines(path: str) -> list[str]:
    with open(path) as fh:
        return [line.rstrip("\n") for line in fh if line.strip()]


# --- measuring ----------------------------------------------------------------------------------

def warm(paths: list[str]) -> None:
    """Reads every file under `paths` once, so each run starts with the same page-cache state."""
    buf = bytearray(1 << 20)
    for top in paths:
        files = [top] if os.path.isfile(top) else (
            os.path.join(d, f) for d, _, fs in os.walk(top) for f in fs)
        for f in files:
            with open(f, "rb", buffering=0) as fh:
                while fh.readinto(buf):
                    pass


GNU_TIME = "/usr/bin/time"


def memory_cap() -> int:
    """Address-space limit for every measured or fixture process: 60 % of RAM, so that a run
    that would exhaust memory fails with MemoryError / bad_alloc instead of waking the OOM killer
    on a machine shared with other work."""
    with open("/proc/meminfo") as fh:
        kib = next(int(line.split()[1]) for line in fh if line.startswith("MemTotal"))
    return kib * 1024 * 6 // 10


PRLIMIT = shutil.which("prlimit")


def run_process(cmd: list[str], timeout: float, stdout_path: str, env: dict | None = None) -> dict:
    """Runs cmd in a fresh process: wall time, exit code, the process's own peak RSS and its CPU
    time (user + system, every thread: what a busy machine inflates least).

    The command runs under GNU time (-f "%M %U %S"). Measuring with wait4 directly would be wrong: Linux
    records the RSS high-water mark of the memory image an exec replaces, so a child forked from
    this (large) Python process would report at least this process's size."""
    rss_file = stdout_path + ".rss"
    capped = [PRLIMIT, f"--as={memory_cap()}", "--", *cmd] if PRLIMIT else cmd
    timed = os.access(GNU_TIME, os.X_OK)
    wrapped = [GNU_TIME, "-f", "%M %U %S", "-o", rss_file, *capped] if timed else capped
    with open(stdout_path, "wb") as out, open(stdout_path + ".err", "wb") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(wrapped, stdout=out, stderr=err, env=env, cwd=REPO,
                                start_new_session=True)
        # A blocking wait, with the timeout on a timer thread: Popen.wait(timeout) polls with
        # sleeps of up to 50 ms, so every process-wall-time row (the CLI's create rows) came out
        # up to 50 ms late (0.115 s runs measured as 0.165 s; session 29).
        timed_out = threading.Event()

        def kill() -> None:
            timed_out.set()
            try:
                os.killpg(proc.pid, 9)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            rc = proc.wait()
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        if timed_out.is_set():
            return {"wall": wall, "rc": -9, "rss": None, "cpu": None,
                    "error": f"timeout after {timeout:.0f} s"}
    rss = cpu = None
    if timed and os.path.exists(rss_file):
        # The last line is "<KiB> <user s> <system s>" (a failing command has a line before it).
        fields = (open(rss_file).read().strip().splitlines() or [""])[-1].split()
        if len(fields) == 3 and fields[0].isdigit():
            rss = int(fields[0]) * 1024
            cpu = float(fields[1]) + float(fields[2])
    res = {"wall": wall, "rc": rc, "rss": rss, "cpu": cpu, "error": ""}
    if rc != 0:
        with open(stdout_path + ".err", "rb") as fh:
            tail = fh.read().decode(errors="replace").strip().splitlines()[-3:]
        res["error"] = f"exit {rc}: " + " | ".join(tail)
    return res


def last_json(path: str) -> dict:
    with open(path, "rb") as fh:
        lines = [x for x in fh.read().decode(errors="replace").splitlines() if x.startswith("{")]
    return json.loads(lines[-1]) if lines else {}


def spread_subdirectories(path: str) -> None:
    """Marks `path` as a top of a directory hierarchy for ext4's inode allocator (chattr +T), so
    each run directory created in it is placed like a directory under /: in a block group chosen
    from a hash of its name, its files in the same group.

    Why: ext4 will not reuse an inode freed in the last minutes; looking for a free one, it reads
    past every recently freed inode of the group (`recently_deleted` in `find_inode_bit`, seen
    with perf). Without the flag each run directory lands next to its parent, in the group where
    the previous run (of either tool) had just deleted its 2,000 files, and every new file paid
    for a scan of them: ~0.6 ms of kernel CPU per file instead of ~20 us (measured 2026-11-24:
    2,000 files in 1.3 s instead of 0.045 s), whichever tool created them. Which tool ran after
    which decided the create_folder rows. Not ext4, or no chattr: nothing to do."""
    try:
        subprocess.run(["chattr", "+T", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    except OSError:
        pass


def measure(case: Case, tool: str, method: str, profile: str, attempt, warm_paths: list[str],
            cleanup=None) -> dict:
    """One warm-up + N measured runs of `attempt(run_dir) -> (seconds, ok, error, info, cpu)`
    (cpu: CPU seconds of the timed section, or of the whole process for CLI rows).
    Before each run the inputs are read once (page cache warm); after each run the output is
    validated by `attempt`, removed by `cleanup`, and dirty pages are flushed (os.sync) so the
    next run does not pay for the previous one's write-back."""
    warmups, runs = RUNS[profile]
    res = {"case": case.name, "scenario": case.scenario, "tool": tool, "method": method,
           "runs": [], "cpu": [], "process_seconds": [], "rss": [], "warmup": [], "ok": True,
           "error": "", "info": {}}
    for i in range(warmups + runs):
        # A new name every run: ext4 picks a top directory's block group from a hash of its
        # name (see spread_subdirectories), so a fixed name would land every run where the
        # previous one just deleted its files.
        case_dir = os.path.join(OUT, "work", profile, tool, case.name)
        os.makedirs(case_dir, exist_ok=True)
        spread_subdirectories(case_dir)
        run_dir = os.path.join(case_dir, f"run{i}-{os.getpid()}-{os.urandom(4).hex()}")
        os.makedirs(run_dir)
        warm(warm_paths)
        r = attempt(run_dir)
        if cleanup:
            cleanup(run_dir)
        shutil.rmtree(run_dir, ignore_errors=True)
        os.sync()
        if not r["ok"]:
            res.update(ok=False, error=r["error"])
            break
        if i < warmups:
            res["warmup"].append(r["seconds"])
        else:
            res["runs"].append(r["seconds"])
            res["cpu"].append(r.get("cpu"))
            res["process_seconds"].append(r["wall"])
            res["rss"].append(r["rss"])
        res["info"] = r.get("info", {})
    res["peak_rss_bytes"] = max(res["rss"]) if res["rss"] and None not in res["rss"] else None
    return res


def work_size(case: Case, m: dict) -> tuple[int, int]:
    """(samples, bytes) one run processes; throughput = these / median seconds."""
    if case.op in ("create_zip", "create_folder"):
        return m["total_samples"], m["leaf_bytes"]
    if case.op in ("load", "sql"):
        return m["root_samples"], 0
    if case.op in ("decode", "decode_first"):
        return case.keys, case.keys * 256 * 256 * 4 * 2                # decoded pixel bytes
    if case.op == "raw":
        root, n = os.path.join(case.data_dir, "input"), m["root_samples"]
        return case.keys, sum(os.path.getsize(os.path.join(root, root_name(int(k), n)))
                              for k in read_lines(keys_file(case)))
    return case.keys, 0


def not_available(case: Case, tool: str, reason: str) -> dict:
    return {"case": case.name, "scenario": case.scenario, "tool": tool, "method": "",
            "runs": [], "ok": False, "error": f"not available: {reason}", "peak_rss_bytes": None}


# --- output checks (independent of the tool that produced the output) ----------------------------

def offline_duckdb() -> None:
    """tacoreader runs `INSTALL spatial` on every load(). Offline, DuckDB then waits ~0.55 s for
    extensions.duckdb.org on each call; pointed at an empty local repository it fails in ~40 ms
    with the same result (no spatial extension, which these cases do not use). This keeps the
    network out of the numbers and out of the harness."""
    import duckdb
    connect = duckdb.connect

    def offline_connect(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.execute("SET custom_extension_repository = '/nonexistent/tacocore-bench'")
        return db

    if getattr(duckdb.connect, "__name__", "") != "offline_connect":
        duckdb.connect = offline_connect


def read_vsi(path: str) -> bytes:
    """Bytes behind a local gdal_vsi path (/vsisubfile/OFF_SIZE,FILE or a plain file path)."""
    if path.startswith("/vsisubfile/"):
        spec, file = path[len("/vsisubfile/"):].split(",", 1)
        off, size = (int(x) for x in spec.split("_"))
        with open(file, "rb") as fh:
            fh.seek(off)
            return fh.read(size)
    with open(path, "rb") as fh:
        return fh.read()


def input_bytes(case: Case, rel: str) -> bytes:
    if case.data.get("files") is False:          # zero-byte samples, no input tree
        return b""
    with open(os.path.join(case.data_dir, "input", rel), "rb") as fh:
        return fh.read()


def check_created(case: Case, output: str) -> tuple[bool, str]:
    """The dataset loads in the reference reader, has every sample, the metadata values of the
    table, and the sample bytes of the inputs (checked on up to 12 level-0 samples)."""
    try:
        import pyarrow.parquet as pq
        offline_duckdb()
        import tacoreader
        m = manifest(case)
        n = m["root_samples"]
        ds = tacoreader.load(output)
        df = ds.data
        if len(df) != n:
            return False, f"level 0 has {len(df)} rows, expected {n}"
        tbl = df.to_arrow()
        missing = [c for c in m["columns"] if c not in tbl.column_names]
        if missing:
            return False, f"missing metadata columns {missing}"
        meta = pq.read_table(os.path.join(case.data_dir, "metadata.parquet"))
        where = {p: i for i, p in enumerate(meta.column("path").to_pylist())}
        ids = tbl.column("id").to_pylist()
        step = max(n // 10, 1)
        for i in sorted(set(list(range(0, n, step))[:10] + [n - 1])):
            if ids[i] != root_name(i, n):
                return False, f"row {i} has id {ids[i]!r}, expected {root_name(i, n)!r}"
            for c in m["columns"]:
                got, want = tbl.column(c)[i].as_py(), meta.column(c)[where[ids[i]]].as_py()
                if got != want:
                    return False, f"row {i} column {c}: {got!r} != {want!r}"
            node, rel = df.read(i), ids[i]
            while not isinstance(node, str):                   # FOLDER: follow the first child
                first = node.to_arrow().column("id")[0].as_py()
                node, rel = node.read(0), f"{rel}/{first}"
            if read_vsi(node) != input_bytes(case, rel):
                return False, f"bytes of {rel} differ from the input"
        ds.close()
        return True, ""
    except Exception as e:                                      # noqa: BLE001
        return False, f"{type(e).__name__}: {e}"


def check_results(case: Case, out_file: str, count: int) -> tuple[bool, str]:
    """Checks what a reading run reported: row counts, paths, CRC-32s, pixel sums."""
    m = manifest(case)
    n = m["root_samples"]
    if case.op == "load":
        return (count == n, "" if count == n else f"{count} rows, expected {n}")
    if case.op == "sql":
        import pyarrow.compute as pc
        import pyarrow.parquet as pq
        t = pq.read_table(os.path.join(case.data_dir, "metadata.parquet"))
        if "int_0 <" in case.query:
            bound = int(case.query.rsplit("<", 1)[1])
            want = pc.sum(pc.less(t.column("int_0"), bound)).as_py()
        else:
            want = pc.sum(pc.starts_with(t.column("str_2"), "k")).as_py()
        return (count == want, "" if count == want else f"{count} rows, expected {want}")
    keys = read_lines(keys_file(case))
    got = read_lines(out_file) if os.path.exists(out_file) else []
    if len(got) != len(keys):
        return False, f"{len(got)} results for {len(keys)} keys"

    def rel_of(k: str) -> str:
        return k if case.op in ("nav", "read_id") else root_name(int(k), n)

    if case.op == "raw":
        for k, line in zip(keys, got):
            rel = rel_of(k)
            crc, size = line.split()
            if int(crc, 16) != m["crc32"][rel] or int(size) != len(input_bytes(case, rel)):
                return False, f"sample {rel}: got crc {crc} size {size}"
        return True, ""
    if case.op in ("decode", "decode_first"):
        for k, line in zip(keys, got):
            if int(line) != m["pixel_sums"][rel_of(k)]:
                return False, f"sample {rel_of(k)}: pixel sum {line}"
        return True, ""
    step = max(len(keys) // 25, 1)                               # read_*/nav: check 25 paths
    for k, path in list(zip(keys, got))[::step]:
        if read_vsi(path) != input_bytes(case, rel_of(k)):
            return False, f"key {k}: {path} does not hold the sample's bytes"
    return True, ""
