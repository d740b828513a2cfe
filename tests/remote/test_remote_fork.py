"""A forked child reading a remote dataset never talks on its parent's kept-alive connections.

A DataLoader worker is a fork of the training process. The child inherits its parent's sockets,
and the thread it begins with carries the parent thread's connection caches: GDAL keeps each
thread's kept-alive curl handles in that thread's storage, tacocore's whole-file GETs key theirs
by server, thread and process. Sending a request on an inherited connection would interleave the
two processes' responses. tacocore moves the child's network reads off that thread
(src/process/fork_relay.hpp, READER.md §11). Each test reads, in the child, the byte counters of
every connection to the server it inherited: they must not move while the child reads, through
a dataset it loads itself, through the one its parent loaded, and from a thread it starts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tacocore
from remote_paths import FIXTURES

NESTED_FOLDER = "ref/tacoreader/folder/nested"
FLAT_ZIP = "ref/tacoreader/zip/flat/flat.tacozip"
GEOTIFF_ZIP = "ref/fork-geotiffs.tacozip"

CHILD_SCRIPT = textwrap.dedent("""
    import os, sys, threading
    import tacocore

    url, port, how, local = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    sys.path.insert(0, sys.argv[5])
    from tcp_counters import bytes_received, connections_to

    def walk(frame, fmt):
        # FOLDER samples: a GET of each __meta__; FILE samples: their bytes (a range read of the
        # ZIP) or, for "arrays", their pixels (GDAL's own range reads).
        if how == "arrays":
            return [int(frame.read_array(i).sum()) for i in range(len(frame))]
        return [len(frame.read(i)) if fmt == "folder" else len(frame.read_bytes(i))
                for i in range(len(frame))]

    def on_thread(fn):
        got = {}
        t = threading.Thread(target=lambda: got.setdefault("v", fn()))
        t.start()
        t.join()
        return got["v"]

    ds = tacocore.load(url)
    frame = ds.data
    # The expected walk, from the local copy. The parent reads no pixels of its own: GDAL would
    # answer the child's reads of those bytes from the cache it inherited, without a request.
    walked = walk(tacocore.load(local).data, ds.format)
    if how != "arrays":
        assert walk(frame, ds.format) == walked
    # A thread of the parent that is still alive at the fork, with connections of its own.
    release = threading.Event()
    busy = {}
    def parent_thread():
        theirs = tacocore.load(url).data
        busy["walked"] = walked if how == "arrays" else walk(theirs, ds.format)
        release.wait()
    helper = threading.Thread(target=parent_thread)
    helper.start()
    while "walked" not in busy:
        threading.Event().wait(0.01)
    inherited = list(connections_to(port))
    assert len(inherited) >= 2, f"the parent holds its connections to the server: {inherited}"
    pid = os.fork()
    if pid == 0:
        before = [bytes_received(fd) for fd in inherited]
        again = tacocore.load(url)
        results = {
            "own load": walk(again.data, again.format) == walked,
            "parent's frame": walk(frame, ds.format) == walked,
            "own load, new thread": on_thread(lambda: walk(tacocore.load(url).data, ds.format))
                                    == walked,
            "parent's frame, new thread": on_thread(lambda: walk(frame, ds.format)) == walked,
        }
        after = [bytes_received(fd) for fd in inherited]
        print("child walked", results, "inherited socket bytes", before, "->", after, flush=True)
        os._exit(0 if all(results.values()) and before == after else 1)
    _, status = os.waitpid(pid, 0)
    print("child exit", os.waitstatus_to_exitcode(status))
    release.set()
    helper.join()
    print("parent walks again", walk(frame, ds.format) == walked == busy["walked"])
""")


def run_child(served, tmp_path, rel, how):
    proc = subprocess.run(
        [sys.executable, "-c", CHILD_SCRIPT, served.url(rel), str(served.srv.port), how,
         str(served.root / rel), str(Path(__file__).parent)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "child exit 0" in proc.stdout, proc.stdout + proc.stderr
    assert "parent walks again True" in proc.stdout, proc.stdout


@pytest.mark.parametrize("rel", [NESTED_FOLDER, FLAT_ZIP])
def test_forked_child_reads_bytes_on_its_own_connections(served, tmp_path, rel):
    run_child(served, tmp_path, rel, "bytes")


def test_forked_child_decodes_on_its_own_connections(served, tmp_path):
    # GDAL opens /vsisubfile/..,/vsicurl/ itself here: its range reads, not tacocore's.
    tifs = sorted((FIXTURES / "tacotoolbox/geotiffs").glob("*.tif"))
    out = served.root / GEOTIFF_ZIP
    if not out.exists():
        taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample(p.stem, p) for p in tifs]),
                             id="fork_geotiffs", dataset_version="1.0.0",
                             description="forked read_array", licenses=["CC-BY-4.0"],
                             providers=[{"name": "tests", "roles": ["producer"]}],
                             tasks=["classification"])
        tacocore.create(taco, out)
    run_child(served, tmp_path, GEOTIFF_ZIP, "arrays")
