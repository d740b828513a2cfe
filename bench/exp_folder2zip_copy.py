#!/usr/bin/env python3
"""Why does folder2zip cost more than `cp` of the ZIP? (issue 16, docs/FORMAT-DECISIONS.md
"folder2zip's copy"). Small experiments on the copy pattern alone, without taco:
N files of SIZE bytes are appended to one output file the way folder2zip does it, in several
variants, each in a fresh child process so its CPU (user + system) is measured by the kernel:

    kernel        copy_file_range per file, data right after a 62-byte header (ZIP layout)
    kernel-align  the same with 4096-byte headers: every file starts on a page boundary
    kernel-nohdr  copy_file_range, no headers at all (a plain concatenation)
    kernel-falloc `kernel` after fallocate of the whole output (what folder2zip does)
    crc-read      `kernel-falloc` plus a CRC pass over each file through read() into one reused
                  256 KiB buffer (folder2zip today)
    crc-mmap      the same CRC pass over an mmap of the file (no copy into user space)
    user-pass     one user-space pass: read 1 MiB, CRC it while hot, pwrite it (no kernel copy)
    cp            `cp` of a file holding the same bytes (the issue's yardstick)

Sources are warm in the page cache; an untimed `sync` runs before every run and the variants take
turns, so a slow spell of a busy machine hits them alike. Prints, per variant, the minimum and
median of wall, user and system seconds. One command:

    .venv/bin/python bench/exp_folder2zip_copy.py [--n 200] [--size-mib 8] [--runs 5] [--dir D]
"""
from __future__ import annotations

import argparse
import mmap
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
import zlib

VARIANTS = ["kernel", "kernel-align", "kernel-nohdr", "kernel-falloc", "crc-read", "crc-mmap",
            "user-pass", "cp"]


def child(variant: str, src: str, out: str, n: int, size: int) -> None:
    header = {"kernel-align": 4096, "kernel-nohdr": 0}.get(variant, 62)
    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    if variant in ("kernel-falloc", "crc-read", "crc-mmap", "user-pass"):
        os.posix_fallocate(fd, 0, n * (size + header))
    pos, buf = 0, bytearray(1 << 20)
    for i in range(n):
        src_fd = os.open(os.path.join(src, f"s{i:05d}.bin"), os.O_RDONLY)
        crc = 0
        if variant == "crc-read":  # one reused buffer, as taco's helper (a fresh one per read
            view = memoryview(buf)[:256 << 10]  # would add page faults to the read's cost)
            while got := os.readv(src_fd, [view]):
                crc = zlib.crc32(view[:got], crc)
        elif variant == "crc-mmap":
            with mmap.mmap(src_fd, size, prot=mmap.PROT_READ) as m:
                m.madvise(mmap.MADV_SEQUENTIAL)
                crc = zlib.crc32(m, crc)
        if header:
            os.pwrite(fd, b"H" * header, pos)
            pos += header
        if variant == "user-pass":
            view = memoryview(buf)
            while got := os.readv(src_fd, [buf]):
                crc = zlib.crc32(view[:got], crc)
                os.pwrite(fd, view[:got], pos)
                pos += got
        else:
            done = 0
            while done < size:
                moved = os.copy_file_range(src_fd, fd, size - done, done, pos)
                done += moved
                pos += moved
        os.close(src_fd)
    os.close(fd)


def make_sources(d: str, n: int, size: int) -> tuple[str, str]:
    src, joined = os.path.join(d, f"files_{n}x{size}"), os.path.join(d, f"joined_{n}x{size}.bin")
    if not os.path.exists(joined):
        os.makedirs(src, exist_ok=True)
        block = os.urandom(size)
        with open(joined, "wb") as j:
            for i in range(n):
                data = block[i % 251:] + block[:i % 251]
                with open(os.path.join(src, f"s{i:05d}.bin"), "wb") as f:
                    f.write(data)
                j.write(b"H" * 62 + data)
    return src, joined


def timed(cmd: list[str], out: str) -> tuple[float, float, float]:
    if os.path.exists(out):
        os.remove(out)
    os.sync()
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(cmd, check=True)
    wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, r1.ru_utime - r0.ru_utime, r1.ru_stime - r0.ru_stime


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), int(sys.argv[6]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--size-mib", type=int, default=8)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dir", default=os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build", "bench-convert", "exp"))
    ap.add_argument("--only", nargs="*", default=VARIANTS)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    size = args.size_mib << 20
    src, joined = make_sources(args.dir, args.n, size)
    out = os.path.join(args.dir, "out.bin")
    for path in [joined] + [os.path.join(src, f) for f in os.listdir(src)]:
        with open(path, "rb") as f:  # warm the page cache
            while f.read(1 << 24):
                pass
    results: dict[str, list[tuple[float, float, float]]] = {v: [] for v in args.only}
    load0 = os.getloadavg()[0]
    for r in range(args.runs):
        for v in (args.only if r % 2 == 0 else args.only[::-1]):
            cmd = (["cp", joined, out] if v == "cp" else
                   [sys.executable, __file__, "--child", v, src, out, str(args.n), str(size)])
            results[v].append(timed(cmd, out))
    os.remove(out)
    load1 = os.getloadavg()[0]
    print(f"{args.n} x {args.size_mib} MiB, {args.runs} runs, load {load0:.2f} -> {load1:.2f} "
          f"on {os.cpu_count()} cores")
    print(f"{'variant':14} {'wall min/med':>14} {'user min/med':>14} {'sys min/med':>14}")
    for v, rs in results.items():
        cols = [f"{min(x[k] for x in rs):.3f}/{statistics.median(x[k] for x in rs):.3f}"
                for k in range(3)]
        print(f"{v:14} {cols[0]:>14} {cols[1]:>14} {cols[2]:>14}")


if __name__ == "__main__":
    main()
