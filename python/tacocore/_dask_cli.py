"""`taco create --scheduler ADDRESS | --workers N` runs this: ``python -m tacocore._dask_cli``.

The C++ CLI hands the distributed create to the Python package (Dask is a Python engine); the
arguments are taco create's own, passed through unchanged. Exit codes as the CLI's: 0 done,
1 invalid data (schema, PIT), 2 usage or I/O (missing or existing files, a failed part, Dask
missing, the scheduler unreachable).
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="taco create", description="distributed create on Dask")
    p.add_argument("--from", dest="source", required=True)
    p.add_argument("output")
    p.add_argument("--metadata")
    p.add_argument("--key", default="path")
    p.add_argument("--collection")
    p.add_argument("--id")
    p.add_argument("--description")
    p.add_argument("--title")
    p.add_argument("--dataset-version")
    p.add_argument("--taco-version")
    p.add_argument("--license", action="append", default=[])
    p.add_argument("--provider", action="append", default=[])
    p.add_argument("--task", action="append", default=[])
    p.add_argument("--keyword", action="append", default=[])
    p.add_argument("--pad-to", type=int, default=0)
    p.add_argument("--split-size")
    p.add_argument("--group-by", action="append")
    p.add_argument("--scheduler")
    p.add_argument("--workers", type=int)
    p.add_argument("--json", action="store_true")
    p.add_argument("-q", "--quiet", action="store_true")
    return p


def _fields(a: argparse.Namespace) -> dict:
    fields: dict = {}
    if a.collection:
        with open(a.collection, encoding="utf-8") as f:
            fields = json.load(f)
        if not isinstance(fields, dict):
            raise ValueError(f"{a.collection}: expected a JSON object of COLLECTION fields")
    for key, value in (("id", a.id), ("description", a.description), ("title", a.title),
                       ("dataset_version", a.dataset_version), ("taco_version", a.taco_version)):
        if value:
            fields[key] = value
    for key, values in (("licenses", a.license), ("tasks", a.task), ("keywords", a.keyword)):
        if values:
            fields[key] = values
    if a.provider:
        fields["providers"] = [{"name": p} for p in a.provider]
    return fields


def _fail(a, message: str, kind: str, code: int) -> int:
    """Reports an error as the native `taco` does: a line on standard error, or with --json one
    JSON object there ({"error", "kind", "path", "exit_code"})."""
    if a.json:
        print(json.dumps({"error": message, "kind": kind, "path": a.output, "exit_code": code}), file=sys.stderr)
    else:
        print(f"taco create: {message}", file=sys.stderr)
    return code


def main(argv: list) -> int:
    a = _parser().parse_args(argv)
    if (a.scheduler is None) == (a.workers is None):
        return _fail(a, "give --scheduler tcp://HOST:PORT or --workers N, not both", "UsageError", 2)
    if a.workers is not None and a.workers < 1:
        return _fail(a, "--workers must be at least 1", "UsageError", 2)
    try:
        import distributed

        from . import _core
        from .dask import create
    except ImportError as exc:
        return _fail(a, f"the distributed create needs Dask in this Python ({sys.executable}): "
                        f"{exc}; install it with pip install 'tacocore[dask]'", "UsageError", 2)
    start = time.perf_counter()
    client = cluster = None
    try:
        if a.scheduler:
            try:
                client = distributed.Client(a.scheduler, timeout="10s")
            except (OSError, TimeoutError) as exc:
                return _fail(a, f"cannot reach the Dask scheduler {a.scheduler}: {exc}", "TacoIOError", 2)
        else:
            cluster = distributed.LocalCluster(n_workers=a.workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None)
            client = distributed.Client(cluster)
        report: dict = {}
        parts = create(a.source, a.output, client, a.split_size, a.group_by,
                       metadata=a.metadata, key=a.key, pad_to=a.pad_to or None,
                       collection=_fields(a), report=report)
    except (_core.TacoIOError, _core.TacoQueryError, OSError) as exc:
        return _fail(a, str(exc), type(exc).__name__, 2)
    except (_core.TacoError, ValueError) as exc:
        return _fail(a, str(exc), type(exc).__name__, 1)
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    seconds = time.perf_counter() - start
    results = report.get("parts", [])
    total = sum(r["bytes"] for r in results)
    files = sum(r["files"] for r in results)
    if a.json:
        print(json.dumps({"path": str(parts[0]), "format": "zip", "bytes": total, "files": files,
                          "parts": [str(p) for p in parts], "index": report.get("index"),
                          "seconds": seconds, "scheduler": a.scheduler or f"local:{a.workers}",
                          "timings": {k: v for k, v in report.items() if k.startswith("seconds")}}))
    elif not a.quiet:
        what = f"{len(parts)} parts of {a.output}" if len(parts) > 1 else str(parts[0])
        print(f"created {what} (zip, {total} bytes, {files} files) in {seconds:.2f} s on Dask "
              f"({a.scheduler or f'{a.workers} local workers'})")
        if len(parts) > 1:
            print(f"  {len(parts)} parts, first {parts[0]}, last {parts[-1]}; index {report.get('index')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
