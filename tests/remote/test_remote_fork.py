"""A forked child reading a remote dataset never talks on its parent's kept-alive connection.

tacocore keeps one HTTP connection per server and thread (GDAL's persistent sessions). A forked
child's thread has its parent's thread id, and the child inherits the parent's sockets: if the
session were keyed by thread alone, a DataLoader worker would send its requests on the socket
its parent (and its sibling workers) use, and their responses would interleave. The key includes
the process (READER.md §11). This test reads, in the child, the byte counters of the socket it
inherited: they must not move while the child loads and walks the dataset on its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

NESTED_FOLDER = "ref/tacoreader/folder/nested"
FLAT_ZIP = "ref/tacoreader/zip/flat/flat.tacozip"

CHILD_SCRIPT = textwrap.dedent("""
    import os, socket, struct, sys
    import tacocore

    url, port = sys.argv[1], int(sys.argv[2])

    def connections_to_server():
        # {socket inode: local port} of this namespace's established connections to the server.
        out = {}
        for line in open("/proc/net/tcp").read().splitlines()[1:]:
            f = line.split()
            if int(f[2].split(":")[1], 16) == port and f[3] == "01":
                out[f[9]] = int(f[1].split(":")[1], 16)
        return out

    def my_fds_by_inode():
        out = {}
        for fd in os.listdir("/proc/self/fd"):
            try:
                target = os.readlink(f"/proc/self/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:["):
                out[target[8:-1]] = int(fd)
        return out

    def bytes_received(fd):
        s = socket.socket(fileno=os.dup(fd))
        try:
            info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 232)
        finally:
            s.close()
        return struct.unpack_from("Q", info, 128)[0]  # tcp_info.tcpi_bytes_received

    def walk(ds):
        # A FOLDER sample's children (a GET of its __meta__), a FILE sample's bytes.
        frame = ds.data
        return [len(frame.read(i)) if ds.format == "folder" else len(frame.read_bytes(i))
                for i in range(len(frame))]

    ds = tacocore.load(url)
    walked = walk(ds)  # FOLDER samples: a GET of each __meta__ on this thread's kept-alive session
    fds = my_fds_by_inode()
    inherited = [fds[inode] for inode in connections_to_server() if inode in fds]
    assert inherited, "the parent holds a kept-alive connection to the server"
    pid = os.fork()
    if pid == 0:
        before = [bytes_received(fd) for fd in inherited]
        again = tacocore.load(url)
        ok = walk(again) == walked
        after = [bytes_received(fd) for fd in inherited]
        print("child walked", ok, "inherited socket bytes", before, "->", after, flush=True)
        os._exit(0 if ok and before == after else 1)
    _, status = os.waitpid(pid, 0)
    print("child exit", os.waitstatus_to_exitcode(status))
    print("parent walks again", walk(ds) == walked)
""")


@pytest.mark.parametrize("rel", [
    NESTED_FOLDER,
    pytest.param(FLAT_ZIP, marks=pytest.mark.xfail(strict=True, reason=(
        "GDAL 3.6's /vsicurl/ range reads keep their kept-alive curl handles in a cache that is "
        "not keyed by process: the child's first range read (~255 bytes, the ZIP's header) "
        "arrives on the parent's connection. Not fixed here (READER.md §11)"))),
])
def test_forked_child_opens_its_own_connections(served, tmp_path, rel):
    proc = subprocess.run(
        [sys.executable, "-c", CHILD_SCRIPT, served.url(rel), str(served.srv.port)],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "child exit 0" in proc.stdout, proc.stdout + proc.stderr
    assert "parent walks again True" in proc.stdout, proc.stdout
