"""Helper of test_gil.py (run as a subprocess): proves that a tacocore call releases the GIL.

    python gil_probe.py OPERATION      (load | data | count | read_array | read_arrays | read_bytes |
                                   read_bytes_many)

The operation is pointed at a named pipe (FIFO). Opening a FIFO for reading blocks until a writer
opens it, so the call blocks inside C++. A background thread makes the call while the main thread
polls `open(fifo, O_WRONLY | O_NONBLOCK)`, which succeeds only while a reader has the FIFO open.
If the call keeps the GIL, the main thread never runs again and the process hangs (the test's
timeout catches it); if it releases the GIL, the main thread opens the FIFO from Python while the
call is blocked in C++, writes a few bytes, and both finish. Prints one JSON line.
"""
import json
import os
import sys
import tempfile
import threading
import time

import tacocore

op = sys.argv[1]
tmp = tempfile.mkdtemp(prefix="gil-probe-")
collection = dict(id="probe", dataset_version="1", description="d", licenses=["MIT"],
                  providers=[{"name": "p"}], tasks=["other"])
if op == "load":
    fifo = os.path.join(tmp, "probe.tacozip")
    os.mkfifo(fifo)
    call = lambda: tacocore.load(fifo)  # noqa: E731
elif op in ("data", "count"):  # a FOLDER dataset's level table is read by DuckDB at query time
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"xx")]), **collection)
    out = tacocore.create(taco, os.path.join(tmp, "ds"))[0]
    ds = tacocore.load(out)
    fifo = os.path.join(out, "METADATA", "level0.parquet")
    os.unlink(fifo)
    os.mkfifo(fifo)
    call = (lambda: ds.data) if op == "data" else (lambda: ds.count())
else:
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"xx")]), **collection)
    out = tacocore.create(taco, os.path.join(tmp, "ds"))[0]
    fifo = os.path.join(out, "DATA", "a")
    os.unlink(fifo)
    os.mkfifo(fifo)
    df = tacocore.load(out).data
    call = {"read_array": lambda: df.read_array(0),
            "read_arrays": lambda: df.read_arrays([0], threads=1),
            "read_bytes": lambda: df.read_bytes(0),
            "read_bytes_many": lambda: df.read_bytes_many([0], threads=1)}[op]

result = {}


def background():
    try:
        call()
        result["returned"] = True
    except tacocore.TacoError as exc:  # the FIFO holds no dataset / raster: an error is expected
        result["raised"] = type(exc).__name__


thread = threading.Thread(target=background, daemon=True)
thread.start()
fd = None
deadline = time.monotonic() + 20
while fd is None and thread.is_alive() and time.monotonic() < deadline:
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        time.sleep(0.001)
if fd is not None:
    try:
        os.write(fd, b"xx")
    except OSError:
        pass
    os.close(fd)
thread.join(20)
print(json.dumps({"op": op, "main_thread_ran_during_call": fd is not None, "finished": not thread.is_alive(),
                  **result}))
