#!/usr/bin/env python3
"""Conversions (issue 16): export of a 10% subset and zip2folder / folder2zip, each run as the
`taco` command in a fresh process, against `cp` of the same bytes.

    .venv/bin/python bench/bench_convert.py [--quick] [--runs N] [--out DIR] [--report]

1. export 10% of N_SMALL x 4 KiB samples (ZIP -> ZIP), and of N_BIG x 8 MiB (ZIP -> ZIP),
   three measures side by side: GB/s of sample bytes over the byte-copy phase alone (what the
   issue's floor is about: `copy_seconds` from `taco export --json`), over the export call
   (tree, bytes, metadata, rename: `export_seconds`) and over the whole process (DuckDB startup
   and loading included). With --perf, also the instructions each whole command retires
   (`perf stat`): stable on a busy machine, unlike wall time.
2. zip2folder and folder2zip of N_BIG x 8 MiB against `cp` of the same bytes on the same disk:
   zip2folder against `cp -r` of the FOLDER's DATA/ (both write 200 files), folder2zip against
   `cp` of the ZIP (both write one archive); the other pairing is reported beside. Sources warm
   in the page cache, an untimed `sync` before every run, turns alternating (bench_zip_folder).
3. many small entries (--nested N, default 2,000 x 4 x 4 x 64 B: 42,000 entries, a __meta__ per
   FOLDER): zip2folder against `cp -r` of the FOLDER, folder2zip against `cp` of the ZIP, and
   `taco export` of every sample (ZIP -> ZIP: each __meta__ written again), on its own.

Prints one JSON object; with --report, rewrites the marked "Conversions" section of
docs/PERFORMANCE.md (bench/run.py keeps that section when it regenerates the file).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import time

import common  # bench/common.py: spread_subdirectories

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TACO = os.path.join(os.environ.get("TACO_BUILD_DIR", os.path.join(REPO, "build")), "bin", "taco")
BEGIN, END = "<!-- convert:begin -->", "<!-- convert:end -->"


def run(*args: str) -> float:
    t0 = time.perf_counter()
    subprocess.run(list(args), check=True, capture_output=True)
    return time.perf_counter() - t0


def make_dataset(out: str, n: int, size: int) -> str:
    """n random samples of `size` bytes as a tacocore ZIP (made once, cached under --out)."""
    zip_path = os.path.join(out, f"src_{n}x{size}.tacozip")
    if os.path.exists(zip_path):
        return zip_path
    files = os.path.join(out, f"files_{n}x{size}")
    os.makedirs(files, exist_ok=True)
    block = os.urandom(size)
    for i in range(n):
        with open(os.path.join(files, f"s{i:05d}.bin"), "wb") as f:
            f.write(block[i % 251:] + block[:i % 251])  # every sample different
    subprocess.run([TACO, "create", "--from", files, zip_path, "-q"], check=True)
    shutil.rmtree(files)
    return zip_path


def fresh(path: str) -> None:
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def median_of(runs: int, fn) -> float:
    return statistics.median(fn() for _ in range(runs))


def instructions(*args: str) -> int | None:
    """Instructions retired by the command (user + kernel), from `perf stat`; None without perf
    or when the kernel refuses counters (perf_event_paranoid)."""
    if not shutil.which("perf"):
        return None
    proc = subprocess.run(["perf", "stat", "-x", ",", "-e", "instructions", *args],
                          capture_output=True, text=True)
    for line in proc.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions") and fields[0].isdigit():
            return int(fields[0])
    return None


def bench_export(src: str, out: str, n: int, runs: int, perf: bool) -> dict:
    dst = os.path.join(out, "export.tacozip")
    keep = max(1, n // 10)
    where = f"id IN (SELECT id FROM data ORDER BY id LIMIT {keep})"
    cmd = [TACO, "export", src, dst, "--where", where, "--json"]
    inner = []

    cpu = []

    def once():
        fresh(dst)
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        inner.append(json.loads(proc.stdout))
        return wall

    once()  # warm the page cache
    inner.clear()
    cpu.clear()
    seconds = median_of(runs, once)
    copy = statistics.median(r["copy_seconds"] for r in inner)
    copy_cpu = statistics.median(r["copy_cpu_seconds"] for r in inner)
    call = statistics.median(r["export_seconds"] for r in inner)
    b, samples = inner[0]["sample_bytes"], inner[0]["samples"]
    fresh(dst)
    ins = None
    if perf:
        ins = instructions(*cmd)
        fresh(dst)
    return {"samples": samples, "bytes": b, "seconds": seconds, "gb_per_s": b / seconds / 1e9,
            "export_seconds": call, "export_gb_per_s": b / call / 1e9,
            "copy_seconds": copy, "copy_gb_per_s": b / max(copy, 1e-9) / 1e9,
            "copy_cpu_seconds": copy_cpu, "copy_cpu_gb_per_s": b / max(copy_cpu, 1e-9) / 1e9,
            "cpu_seconds": statistics.median(cpu), "instructions": ins}


def timed_fresh(cmd: list[str], output: str) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of `cmd`, which writes `output`. The previous output
    is removed and everything flushed first (untimed), so no run pays for the writeback of the
    one before it, and every run starts from the same state: nothing dirty, the sources in the
    page cache. Neither side fsyncs (taco does not, like cp: FORMAT-DECISIONS.md)."""
    fresh(output)
    os.sync()
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed_fresh.last_stdout = proc.stdout
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


class RunDirs:
    """A fresh, uniquely named output directory for every timed run, under a parent marked
    `chattr +T` (common.spread_subdirectories): ext4 then places each in its own block group,
    so no run creates its files among the inodes the run before it freed (which ext4 scans past
    on every create: the create_folder artefact of READER.md §9.1, which here hit whichever of
    zip2folder and `cp -r` ran after the other)."""

    def __init__(self, out: str):
        self.root = os.path.join(out, "runs")
        fresh(self.root)
        os.makedirs(self.root)
        common.spread_subdirectories(self.root)
        self.count = 0

    def output(self, name: str) -> str:
        self.count += 1
        d = os.path.join(self.root, f"{self.count:04d}-{os.urandom(4).hex()}")
        os.makedirs(d)
        return os.path.join(d, name)


def take_turns(commands: dict, runs: int, dirs: RunDirs) -> tuple[dict, dict]:
    """Runs every command `runs` times, taking turns in reversed order every other round (so a
    slow spell of the machine hits them alike), each into a fresh run directory removed (and
    synced) right after. `commands` maps a name to (argv without the output, output name).
    Returns ({name, name_cpu, name_runs: medians and walls}, {conversion: its --json outputs})."""
    walls = {k: [] for k in commands}
    cpus = {k: [] for k in commands}
    inner = {"zip2folder": [], "folder2zip": []}
    order = list(commands)
    for i in range(runs):
        for name in (order if i % 2 == 0 else order[::-1]):
            argv, out_name = commands[name]
            output = dirs.output(out_name)
            wall, cpu = timed_fresh([*argv, output, *(["--json"] if name in inner else [])],
                                    output)
            fresh(os.path.dirname(output))
            walls[name].append(wall)
            cpus[name].append(cpu)
            if name in inner:
                inner[name].append(json.loads(timed_fresh.last_stdout))
    res = {}
    for name in commands:
        res[name] = statistics.median(walls[name])
        res[name + "_cpu"] = statistics.median(cpus[name])
        res[name + "_runs"] = [round(w, 3) for w in walls[name]]
    return res, inner


def turns_against_cp(src: str, out: str, runs: int, folder_name: str,
                     cp_tree_of) -> tuple[dict, dict, int]:
    """The four commands of a conversion benchmark, taking turns (take_turns): zip2folder and
    folder2zip of `src`, `cp` of the ZIP and `cp -r` of `cp_tree_of(folder)`. folder2zip and
    `cp -r` read one FOLDER made once (and every source is read once before the clock), so no
    run reads another's output. Returns take_turns' results and the FOLDER's entry count."""
    folder = os.path.join(out, folder_name)
    timed_fresh([TACO, "convert", src, folder], folder)  # the FOLDER source, made once
    entries = sum(len(files) + len(dirs) for _, dirs, files in os.walk(os.path.join(folder, "DATA")))
    commands = {
        "zip2folder": ([TACO, "convert", src], "folder"),
        "folder2zip": ([TACO, "convert", folder], "back.tacozip"),
        "cp_zip": (["cp", src], "cp.bin"),
        "cp_tree": (["cp", "-r", cp_tree_of(folder)], "cp_tree"),
    }
    dirs = RunDirs(out)
    for name in ("cp_zip", "cp_tree"):  # warm the page cache with every source
        argv, out_name = commands[name]
        output = dirs.output(out_name)
        timed_fresh([*argv, output], output)
        fresh(os.path.dirname(output))
    res, inner = take_turns(commands, runs, dirs)
    fresh(dirs.root)
    fresh(folder)
    return res, inner, entries


def bench_zip_folder(src: str, out: str, runs: int) -> dict:
    """zip2folder and folder2zip against `cp` of the same bytes. Each conversion is compared
    with the `cp` that writes the same output layout, the costly side of a copy whose sources
    are in the page cache: zip2folder (200 files out) with `cp -r` of the FOLDER's DATA/,
    folder2zip (one archive out) with `cp` of the ZIP. The other pairing is reported too. The
    four commands take turns, in reversed order every other round, so a slow spell of the
    machine hits them alike."""
    out_, inner, _ = turns_against_cp(src, out, runs, "as_folder",
                                      lambda folder: os.path.join(folder, "DATA"))
    out_["zip2folder_vs_cp"] = out_["zip2folder"] / out_["cp_tree"]
    out_["folder2zip_vs_cp"] = out_["folder2zip"] / out_["cp_zip"]
    out_["zip2folder_vs_cp_zip"] = out_["zip2folder"] / out_["cp_zip"]
    out_["folder2zip_vs_cp_tree"] = out_["folder2zip"] / out_["cp_tree"]
    out_["zip2folder_cpu_vs_cp"] = out_["zip2folder_cpu"] / out_["cp_tree_cpu"]
    out_["folder2zip_cpu_vs_cp"] = out_["folder2zip_cpu"] / out_["cp_zip_cpu"]
    for name, runs_ in inner.items():
        out_[name + "_copy"] = statistics.median(r["copy_seconds"] for r in runs_)
        out_[name + "_call"] = statistics.median(r["export_seconds"] for r in runs_)
    return out_


def make_nested(out: str, n: int) -> str:
    """n level-0 FOLDER samples of 4 FOLDERs of 4 files of 64 bytes (n * 21 entries, mostly
    tiny, a __meta__ per FOLDER) as a tacocore ZIP, made once with bench/generate.py."""
    zip_path = os.path.join(out, f"nested_{n}x4x4.tacozip")
    if os.path.exists(zip_path):
        return zip_path
    gen = os.path.join(out, f"nested_{n}_gen")
    subprocess.run([os.path.join(REPO, ".venv", "bin", "python"), os.path.join(HERE, "generate.py"),
                    "--out", gen, "--samples", str(n), "--depth", "3", "--fanout", "4",
                    "--size-dist", "fixed:64B"], check=True, capture_output=True)
    subprocess.run([TACO, "create", "--from", os.path.join(gen, "input"), zip_path, "-q"],
                   check=True)
    shutil.rmtree(gen)
    return zip_path


def bench_nested(src: str, out: str, runs: int) -> dict:
    """Many small entries (issue 16: `taco convert` of 100k x 4 x 4 ran at ~1 MB/s): zip2folder
    against `cp -r` of the FOLDER it writes, folder2zip against `cp` of the ZIP, turns
    alternating as in bench_zip_folder."""
    res, _, entries = turns_against_cp(src, out, runs, "nested_folder", lambda folder: folder)
    res.update(entries=entries, zip_bytes=os.path.getsize(src))
    # An export of the whole hierarchy (ZIP -> ZIP, no condition): its tree, one __meta__ per
    # FOLDER written again (new offsets), and the output validated before the rename.
    dirs = RunDirs(out)
    walls, cpus = [], []
    for _ in range(runs):
        output = dirs.output("export.tacozip")
        wall, cpu = timed_fresh([TACO, "export", src, output, "-q"], output)
        fresh(os.path.dirname(output))
        walls.append(wall)
        cpus.append(cpu)
    fresh(dirs.root)
    res.update(export=statistics.median(walls), export_cpu=statistics.median(cpus),
               export_runs=[round(w, 3) for w in walls])
    res["zip2folder_vs_cp"] = res["zip2folder"] / res["cp_tree"]
    res["folder2zip_vs_cp"] = res["folder2zip"] / res["cp_zip"]
    return res


def report(results: dict, args, load: tuple) -> None:
    path = os.path.join(REPO, "docs", "PERFORMANCE.md")
    text = open(path).read()
    e1, e2, zf = results["export_small"], results["export_big"], results["zip_folder"]
    cores = os.cpu_count() or 1
    busy = "a busy machine: other builds were running" if max(load) > cores else "an idle machine"
    lines = [
        BEGIN, "## Conversions (issue 16; bench/bench_convert.py)", "",
        f"Written by `.venv/bin/python bench/bench_convert.py --runs {args.runs}"
        f"{' --quick' if args.quick else ''}{f' --nested {args.nested}' if args.nested != 2000 else ''}"
        f" --report` on {time.strftime('%Y-%m-%d')}; medians "
        f"of fresh `taco` processes (whole command: load, metadata, bytes, rename), load average "
        f"{load[0]:.2f}–{load[1]:.2f} on {cores} cores ({busy}). The reference has no export or "
        "conversion any more (moved out of tacotoolbox 0.25), so the yardstick is `cp`.", "",
        "| scenario | samples copied | bytes | byte copy s (GB/s) | byte copy CPU s (GB/s) | "
        "export call s (GB/s) | "
        "whole process s (GB/s) | process CPU s | instructions | target |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for label, e in ((f"export 10% of {results['n_small']:,} × 4 KiB (ZIP → ZIP)", e1),
                     (f"export 10% of {results['n_big']:,} × 8 MiB (ZIP → ZIP)", e2)):
        ins = f"{e['instructions']:,}" if e.get("instructions") else "–"
        lines.append(
            f"| {label} | {e['samples']:,} | {e['bytes']:,} | {e['copy_seconds']:.3f} "
            f"({e['copy_gb_per_s']:.2f}) | {e['copy_cpu_seconds']:.3f} "
            f"({e['copy_cpu_gb_per_s']:.2f}) | {e['export_seconds']:.3f} ({e['export_gb_per_s']:.2f})"
            f" | {e['seconds']:.3f} ({e['gb_per_s']:.2f}) | {e['cpu_seconds']:.3f} | {ins} "
            "| ≥ 1 GB/s of sample bytes |")
    lines += [
        "",
        "| conversion of " + f"{results['n_big']:,} × 8 MiB" +
        " | taco s (byte copy s) | taco CPU s | `cp` writing the same layout: s (CPU s) "
        "| taco / cp | CPU taco / cp | other `cp`: s (taco / it) | target |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
        f"| zip2folder (vs `cp -r` of DATA/: 200 files out) | {zf['zip2folder']:.3f} "
        f"({zf['zip2folder_copy']:.3f}) | {zf['zip2folder_cpu']:.3f} | {zf['cp_tree']:.3f} "
        f"({zf['cp_tree_cpu']:.3f}) | {zf['zip2folder_vs_cp']:.2f} | "
        f"{zf['zip2folder_cpu_vs_cp']:.2f} | `cp` of the ZIP: {zf['cp_zip']:.3f} "
        f"({zf['zip2folder_vs_cp_zip']:.2f}) | ≤ 1.5 |",
        f"| folder2zip (vs `cp` of the ZIP: one archive out) | {zf['folder2zip']:.3f} "
        f"({zf['folder2zip_copy']:.3f}) | {zf['folder2zip_cpu']:.3f} | {zf['cp_zip']:.3f} "
        f"({zf['cp_zip_cpu']:.3f}) | {zf['folder2zip_vs_cp']:.2f} | "
        f"{zf['folder2zip_cpu_vs_cp']:.2f} | `cp -r` of DATA/: {zf['cp_tree']:.3f} "
        f"({zf['folder2zip_vs_cp_tree']:.2f}) | ≤ 1.5 |",
        "",
    ]
    if "nested" in results:
        ne = results["nested"]
        lines += [
            f"| many small entries: {results['n_nested']:,} × 4 × 4 × 64 B ({ne['entries']:,} "
            "entries in DATA/) | taco s | taco CPU s | `cp`, same layout: s (CPU s) | taco / cp |",
            "|---|---:|---:|---:|---:|",
            f"| zip2folder (vs `cp -r` of the FOLDER) | {ne['zip2folder']:.2f} | "
            f"{ne['zip2folder_cpu']:.2f} | {ne['cp_tree']:.2f} ({ne['cp_tree_cpu']:.2f}) | "
            f"{ne['zip2folder_vs_cp']:.1f} |",
            f"| folder2zip (vs `cp` of the ZIP) | {ne['folder2zip']:.2f} | "
            f"{ne['folder2zip_cpu']:.2f} | {ne['cp_zip']:.2f} ({ne['cp_zip_cpu']:.2f}) | "
            f"{ne['folder2zip_vs_cp']:.1f} |",
        ]
        if "export" in ne:
            lines.append(
                f"| export of every sample (ZIP → ZIP; no `cp` does this) | {ne['export']:.2f} | "
                f"{ne['export_cpu']:.2f} | – | – |")
    lines += [
        "",
        "Conversions: every run writes into its own new directory under a `chattr +T` parent (so "
        "no run creates files among inodes another just freed, which ext4 scans past: READER.md "
        "§9.1), removed and synced after it, and starts after an untimed `sync` (nothing dirty, "
        "sources in the page cache); folder2zip and `cp -r` read one FOLDER made once; the four "
        "commands take turns in alternating order, and neither taco nor cp fsyncs. Each "
        "conversion is held against the `cp` that writes the same layout (the costly side when "
        "the sources are cached); the other pairing is in the last column. One `cp` of the 1.6 GB"
        " ZIP varies 0.38–3.5 s between runs on this VM (a single large file's page-cache "
        "allocation), 200 files of 8 MiB much less. CPU is user + system of the whole process "
        "(taco's includes its helper threads).",
        "",
        "The floor is read on the byte-copy columns (`copy_seconds` of `taco export --json`: the "
        "wall time spent moving sample bytes; `copy_cpu_seconds`: the copying thread's CPU time, "
        "user + system, which waiting for a busy CPU does not stretch); the export call adds the tree, the rewritten level "
        "tables and the rename, the whole process adds starting DuckDB and loading the source "
        "(~40 ms, which alone caps 4 MB of small samples far below 1 GB/s). ZIP → ZIP export "
        "copies a sample whose CRC the source's central directory records with copy_file_range "
        "(no read into user space, no CRC recomputation). "
        "A busy machine stretches every wall-clock number here; the process's CPU time (user + "
        "system, from getrusage) much less, and instruction counts (`--perf`, where the machine "
        "exposes hardware counters: this VM does not, so the column may read –) not at all.",
        "", END]
    section = "\n".join(lines)
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    open(path, "w").write(text)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1,000 x 4 KiB and 20 x 8 MiB")
    ap.add_argument("--tiny", action="store_true",
                    help="100 x 4 KiB and 4 x 1 MiB: checks the script runs, measures nothing")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(REPO, "build", "bench-convert"))
    ap.add_argument("--only-zip-folder", action="store_true",
                    help="only the zip2folder / folder2zip comparison (no export runs)")
    ap.add_argument("--nested", type=int, default=2000, metavar="N",
                    help="level-0 samples of the many-small-entries case (N x 4 x 4 x 64 B; "
                         "0 skips it; default 2000, i.e. 42,000 entries)")
    ap.add_argument("--perf", action="store_true",
                    help="also count each export's instructions with perf stat")
    ap.add_argument("--report", action="store_true",
                    help="rewrite the Conversions section of docs/PERFORMANCE.md")
    args = ap.parse_args()
    if not os.path.exists(TACO):
        raise SystemExit(f"{TACO} is not built; run `make build`")
    os.makedirs(args.out, exist_ok=True)
    n_small, n_big = (1000, 20) if args.quick else (10000, 200)
    big_size = 8 << 20
    if args.tiny:
        n_small, n_big, big_size = 100, 4, 1 << 20
    load_before = os.getloadavg()[0]
    small = None if args.only_zip_folder else make_dataset(args.out, n_small, 4096)
    big = make_dataset(args.out, n_big, big_size)
    results = {"n_small": n_small, "n_big": n_big, "big_size": big_size}
    if not args.only_zip_folder:
        results["export_small"] = bench_export(small, args.out, n_small, args.runs, args.perf)
        results["export_big"] = bench_export(big, args.out, n_big, args.runs, args.perf)
    results["zip_folder"] = bench_zip_folder(big, args.out, args.runs)
    n_nested = 50 if args.tiny else args.nested
    if n_nested and not args.only_zip_folder:
        results["n_nested"] = n_nested
        results["nested"] = bench_nested(make_nested(args.out, n_nested), args.out, args.runs)
    load = (min(load_before, os.getloadavg()[0]), max(load_before, os.getloadavg()[0]))
    results["load_average"] = load
    print(json.dumps(results))
    if args.report and not args.tiny and not args.only_zip_folder:
        report(results, args, load)


if __name__ == "__main__":
    main()
