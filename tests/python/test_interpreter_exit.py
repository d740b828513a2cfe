"""A script that ends while a daemon thread is inside tacocore exits cleanly.

CPython 3.11-3.13 ends a daemon thread that takes the GIL back during finalization with
pthread_exit(); unwinding through the native call that released the GIL used to abort the
process ("terminate called without an active exception", exit code 134). python/src/
gil_release.hpp makes such a thread wait for the process to end instead. The read_arrays loop also
caught a thread ended inside nanobind's numpy export (a noexcept function calling numpy): under
load 5 runs in 6 aborted; the native side now returns memoryviews that Python makes arrays of.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import FIXTURES

SIMPLE = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"
NESTED = FIXTURES / "tacoreader/zip/nested/nested.tacozip"

LOOPS = {
    "read_bytes": f"d = tacocore.load({str(SIMPLE)!r}).data\ndef work():\n    while True: d.read_bytes(0)",
    "sql": f"ds = tacocore.load({str(NESTED)!r})\ndef work():\n    while True: ds.sql('SELECT * FROM l1').data",
    "read_arrays": f"d = tacocore.load({str(SIMPLE)!r}).data\n"
                   "def work():\n    while True: d.read_arrays([0, 1, 2, 3] * 50, threads=2)",
}


@pytest.mark.parametrize("loop", sorted(LOOPS))
def test_exit_while_a_daemon_thread_reads(loop):
    script = ("import threading, time, tacocore\n" + LOOPS[loop] +
              "\nthreading.Thread(target=work, daemon=True).start()\ntime.sleep(0.3)\nprint('bye')\n")
    for _ in range(3):  # the abort came at almost every exit; three tries make a pass meaningful
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert proc.stdout == "bye\n"
        assert "terminate called" not in proc.stderr
        assert "leaked" not in proc.stderr, proc.stderr[-2000:]
