"""A dataset inherited through fork(): dropped, collected or used in the child, never a crash.

fork() copies only the calling thread. A tacocore dataset holds a DuckDB database whose worker
threads stay in the parent; closing it in the child joined threads that do not exist, and once
the child had started a thread of its own (a DataLoader worker's queue feeder, a thread pool)
that aborted it: "terminate called without an active exception", then "Fatal Python error:
Aborted" when the garbage collector ran the destructor. Now the child leaks the inherited
database and any use of it raises TacoQueryError saying to load() again (READER.md §11).

Each case runs in its own interpreter, so that a crash of the child (or of the parent) shows as
that interpreter's exit status and stderr instead of taking pytest down with it.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import tacocore

CRASH_SIGNS = ("Fatal Python error", "terminate called", "Aborted", "Segmentation fault")

# Loaded, queried (so DuckDB's worker threads exist), with a view and a frame taken from it.
PRELUDE = """
import gc, os, sys, threading
import tacocore

ds = tacocore.load(sys.argv[1])
view = ds.sql("SELECT * FROM data WHERE id IS NOT NULL")
frame = view.data
assert len(frame) > 0, "the fixture has rows"


def start_a_thread():
    # A thread made in the child reuses the memory of a parent thread that was not copied:
    # joining that parent thread's handle is what aborted.
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()


def child_status(pid):
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
"""


def run(script: str, dataset: str) -> subprocess.CompletedProcess:
    code = textwrap.dedent(PRELUDE) + textwrap.dedent(script)
    proc = subprocess.run([sys.executable, "-c", code, dataset], capture_output=True, text=True,
                          timeout=120)
    for sign in CRASH_SIGNS:
        assert sign not in proc.stderr, f"{sign!r} on stderr:\n{proc.stderr}"
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    return proc


@pytest.fixture(params=["toolbox-zip-simple", "toolbox-folder-simple"])
def dataset(request, fixture_paths) -> str:
    return fixture_paths[request.param]


def test_os_fork_child_collects_the_inherited_dataset_after_starting_a_thread(dataset):
    proc = run("""
        pid = os.fork()
        if pid == 0:
            start_a_thread()
            del ds, view, frame
            gc.collect()
            print("child collected", flush=True)
            sys.exit(0)  # a normal exit: atexit handlers and module teardown run
        print("child exit", child_status(pid))
        print("parent still queries", len(ds.sql("SELECT id FROM data").data))
    """, dataset)
    assert "child collected" in proc.stdout
    assert "child exit 0" in proc.stdout
    assert "parent still queries" in proc.stdout


def test_collected_on_another_thread_of_the_child(dataset):
    # What a DataLoader worker saw: its queue feeder thread ran the garbage collector.
    proc = run("""
        class Holder:
            def __init__(self, d):
                self.d = d
                self.me = self  # a cycle: only the collector frees it

        holder = Holder(ds)
        del ds, view, frame
        pid = os.fork()
        if pid == 0:
            del holder
            t = threading.Thread(target=gc.collect)
            t.start()
            t.join()
            print("collected on a thread", flush=True)
            sys.exit(0)
        print("child exit", child_status(pid))
    """, dataset)
    assert "collected on a thread" in proc.stdout
    assert "child exit 0" in proc.stdout


def test_multiprocessing_fork_children_drop_the_inherited_dataset(dataset):
    proc = run("""
        import multiprocessing as mp

        def work(i):
            global ds, view, frame
            start_a_thread()
            ds = view = frame = None
            gc.collect()
            return i

        ctx = mp.get_context("fork")
        p = ctx.Process(target=work, args=(0,))
        p.start()
        p.join(60)
        print("process exit", p.exitcode)
        with ctx.Pool(2) as pool:
            print("pool", pool.map(work, range(4)))
    """, dataset)
    assert "process exit 0" in proc.stdout
    assert "pool [0, 1, 2, 3]" in proc.stdout


def test_child_using_the_inherited_dataset_gets_a_clear_error_and_can_load_again(dataset):
    proc = run("""
        pid = os.fork()
        if pid == 0:
            start_a_thread()
            for what, call in [("sql", lambda: ds.sql("SELECT id FROM data").data),
                               ("data", lambda: ds.data),
                               ("view", lambda: view.data)]:
                try:
                    call()
                    print(what, "ran in the child", flush=True)
                except tacocore.TacoQueryError as exc:
                    print(what, "refused:", exc, flush=True)
            # A frame made before the fork holds its rows: reading one needs no DuckDB.
            print("frame read", type(frame.read(0)).__name__, flush=True)
            again = tacocore.load(sys.argv[1])
            print("reloaded rows", len(again.sql("SELECT id FROM data").data), flush=True)
            sys.exit(0)
        print("child exit", child_status(pid))
        print("parent rows", len(ds.sql("SELECT id FROM data").data))
    """, dataset)
    out = proc.stdout
    assert "child exit 0" in out
    for what in ("sql", "data", "view"):
        line = next(l for l in out.splitlines() if l.startswith(what + " "))
        assert line.startswith(what + " refused:"), line
        assert dataset in line, f"the error names the dataset: {line}"
        assert "fork()" in line and "load() again" in line, line
    assert "frame read" in out
    rows = [l.split()[-1] for l in out.splitlines() if l.startswith(("reloaded rows", "parent rows"))]
    assert len(rows) == 2 and rows[0] == rows[1], out


def test_concat_and_closed_datasets_are_dropped_too(fixture_paths):
    # Every native object that owns a DuckDB database: a concat() result, a closed dataset.
    proc = run("""
        a = tacocore.load(sys.argv[1])
        both = tacocore.concat([a, tacocore.load(sys.argv[1])])
        print(len(both.sql("SELECT id FROM data").data))
        a.close()
        pid = os.fork()
        if pid == 0:
            start_a_thread()
            del a, both, ds, view, frame
            gc.collect()
            sys.exit(0)
        print("child exit", child_status(pid))
    """, fixture_paths["toolbox-zip-simple"])
    assert "child exit 0" in proc.stdout



def test_an_inherited_array_iterator_is_refused_and_dropped(fixture_paths):
    # iter_arrays() decodes ahead on native threads, which stay in the parent: in the child the
    # iterator says so instead of waiting forever, and dropping it neither joins nor hangs.
    proc = run("""
        tif = tacocore.load(sys.argv[1])
        frame = tif.data
        it = frame.iter_arrays(list(range(len(frame))), threads=2)
        next(it)
        pid = os.fork()
        if pid == 0:
            start_a_thread()
            try:
                next(it)
                print("iterated in the child", flush=True)
            except tacocore.TacoIOError as exc:
                print("refused:", exc, flush=True)
            del it
            gc.collect()
            again = tacocore.load(sys.argv[1]).data
            print("fresh", len(list(again.iter_arrays(list(range(len(again))), threads=2))))
            sys.exit(0)
        print("child exit", child_status(pid))
        print("parent rest", len(list(it)))
    """, fixture_paths["toolbox-zip-simple"])
    out = proc.stdout
    assert "child exit 0" in out, out
    assert "refused:" in out and "fork()" in out, out
    assert "fresh" in out and "parent rest" in out, out
