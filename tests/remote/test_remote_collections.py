"""Remote collections: a multi-part dataset (parts + `.tacocat/` + `__TACOCAT__`) served by nginx
over plain http loads through its index URL with the rows, paths and sample bytes of the local
copy; the index costs the requests of its known files, each part one HEAD on its first read, and
every sample read one range request.
"""

from __future__ import annotations

import os

import pyarrow.parquet as pq
import pytest
from osgeo import gdal

import tacocore

N = 20


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TACOCORE_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def collection(served):
    """4 parts of 5 samples under ref/parts/, with both index layouts beside them."""
    out = served.root / "ref" / "parts"
    if not (out / ".tacocat").is_dir():
        src = served.root / "parts-src"
        src.mkdir(exist_ok=True)
        samples = []
        for i in range(N):
            p = src / f"f{i}.bin"
            p.write_bytes(bytes([i % 251]) * 4096)
            samples.append(tacocore.Sample(id=f"f{i:03d}", path=p))
        taco = tacocore.Taco(tortilla=tacocore.Tortilla(samples=samples), id="parts",
                             dataset_version="1.0.0", description="remote parts",
                             licenses=["CC-BY-4.0"], providers=[{"name": "p"}], tasks=["other"])
        parts = tacocore.create(taco, out / "ds.tacozip", split_size="20KB")
        assert len(parts) == 4
        (out / "file").mkdir()
        tacocore.create_tacocat(parts, out / "file", format="file")
        for p in out.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
    return out


def ids_and_paths(ds):
    t = ds.data.to_arrow()
    return t.column("id").to_pylist(), t.column("internal:gdal_vsi").to_pylist()


@pytest.mark.parametrize("index", [".tacocat", "file/__TACOCAT__"])
def test_remote_index_reads_like_the_local_one(served, collection, index):
    base = {} if index == ".tacocat" else {"base_path": served.url("ref/parts")}
    remote = tacocore.load(served.url(f"ref/parts/{index}"), **base)
    local = tacocore.load(str(collection)) if index == ".tacocat" else \
        tacocore.load(str(collection / "file" / "__TACOCAT__"), base_path=str(collection))
    ids, paths = ids_and_paths(remote)
    assert ids == [f"f{i:03d}" for i in range(N)] == ids_and_paths(local)[0]
    # Every path points into its part on the server, as GDAL opens it.
    base_vsi = "/vsicurl/" + served.url("ref/parts/")
    assert all(p.startswith("/vsisubfile/") and f",{base_vsi}ds_part000" in p for p in paths)
    for i in range(N):
        assert remote.data.read_bytes(f"f{i:03d}") == bytes([i % 251]) * 4096
    assert remote.pit_schema.root["n"] == N


def test_remote_index_requests(served, collection):
    srv = served.srv
    tacocore.clear_cache()  # GDAL remembers files this process opened before (HEADs, blocks)
    with srv.measure() as opened:
        ds = tacocore.load(served.url("ref/parts/.tacocat"))
    # COLLECTION.json and one level table: one GET each, no listing, no probing.
    assert sorted(r.uri.rsplit("/", 1)[1] for r in opened) == ["COLLECTION.json", "level0.parquet"]
    frame = ds.data
    with srv.measure() as reads:
        frame.read_bytes("f000")
        frame.read_bytes("f001")  # same part: no second HEAD
        frame.read_bytes("f019")  # the last part: its own HEAD
    heads = [r.uri.rsplit("/", 1)[1] for r in reads if r.method == "HEAD"]
    assert heads == ["ds_part0001.tacozip", "ds_part0004.tacozip"]
    gets = [r for r in reads if r.method == "GET"]
    # One range request per read at most (GDAL's block cache may serve the neighbour).
    assert 2 <= len(gets) <= 3 and all(r.range for r in gets)


def test_remote_part_missing_is_named(served, collection):
    moved = collection / "ds_part0003.tacozip"
    os.rename(moved, collection / "gone.tacozip")
    try:
        ds = tacocore.load(served.url("ref/parts/.tacocat"))
        with pytest.raises(tacocore.TacoIOError, match=r"ds_part0003\.tacozip.*404|404.*ds_part0003"):
            ds.data.read_bytes("f012")
    finally:
        os.rename(collection / "gone.tacozip", moved)


def test_cli_reads_a_remote_index(served, collection, taco):
    got = taco("sql", served.url("ref/parts/.tacocat"), "SELECT count(*) AS n FROM data", "--csv")
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines()[-1].strip() == str(N)
    cat = taco("cat", served.url("ref/parts/.tacocat"), "f007", text=False)
    assert cat.returncode == 0, cat.stderr
    assert cat.stdout == bytes([7]) * 4096


def test_validate_a_remote_index_checks_it_and_its_parts(served, collection, taco):
    # It was opened as a FOLDER (".tacocat/METADATA/level0.parquet: HTTP 404") or a ZIP ("not a
    # ZIP file"); now the index and each of its 4 parts are checked as a remote reader sees them.
    url = served.url("ref/parts/.tacocat")
    report = tacocore.validate(url)
    assert [f for f in report if f["severity"] == "error"] == [], report
    assert sum(f["code"] == "remote.scope" for f in report) == 4, report  # each part
    proc = taco("validate", url)
    assert proc.returncode == 0 and "valid (0 errors" in proc.stdout, proc.stdout + proc.stderr


def test_validate_a_remote_index_whose_parts_are_elsewhere(served, collection):
    # This __TACOCAT__ sits in file/, its parts one directory up: without base_path a reader
    # would find none of them, and validate says so for each (it said "valid").
    report = tacocore.validate(served.url("ref/parts/file/__TACOCAT__"))
    errors = [f for f in report if f["severity"] == "error"]
    assert len(errors) == 4 and all("HTTP 404" in f["message"] for f in errors), report


@pytest.mark.parametrize("index", [".tacocat", "file/__TACOCAT__"])
def test_an_index_url_with_a_query_string_asks_each_part_with_it(served, collection, index):
    # USER-GUIDE §6: the query string stays at the end of every URL derived from the index's,
    # the parts' included (…/ds_part0001.tacozip?token=abc); base_path may carry its own.
    base = {} if index == ".tacocat" else {"base_path": served.url("ref/parts") + "?token=b"}
    remote = tacocore.load(served.url(f"ref/parts/{index}") + "?token=a", **base)
    ids, paths = ids_and_paths(remote)
    assert ids == [f"f{i:03d}" for i in range(N)]
    query = "?token=a" if index == ".tacocat" else "?token=b"
    assert all(p.endswith(".tacozip" + query) for p in paths), paths[:2]
    for i in (0, N - 1):
        assert remote.data.read_bytes(f"f{i:03d}") == bytes([i % 251]) * 4096
    if index == ".tacocat":  # validate takes no base_path
        report = tacocore.validate(served.url(f"ref/parts/{index}") + "?token=a")
        assert [f for f in report if f["severity"] == "error"] == [], report


def test_a_concat_of_remote_collections_reads_each_part_with_its_query(served, collection):
    """internal:source_path of a collection in a concat is its parts' directory (tacoreader's),
    with the index URL's query string; each row's path is rebuilt from it and its part, as the
    collection's own view gives it."""
    plain = tacocore.load(served.url("ref/parts/.tacocat"))
    signed = tacocore.load(served.url("ref/parts/.tacocat") + "?token=a")
    both = tacocore.concat([plain, signed])
    rows = both.sql('SELECT id, "internal:source_path" AS sp, "internal:source_file" AS sf, '
                    '"internal:gdal_vsi" AS v FROM level0').to_arrow().to_pylist()
    assert len(rows) == 2 * N
    base = "/vsicurl/" + served.url("ref/parts")
    assert {r["sp"] for r in rows} == {base, base + "?token=a"}
    assert [r["v"] for r in rows] == ids_and_paths(plain)[1] + ids_and_paths(signed)[1]
    assert all(r["v"].endswith(",%s/%s%s" % (r["sp"].split("?")[0], r["sf"],
                                              "?token=a" if "?" in r["sp"] else ""))
               for r in rows)
    for i in (0, N + N - 1):
        assert both.data.read_bytes(i) == bytes([(i % N) % 251]) * 4096


@pytest.fixture(scope="module")
def misaligned(served):
    """Two tacotoolbox parts whose root FOLDER ids are not in sorted order ("r2, r10, r1"), and
    tacotoolbox's .tacocat/ beside them: the index's level-1 offsets are the parts' misaligned
    ones (FORMAT.md §4.3), which only the parts' local headers can show."""
    import tacotoolbox
    from tacotoolbox.datamodel import Sample, Taco, Tortilla

    out = served.root / "ref" / "misaligned"
    if not (out / ".tacocat").is_dir():
        src = served.root / "misaligned-src"
        src.mkdir(exist_ok=True)
        parts = []
        for name, roots in (("a", ["r2", "r10", "r1"]), ("b", ["q2", "q10", "q1"])):
            folders = []
            for r in roots:
                leaves = []
                for leaf in ("z", "y"):
                    f = src / f"{r}_{leaf}.bin"
                    f.write_bytes(f"{r}/{leaf}".encode() * 3)
                    leaves.append(Sample(id=leaf, path=str(f)))
                folders.append(Sample(id=r, path=Tortilla(leaves)))
            taco = Taco(tortilla=Tortilla(folders), id="misaligned", dataset_version="1.0.0",
                        description="misaligned parts", licenses=["CC-BY-4.0"],
                        providers=[{"name": "p"}], tasks=["other"])
            out.mkdir(parents=True, exist_ok=True)
            tacotoolbox.create(taco, str(out / f"{name}.tacozip"))
            parts.append(str(out / f"{name}.tacozip"))
        tacotoolbox.create_tacocat(parts, str(out))
        for p in [out, *out.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
    return out


def stored_offsets(root):
    return pq.read_table(root / ".tacocat" / "level1.parquet",
                         columns=["internal:offset"]).column(0).to_pylist()


LEVEL1 = ('SELECT "internal:relative_path" AS p, "internal:offset" AS o, "internal:size" AS s, '
          '"internal:source_file" AS f FROM level1')


def test_a_remote_collection_of_misaligned_parts_reads_each_samples_own_bytes(
        served, misaligned, caplog):
    """As locally (tests/python/test_level_offsets.py): the load opens the parts holding the
    evidence, and every level-1 row then points at its own sample in its part."""
    local = tacocore.load(str(misaligned)).sql(LEVEL1).to_arrow().to_pylist()
    assert [r["o"] for r in local] != stored_offsets(misaligned)  # the index is misaligned
    with caplog.at_level("WARNING", logger="tacocore.load"):
        remote = tacocore.load(served.url("ref/misaligned/.tacocat"))
    assert any("level1.parquet" in r.getMessage() and "rows carry the internal:offset/size"
               in r.getMessage() for r in caplog.records), caplog.text
    rows = remote.sql(LEVEL1).to_arrow().to_pylist()
    assert rows == local
    for r in rows:  # each sample's own bytes, read from the server
        want = r["p"].encode() * 3
        path = f"/vsisubfile/{r['o']}_{r['s']},/vsicurl/" + served.url(f"ref/misaligned/{r['f']}")
        f = gdal.VSIFOpenL(path, "rb")
        got = gdal.VSIFReadL(1, r["s"], f)
        gdal.VSIFCloseL(f)
        assert got == want, r


def test_a_remote_collection_part_that_cannot_be_checked_is_read_as_stored_and_named(
        served, misaligned, caplog):
    moved = misaligned / "a.tacozip"
    os.rename(moved, misaligned / "gone.tacozip")
    try:
        tacocore.clear_cache()
        with caplog.at_level("WARNING", logger="tacocore.load"):
            remote = tacocore.load(served.url("ref/misaligned/.tacocat"))
        assert "cannot check the level offsets of part a.tacozip" in caplog.text, caplog.text
        # Each part on its own evidence: a.tacozip's rows as stored, b.tacozip's realigned
        # (what a local load, with both parts there, reads for them).
        assert "in part(s) b.tacozip" in caplog.text, caplog.text
        rows = remote.sql(LEVEL1).to_arrow().to_pylist()
        stored = stored_offsets(misaligned)
        assert [r["o"] for r in rows if r["f"] == "a.tacozip"] == stored[:len(stored) // 2]
        os.rename(misaligned / "gone.tacozip", moved)
        local = tacocore.load(str(misaligned)).sql(LEVEL1).to_arrow().to_pylist()
        assert [r for r in rows if r["f"] == "b.tacozip"] == [r for r in local if r["f"] == "b.tacozip"]
        assert [r["o"] for r in rows if r["f"] == "b.tacozip"] != stored[len(stored) // 2:]
        os.rename(moved, misaligned / "gone.tacozip")
    finally:
        os.rename(misaligned / "gone.tacozip", moved)

