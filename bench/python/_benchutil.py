"""Shared helpers of the Python-package benchmarks (bench/python/*.py): paths, machine facts,
timing. Each benchmark prints one JSON document and can also write it with --json PATH."""
from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, "bench", "out", "python")   # git-ignored (bench/out/)


def machine() -> dict:
    """CPU, cores, memory, OS, load average and library versions, for the report."""
    cpu = platform.processor()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                   if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = 0.0
    try:
        mem = next(int(line.split()[1]) for line in open("/proc/meminfo")
                   if line.startswith("MemTotal")) / 1024 / 1024
    except (OSError, StopIteration):
        pass
    versions = {"python": platform.python_version()}
    for mod in ("tacocore", "pyarrow", "numpy", "duckdb"):
        try:
            versions[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001 - a missing optional module is simply not listed
            pass
    try:
        from osgeo import gdal
        versions["gdal"] = gdal.__version__
    except ImportError:
        pass
    return {
        "cpu": cpu,
        "logical_cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "memory_gib": round(mem, 1),
        "os": f"{platform.system()} {platform.release()}",
        "loadavg": list(os.getloadavg()),
        "versions": versions,
    }


def timed(fn, repeat: int) -> list[float]:
    """Seconds of `repeat` calls of fn() (perf_counter)."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def thread_schedstat() -> tuple[float, float, float]:
    """(on-CPU seconds, runqueue-wait seconds, perf_counter) of the calling thread (Linux)."""
    now = time.perf_counter()
    try:
        with open("/proc/thread-self/schedstat") as fh:
            cpu_ns, wait_ns = fh.read().split()[:2]
        return int(cpu_ns) / 1e9, int(wait_ns) / 1e9, now
    except OSError:
        return 0.0, 0.0, now


def control_speedup(megabytes: int = 64) -> float:
    """2-thread speedup of a perfectly parallel job (SHA-256 releases the GIL): what the machine
    gives two threads right now. About 2 on an idle 2-core machine, lower when it is busy."""
    import hashlib
    import threading
    block = b"\x5a" * (1 << 20)

    def work(n: int) -> None:
        for _ in range(n):
            hashlib.sha256(block).digest()

    t0 = time.perf_counter()
    work(megabytes)
    serial = time.perf_counter() - t0
    threads = [threading.Thread(target=work, args=(megabytes // 2,)) for _ in range(2)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return serial / (time.perf_counter() - t0)


def summary(seconds: list[float]) -> dict:
    return {"median": statistics.median(seconds), "min": min(seconds), "max": max(seconds),
            "runs": [round(s, 6) for s in seconds]}


def emit(doc: dict, json_path: str | None) -> None:
    text = json.dumps(doc, indent=1, sort_keys=True)
    print(text)
    if json_path:
        os.makedirs(os.path.dirname(os.path.abspath(json_path)), exist_ok=True)
        with open(json_path, "w") as fh:
            fh.write(text + "\n")


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
