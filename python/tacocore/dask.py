"""Dask for TACO datasets: metadata as a dask DataFrame, and a multi-part create on a cluster.

``to_dask(ds)`` partitions the metadata of a dataset's current view by part (collections) or by
row group (one dataset); ``create(source, output, client=...)`` builds the ZIP parts of a
multi-part dataset as one task per part on a ``distributed`` cluster and writes the
``.tacocat/`` index once every part is done. The same code runs on a LocalCluster, on SLURM/PBS
(dask-jobqueue) or Kubernetes (dask-kubernetes): user guide, "Scale-out with Dask". Needs
``pip install 'tacocore[dask]'``.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import pickle
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence, Union

try:
    import dask.dataframe as dd
except ImportError as _exc:  # pragma: no cover - depends on the environment
    raise ImportError("tacocore.dask needs Dask: pip install 'tacocore[dask]'") from _exc

from . import _core
from ._reader import TacoDataset
from ._toolbox import Taco

__all__ = ["to_dask", "create"]

logger = logging.getLogger("tacocore.dask")

#: Rows per partition of a single dataset: the row-group size tacocore writes level tables with.
ROW_GROUP_ROWS = 65536


# --- to_dask ----------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=8)
def _opened(recipe: bytes) -> TacoDataset:
    """The dataset a pickled recipe describes, opened once per worker process."""
    fn, args = pickle.loads(recipe)
    return fn(*args)


def _partition(recipe: bytes, where: str) -> Any:
    import pyarrow as pa

    ds = _opened(recipe)
    table = pa.table(ds._native.sql(f"SELECT * FROM data WHERE {where}").data())
    return table.to_pandas()


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def to_dask(ds: Union[TacoDataset, str, os.PathLike], partition_rows: int = ROW_GROUP_ROWS) -> "dd.DataFrame":
    """The metadata of ``ds``'s current view (columns as ``ds.data``: no internal column but
    ``internal:gdal_vsi``) as a ``dask.dataframe``, computed on the workers.

    Partitions: one per part of a collection (``.tacocat``, ``__TACOCAT__``) or concatenation
    (by ``internal:source_file`` / ``internal:source_path``); for one dataset, one per
    ``partition_rows`` rows by ``internal:current_id``, which is one Parquet row group of a
    dataset tacocore wrote (DuckDB skips the others by their statistics). Each worker opens the
    dataset itself (it must reach the same path or URL) and runs the view's SQL with the
    partition's condition. A view without ``internal:current_id`` (a SELECT that drops it) is one
    partition.
    """
    from . import load

    if not isinstance(ds, TacoDataset):
        ds = load(os.fspath(ds))
    ds._check_open()
    if partition_rows < 1:
        raise ValueError(f"partition_rows must be >= 1, not {partition_rows}")
    try:
        recipe = pickle.dumps(ds.__reduce__())
    except TypeError as exc:
        raise _core.TacoQueryError(f"{ds._native.path}: to_dask needs a dataset the workers can open again: {exc}") from None
    import pyarrow as pa

    columns = [name for name, _ in ds._native.columns()]
    meta = pa.table(ds._native.sql("SELECT * FROM data LIMIT 0").data()).to_pandas()
    wheres: List[str] = []
    # A view that orders its rows (its SQL has an ORDER BY) is one partition: partitions are
    # concatenated in storage order, which would undo the view's.
    ordered = re.search(r"\border\s+by\b", ds._native.query or "", re.IGNORECASE) is not None
    for part_column in () if ordered else ("internal:source_file", "internal:source_path"):
        if part_column in columns:
            values = pa.table(ds._native.sql(
                f'SELECT DISTINCT "{part_column}" AS p FROM data ORDER BY 1').data_raw()).column("p").to_pylist()
            wheres = [f'"{part_column}" = {_quote(v)}' if v is not None else f'"{part_column}" IS NULL'
                      for v in values]
            break
    if not wheres and not ordered and "internal:current_id" in columns:
        bounds = pa.table(ds._native.sql(
            'SELECT min("internal:current_id") AS lo, max("internal:current_id") AS hi FROM data'
        ).data_raw())
        lo, hi = bounds.column("lo")[0].as_py(), bounds.column("hi")[0].as_py()
        if lo is not None:
            start = (lo // partition_rows) * partition_rows
            wheres = [f'"internal:current_id" >= {a} AND "internal:current_id" < {a + partition_rows}'
                      for a in range(start, hi + 1, partition_rows)]
    if not wheres:
        wheres = ["TRUE"]
    return dd.from_map(_partition, [recipe] * len(wheres), wheres, meta=meta,
                       label="tacocore-metadata", enforce_metadata=False)


# --- create ------------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=2)
def _directory_tree(source: str, metadata: str, key: str, pad_to: int) -> Any:
    """The sample tree of a source directory, listed once per worker process."""
    return _core.directory_tortilla(source, metadata, key, pad_to)


def _directory_part(spec: dict, name: str, positions: List[int], ids: List[str]) -> list:
    """The part's samples out of the source directory, listed again on the worker."""
    tree = _directory_tree(spec["source"], spec["metadata"], spec["key"], spec["pad_to"])
    samples = tree.samples
    picked = []
    for position, expected in zip(positions, ids):
        if position >= len(samples) or samples[position].id != expected:
            raise _core.TacoIOError(
                f"part {name}: the worker sees another {spec['source']} than the client (sample "
                f"{expected!r} is not at position {position}); the input directory must be the "
                "same shared storage for the client and every worker")
        picked.append(samples[position])
    return picked


def _write_part(spec: dict, name: str, positions: List[int], ids: List[str], staging: str,
                prepare: Optional[Callable], shipped: Optional[bytes] = None) -> dict:
    """One task: builds the part's dataset from the inputs where they are and writes it at
    `staging` (a hidden name beside the output). Runs on a worker. The samples are either
    listed from the source directory (`positions`/`ids`) or `shipped`: the part's samples of a
    Taco, pickled with the task (FILE samples as their paths, which the worker must see, or
    their in-memory bytes). Does nothing once another part has failed (the client then leaves
    an abort marker beside the output)."""
    start = time.perf_counter()
    if os.path.exists(spec["abort"]):
        return {"name": name, "staging": None, "aborted": True}
    if prepare is not None:
        prepare(name, ids)
    # Unpickled here, not by Dask: a FILE the worker cannot see then fails the task with the
    # error naming it (Dask would only report that the task could not be deserialized).
    picked = pickle.loads(shipped) if shipped is not None else _directory_part(spec, name, positions, ids)
    listed = time.perf_counter()
    fields = dict(spec["fields"])
    fields.pop("extent", None)  # each part computes its own, as the single-process create does
    taco = _core.Taco(_core.Tortilla(picked, None, True), json.dumps(fields), spec.get("descriptions", {}))
    summary = _core.create(taco, staging, "zip", False, spec["compression_level"], "", [], True)
    return {"name": name, "staging": staging, "bytes": summary["bytes"], "files": summary["files"],
            "levels": summary["level_rows"], "seconds_list": listed - start,
            "seconds_write": time.perf_counter() - listed}


def _collection_fields(output: Path, collection: Optional[dict]) -> dict:
    fields = dict(collection or {})
    if not fields.get("id"):
        stem = "".join(c if c.isalnum() or c == "-" else "_" for c in output.stem.lower())
        fields["id"] = stem
    fields.setdefault("dataset_version", "1.0.0")
    fields.setdefault("description", "")
    fields.setdefault("licenses", [])
    fields.setdefault("providers", [])
    fields.setdefault("tasks", [])
    fields.setdefault("taco_version", "2.0.0")
    return fields


def _group_columns(group_by: Optional[Union[str, Sequence[str]]]) -> List[str]:
    """group_by as tacocore.create takes it: None, a column name, or a list of names."""
    if group_by is None:
        return []
    if isinstance(group_by, str):
        return [group_by]
    if isinstance(group_by, (list, tuple)) and group_by and all(isinstance(c, str) for c in group_by):
        return list(group_by)
    raise _core.TacoSchemaError(f"group_by must be a column name or a non-empty list of names, not {group_by!r}")


def create(source: Union[str, os.PathLike, Taco], output: Union[str, os.PathLike], client: Any = None,
           split_size: Optional[Union[str, int]] = None,
           group_by: Optional[Union[str, Sequence[str]]] = None, *,
           metadata: Optional[Union[str, os.PathLike]] = None, key: str = "path",
           pad_to: Optional[int] = None, collection: Optional[dict] = None,
           compression_level: int = 3, workers: Optional[int] = None,
           prepare: Optional[Callable[[str, List[str]], None]] = None,
           report: Optional[dict] = None) -> List[Path]:
    """Builds a multi-part ZIP dataset on a Dask cluster: one task per part, then the index.

    ``source`` is a directory, as ``taco create --from`` reads it (files become FILE samples,
    sub-directories FOLDER samples; ``metadata`` a CSV/Parquet/JSON table joined on ``key``;
    ``pad_to``), or a ``Taco`` built in this process: its root samples are pickled into the
    tasks of their parts (FILE samples travel as their paths, which every worker must see;
    in-memory bytes travel with the task) and its COLLECTION fields are used as they are
    (``collection``, ``metadata``, ``key`` and ``pad_to`` are then refused). ``split_size``/``group_by`` cut the level-0 samples into parts exactly as
    ``tacocore.create`` does (same names, same contents); ``collection`` holds the COLLECTION
    fields (``id`` defaults to the output's name, ``dataset_version`` to "1.0.0"). The client
    lists the directory and plans the parts; each worker lists it again (once per process),
    checks it sees the same samples, and writes its part under a hidden staging name beside the
    output; the client then writes ``.tacocat/`` over the staged parts and renames everything
    into place. So the input directory and the output's directory must be shared storage that
    the client and every worker see at the same path.

    ``client``: a ``distributed.Client``; None uses the current one, or starts a LocalCluster
    of ``workers`` processes (default 2) for this call. ``prepare(part_name, sample_ids)`` runs
    on the worker before a part is written (fetch or check inputs); an exception there fails
    the part. ``report``, a dict, receives timings and per-part results.

    Failure of any task: the tasks not started yet skip their work (an abort marker beside the
    output), the running ones are waited for, every staged part is removed, no
    ``.tacocat/`` is written, and TacoIOError names the part and the cause. Existing outputs are
    never replaced (TacoIOError naming the first). Returns the parts' paths, in order.
    """
    import distributed

    t0 = time.perf_counter()
    output = Path(os.fspath(output)).absolute()
    if isinstance(source, Taco):
        given = [n for n, v in (("collection", collection), ("metadata", metadata), ("pad_to", pad_to))
                 if v is not None] + (["key"] if key != "path" else [])
        if given:
            raise _core.TacoSchemaError(
                f"distributed create from a Taco: {', '.join(given)} belong(s) to a directory "
                "source; a Taco already holds its samples' metadata and COLLECTION fields")
        spec = {"source": None, "fields": dict(source._fields), "compression_level": compression_level,
                "descriptions": dict(source._descriptions)}
        taco = source._native
        tree = taco.tortilla
    else:
        source = os.fspath(source)
        if not os.path.isdir(source):
            raise _core.TacoIOError(f"{source}: not a directory (create reads the samples from a directory)")
        spec = {"source": os.path.abspath(source), "metadata": os.fspath(metadata) if metadata else "",
                "key": key, "pad_to": int(pad_to or 0),
                "fields": _collection_fields(output, collection), "compression_level": compression_level}
        if spec["metadata"]:
            spec["metadata"] = os.path.abspath(spec["metadata"])
        tree = _core.directory_tortilla(spec["source"], spec["metadata"], key, spec["pad_to"])
        taco = _core.Taco(tree, json.dumps(spec["fields"]))
    plan = _core.plan_parts(taco, os.fspath(output), "" if split_size is None else str(split_size),
                            _group_columns(group_by))
    samples = tree.samples
    single = len(plan) == 1 and not group_by
    directory = output.parent
    targets = [directory / name for name, _ in plan]
    index = directory / ".tacocat"
    for target in targets + ([] if single else [index]):
        if os.path.lexists(target):
            raise _core.TacoIOError(f"{target} already exists; remove it first (a distributed "
                                    "create never replaces an existing output)")
    token = secrets.token_hex(4)
    staged = [str(directory / f".{name}.tacocore-dask-{token}") for name, _ in plan]
    spec["abort"] = str(directory / f".tacocore-dask-{token}.abort")
    t_plan = time.perf_counter()

    own_cluster = None
    if client is None:
        try:
            client = distributed.get_client()
        except ValueError:
            own_cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1,
                                                   processes=True, dashboard_address=None)
            client = distributed.Client(own_cluster)
    t_cluster = time.perf_counter()
    results: List[dict] = []
    try:
        shipping = spec["source"] is None
        futures = [client.submit(_write_part, spec, name, list(positions),
                                 [samples[p].id for p in positions], staged[k], prepare,
                                 pickle.dumps([samples[p] for p in positions]) if shipping else None,
                                 key=f"tacocore-part-{name}-{token}", pure=False, retries=0)
                   for k, (name, positions) in enumerate(plan)]
        try:
            for future in distributed.as_completed(futures):
                if future.status == "error":
                    exc = future.exception()
                    name = plan[futures.index(future)][0]
                    raise _core.TacoIOError(f"distributed create of {output}: part {name} failed "
                                            f"on its worker: {type(exc).__name__}: {exc}") from exc
                results.append(future.result())
        except BaseException:
            # Tasks already running cannot be stopped from here: the marker makes the ones not
            # started yet return at once, every task is waited for, then every staged part is
            # removed, so nothing is left once this raises. The output directory may not exist
            # yet (no task got as far as creating it): then there is no marker, the remaining
            # tasks run, and their parts are removed all the same; the marker only saves work.
            try:
                Path(spec["abort"]).touch()
            except OSError:
                pass
            try:
                distributed.wait(futures)
            finally:
                _remove(staged + [spec["abort"]])
            raise
        t_parts = time.perf_counter()
        results.sort(key=lambda r: staged.index(r["staging"]))
        try:
            if not single:
                index_staging = directory / f".tacocat.tacocore-dask-{token}"
                _core.write_tacocat_staged(staged, [name for name, _ in plan], str(index_staging))
            _commit(staged, targets)
            if not single:
                _commit([str(index_staging)], [index])
        except BaseException:
            _remove(staged + ([str(index_staging)] if not single else []))
            raise
        t_index = time.perf_counter()
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    if report is not None:
        report.update({"parts": results, "seconds_plan": t_plan - t0,
                       "seconds_cluster": t_cluster - t_plan, "seconds_parts": t_parts - t_cluster,
                       "seconds_index": t_index - t_parts, "seconds": time.perf_counter() - t0,
                       "index": None if single else str(index)})
    logger.info("distributed create of %s: %d part(s) in %.2f s", output, len(plan),
                time.perf_counter() - t0)
    return targets


def _remove(paths: Sequence[str]) -> None:
    for p in paths:
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        elif os.path.lexists(p):
            os.unlink(p)


def _commit(staged: Sequence[str], targets: Sequence[Path]) -> None:
    """Renames staged outputs into place, refusing to replace anything that appeared meanwhile
    (a file is linked then unlinked: link() fails on an existing name)."""
    for s, t in zip(staged, targets):
        if os.path.isdir(s):
            if os.path.lexists(t):
                raise _core.TacoIOError(f"{t} appeared during the create; not replaced")
            os.rename(s, t)
        else:
            try:
                os.link(s, t)
            except FileExistsError:
                raise _core.TacoIOError(f"{t} appeared during the create; not replaced") from None
            os.unlink(s)
