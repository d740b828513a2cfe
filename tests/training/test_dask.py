"""tacocore.dask on a real LocalCluster of worker processes: metadata as a dask DataFrame, the
multi-part create as one task per part, its failure modes, and `taco create --workers /
--scheduler` handing over to it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
pytest.importorskip("dask.dataframe")

import tacocore  # noqa: E402
import tacocore.dask as tdask  # noqa: E402

from training_data import pixels, write_tif  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """48 small GeoTIFFs plus a metadata table with a `region` (4 values) and a `cloud` column."""
    root = tmp_path_factory.mktemp("dask-source")
    d = root / "tiles"
    d.mkdir()
    rows = ["path,region,cloud"]
    for i in range(48):
        write_tif(d / f"tile{i:02d}.tif", pixels(i, (2, 24, 24)))
        rows.append(f"tile{i:02d}.tif,{['north', 'south', 'east', 'west'][i % 4]},{i * 1.5}")
    (root / "meta.csv").write_text("\n".join(rows) + "\n")
    return d


def zip_layout(path: Path) -> list:
    """Every entry's name, offset, size and CRC-32: the ZIP byte for byte but the DOS times."""
    import zipfile

    with zipfile.ZipFile(path) as z:
        return [(i.filename, i.header_offset, i.file_size, i.CRC) for i in z.infolist()]


def single_process_create(taco_bin, source, output, *extra):
    subprocess.run([str(taco_bin), "create", "--from", str(source), str(output), "--metadata",
                    str(source.parent / "meta.csv"), "--id", "tiles", "-q", *extra], check=True)


def test_dask_create_writes_the_same_parts_as_taco_create(client, source, taco_bin, tmp_path):
    (tmp_path / "one").mkdir()
    (tmp_path / "many").mkdir()
    single_process_create(taco_bin, source, tmp_path / "one" / "tiles.tacozip", "--split-size", "20KB")
    report = {}
    parts = tdask.create(source, tmp_path / "many" / "tiles.tacozip", client, split_size="20KB",
                         metadata=source.parent / "meta.csv", collection={"id": "tiles"},
                         report=report)
    expected = sorted(p.name for p in (tmp_path / "one").glob("*.tacozip"))
    assert len(expected) > 2
    assert [p.name for p in parts] == expected
    for name in expected:  # every part what the single-process create writes, but the ZIP times
        assert zip_layout(tmp_path / "many" / name) == zip_layout(tmp_path / "one" / name), name
    for f in ("level0.parquet", "COLLECTION.json"):
        assert (tmp_path / "many" / ".tacocat" / f).read_bytes() == (tmp_path / "one" / ".tacocat" / f).read_bytes()
    assert sorted(os.listdir(tmp_path / "many")) == sorted(expected + [".tacocat"])  # no staging left
    ds = tacocore.load(tmp_path / "many" / ".tacocat")
    assert ds.count() == 48
    assert len(report["parts"]) == len(expected) and report["seconds_parts"] > 0


def test_group_by_and_what_the_reference_reads(client, source, tmp_path):
    parts = tdask.create(source, tmp_path / "tiles.tacozip", client, group_by="region",
                         metadata=source.parent / "meta.csv", collection={"id": "tiles"})
    assert [p.name for p in parts] == ["tiles_north.tacozip", "tiles_south.tacozip",
                                       "tiles_east.tacozip", "tiles_west.tacozip"]
    ds = tacocore.load(tmp_path / ".tacocat")
    assert ds.count() == 48
    try:
        import tacoreader
    except ImportError:
        pytest.skip("tacoreader not installed")
    ref = tacoreader.load(str(tmp_path / ".tacocat"))
    assert len(ref.data) == 48


def test_a_failed_task_leaves_no_index_and_no_part(client, source, tmp_path):
    with pytest.raises(tacocore.TacoIOError, match=r"part tiles_south\.tacozip failed on its worker.*refused by the test"):
        tdask.create(source, tmp_path / "tiles.tacozip", client, group_by="region",
                     metadata=source.parent / "meta.csv", prepare=_refuse_south)
    assert os.listdir(tmp_path) == []  # no .tacocat/, no finished part, no staging file


def _refuse_south(name, ids):
    if "south" in name:
        raise RuntimeError(f"refused by the test ({len(ids)} samples)")


def test_existing_output_is_never_replaced(client, source, tmp_path):
    (tmp_path / "tiles_east.tacozip").write_bytes(b"keep me")
    with pytest.raises(tacocore.TacoIOError, match="tiles_east.tacozip already exists"):
        tdask.create(source, tmp_path / "tiles.tacozip", client, group_by="region",
                     metadata=source.parent / "meta.csv")
    assert os.listdir(tmp_path) == ["tiles_east.tacozip"]
    assert (tmp_path / "tiles_east.tacozip").read_bytes() == b"keep me"


def test_bad_plans_fail_before_any_task(client, source, tmp_path):
    with pytest.raises(tacocore.TacoSchemaError, match="no column 'biome'"):
        tdask.create(source, tmp_path / "t.tacozip", client, group_by="biome")
    with pytest.raises(tacocore.TacoSchemaError, match="ZIP parts"):
        tdask.create(source, tmp_path / "t", client, split_size="10KB")
    with pytest.raises(tacocore.TacoIOError, match="not a directory"):
        tdask.create(tmp_path / "missing", tmp_path / "t.tacozip", client)
    assert os.listdir(tmp_path) == []


def test_one_part_is_a_plain_dataset(client, source, tmp_path):
    parts = tdask.create(source, tmp_path / "all.tacozip", client)
    assert [p.name for p in parts] == ["all.tacozip"] and os.listdir(tmp_path) == ["all.tacozip"]
    assert tacocore.load(parts[0]).count() == 48


# --- to_dask ------------------------------------------------------------------------------------------

def test_to_dask_partitions_a_dataset_by_row_group(client, raster_zip):
    ds = tacocore.load(raster_zip)
    ddf = tdask.to_dask(ds, partition_rows=16)
    assert ddf.npartitions == 3
    got = ddf.compute()
    import pyarrow as pa

    want = pa.table(ds._native.data()).to_pandas()
    assert list(got.columns) == list(want.columns)
    assert got["id"].tolist() == want["id"].tolist()
    assert ddf[ddf["split"] == "test"]["index"].sum().compute() == sum(range(0, 40, 4))


def test_to_dask_keeps_the_order_of_an_ordered_view(client, raster_zip):
    # Partitions are concatenated in storage order: a view's ORDER BY is one partition.
    view = tacocore.load(raster_zip).sql('SELECT * FROM data ORDER BY "index" DESC')
    ddf = tdask.to_dask(view, partition_rows=16)
    assert ddf.npartitions == 1
    assert ddf.compute()["id"].tolist() == [f"t{i:02d}" for i in range(39, -1, -1)]


def test_to_dask_follows_the_view_and_partitions_collections_by_part(client, source, tmp_path):
    parts = tdask.create(source, tmp_path / "tiles.tacozip", client, group_by="region",
                         metadata=source.parent / "meta.csv", collection={"id": "tiles"})
    ds = tacocore.load(tmp_path / ".tacocat").sql("SELECT * FROM data WHERE cloud >= 30")
    ddf = tdask.to_dask(ds)
    assert ddf.npartitions == len(parts) == 4
    got = ddf.compute()
    assert len(got) == sum(1 for i in range(48) if i * 1.5 >= 30)
    assert set(got["region"]) == {"north", "south", "east", "west"}


# --- the CLI --------------------------------------------------------------------------------------------

def run_cli(taco_bin, *args, env=None):
    return subprocess.run([str(taco_bin), *map(str, args)], capture_output=True, text=True,
                          env={**os.environ, "TACO_PYTHON": sys.executable, **(env or {})})


def test_cli_workers_runs_a_local_cluster(taco_bin, source, tmp_path):
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "tiles.tacozip", "--metadata",
                source.parent / "meta.csv", "--group-by", "region", "--workers", "2", "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert len(summary["parts"]) == 4 and summary["files"] == 48
    assert summary["scheduler"] == "local:2"
    assert tacocore.load(tmp_path / ".tacocat").count() == 48


def test_cli_scheduler_uses_the_given_cluster(taco_bin, client, source, tmp_path):
    address = client.scheduler.address
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "tiles.tacozip",
                "--split-size", "30KB", "--scheduler", address)
    assert r.returncode == 0, r.stderr
    assert "on Dask (" + address in r.stdout
    assert tacocore.load(tmp_path / ".tacocat").count() == 48


def test_cli_errors_name_what_is_missing(taco_bin, source, tmp_path):
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t.tacozip", "--workers", "2",
                env={"TACO_PYTHON": "/nonexistent/python3"})
    assert r.returncode == 2 and "cannot run Python '/nonexistent/python3'" in r.stderr
    bare = tmp_path / "bare-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t.tacozip", "--workers", "2",
                env={"TACO_PYTHON": str(bare / "bin" / "python")})
    assert r.returncode == 2 and "cannot import" in r.stderr and "TACO_PYTHON" in r.stderr
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t.tacozip", "--scheduler",
                "tcp://127.0.0.1:9", "--workers", "2")
    assert r.returncode == 2 and "not both" in r.stderr
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t", "--workers", "2",
                "--format", "folder")
    assert r.returncode == 2 and "ZIP parts" in r.stderr
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t.tacozip", "--scheduler",
                "tcp://127.0.0.1:9")
    assert r.returncode == 2 and "cannot reach the Dask scheduler tcp://127.0.0.1:9" in r.stderr
    # --json: the errors are JSON objects on standard error, as the native taco writes them.
    r = run_cli(taco_bin, "create", "--from", source, tmp_path / "t.tacozip", "--scheduler",
                "tcp://127.0.0.1:9", "--workers", "2", "--json")
    error = json.loads(r.stderr.strip().splitlines()[-1])
    assert r.returncode == 2 and error["exit_code"] == 2 and error["kind"] == "UsageError", r.stderr
    assert "not both" in error["error"] and error["path"] == str(tmp_path / "t.tacozip")
    assert sorted(os.listdir(tmp_path)) == ["bare-venv"]
