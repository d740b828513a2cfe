"""A warm open of an unchanged remote FOLDER costs one request, and nothing stale is ever served.

The open validates COLLECTION.json (one conditional GET: 304); the level tables come from the
metadata cache unverified and are validated (one conditional GET each, concurrently) right before
the first statement that reads them. Counted in nginx's access log.
"""

from __future__ import annotations

import os
import shutil
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tacocore

NESTED_FOLDER = "ref/tacoreader/folder/nested"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TACOCORE_CACHE_DIR", str(tmp_path / "cache"))
    for k in [k for k in os.environ if k.startswith("AWS_")]:
        monkeypatch.delenv(k)


@pytest.fixture
def folder(served, request):
    """A private copy of the nested FOLDER fixture on the server (tests change its files)."""
    rel = f"ref/warm-{request.node.name.replace('[', '-').replace(']', '')}"
    shutil.rmtree(served.root / rel, ignore_errors=True)
    shutil.copytree(served.root / NESTED_FOLDER, served.root / rel)
    yield rel, served.root / rel
    shutil.rmtree(served.root / rel, ignore_errors=True)


def calls(got):
    return sorted((r.method, r.uri.rsplit("/", 2)[-2] + "/" + r.uri.rsplit("/", 1)[-1], r.status)
                  for r in got)


def rewrite_level(path, change):
    """Rewrites a level table on the server with `change(table)`, as a new version of the file
    (Last-Modified has one-second resolution; nginx's ETag is mtime + size)."""
    table = pq.read_table(path)
    time.sleep(1.1)
    pq.write_table(change(table), path)


def test_warm_open_is_one_request(served, folder):
    rel, _ = folder
    url = served.url(rel)
    cold = tacocore.load(url)
    rows = cold.data.to_arrow()
    with served.srv.measure() as got:
        warm = tacocore.load(url)
    assert calls(got) == [("GET", f"{rel.rsplit('/', 1)[-1]}/COLLECTION.json", 304)], got
    # The first query validates the cached level tables, all at once: one 304 each, nothing else.
    with served.srv.measure() as first:
        again = warm.data.to_arrow()
    assert calls(first) == [("GET", "METADATA/level0.parquet", 304),
                            ("GET", "METADATA/level1.parquet", 304)], first
    assert again.equals(rows)
    # Validated once per load: later queries and navigation cost no metadata request.
    with served.srv.measure() as later:
        warm.sql("SELECT count(*) AS n FROM level1").to_arrow()
        warm.data.read(0)
    assert not [r for r in later if "METADATA" in r.uri or "COLLECTION" in r.uri], later


def level1(ds):
    """Level 1 as the level table holds it (a FOLDER's read() walks its __meta__ files instead)."""
    return ds.sql('SELECT id, location FROM level1 ORDER BY "internal:current_id"').to_arrow()


def test_changed_level_table_is_never_served_stale(served, folder):
    rel, local = folder
    url = served.url(rel)
    before = level1(tacocore.load(url))
    # The publisher changes a child table without touching COLLECTION.json.
    rewrite_level(local / "METADATA/level1.parquet", lambda t: t.set_column(
        t.schema.get_field_index("location"), t.schema.field("location"),
        pa.array([f"moved-{i}" for i in range(t.num_rows)], pa.string())))
    with served.srv.measure() as got:
        warm = tacocore.load(url)
    assert [r.status for r in got] == [304], got  # COLLECTION.json is unchanged
    with served.srv.measure() as first:
        after = level1(warm)
    statuses = {r.uri.rsplit("/", 1)[-1]: r.status for r in first if "METADATA" in r.uri}
    assert statuses == {"level0.parquet": 304, "level1.parquet": 200}, first
    assert after.column("location").to_pylist() == [f"moved-{i}" for i in range(after.num_rows)]
    assert after.column("id").to_pylist() == before.column("id").to_pylist()
    assert warm.data.to_arrow().num_rows == 3
    # The new version is in the cache now: the next warm open and first query are 304s again.
    with served.srv.measure() as next_open:
        assert level1(tacocore.load(url)).equals(after)
    assert sorted(r.status for r in next_open if "METADATA" in r.uri or "COLLECTION" in r.uri) == [
        304, 304, 304], next_open


def test_a_changed_level_table_keeps_the_nan_rule(served, folder):
    """The swapped-in table is defined as load defines one: its float columns hide the file's
    min/max, which pyarrow writes without NaN (READER.md §8), so NaN filters stay right."""
    rel, local = folder
    url = served.url(rel)
    tacocore.load(url).data.to_arrow()
    rewrite_level(local / "METADATA/level1.parquet", lambda t: t.set_column(
        t.schema.get_field_index("cloud_cover"), t.schema.field("cloud_cover"),
        pa.array([float("nan")] + [1.0] * (t.num_rows - 1), pa.float64())))
    warm = tacocore.load(url)
    count = lambda where: warm.sql(f"SELECT count(*) AS n FROM level1 WHERE {where}").to_arrow()[  # noqa: E731
        "n"][0].as_py()
    assert count("cloud_cover = 'NaN'") == 1
    assert count("cloud_cover >= 'inf'") == 1
    assert count("cloud_cover <= 50") == 8


def test_changed_columns_ask_for_a_new_load(served, folder):
    rel, local = folder
    url = served.url(rel)
    tacocore.load(url).data.to_arrow()
    rewrite_level(local / "METADATA/level1.parquet",
                  lambda t: t.append_column("added", pa.array(range(t.num_rows), pa.int64())))
    warm = tacocore.load(url)
    with pytest.raises(tacocore.TacoIOError) as err:
        warm.data.to_arrow()
    msg = str(err.value)
    assert "METADATA/level1.parquet" in msg and url in msg, msg
    assert "changed on the server" in msg and "load the dataset again" in msg, msg
    assert "added" in msg, msg
    # A new load reads the new version (the check above cached it): no stale columns.
    fresh = tacocore.load(url)
    assert fresh.sql("SELECT added FROM level1").to_arrow().column("added").to_pylist() == [
        *range(9)]


def test_cold_open_still_fetches_every_table_once(served, folder):
    rel, _ = folder
    with served.srv.measure() as got:
        ds = tacocore.load(served.url(rel))
        ds.data.read(0).to_arrow()
    meta = sorted((r.uri.rsplit("/", 1)[-1], r.status) for r in got
                  if "METADATA" in r.uri or "COLLECTION" in r.uri)
    assert meta == [("COLLECTION.json", 200), ("level0.parquet", 200),
                    ("level1.parquet", 200)], got
