"""`taco info / ls / sql / cat / validate` on datasets served by nginx and moto (S3) on loopback.

Request counts come from nginx's access log: opening a remote ZIP costs at most 3 requests (HEAD,
TACO_HEADER, one merged range for the level tables and COLLECTION.json), 1 with a warm metadata
cache; reading a sample's bytes is one ranged GET.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time

import pytest
from remote_paths import FIXTURES, TACO

NESTED_ZIP = "ref/tacoreader/zip/nested/nested.tacozip"
FLAT_ZIP = "ref/tacoreader/zip/flat/flat.tacozip"
NESTED_FOLDER = "ref/tacoreader/folder/nested"


def ok(proc):
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def local_info(path, taco):
    return json.loads(ok(taco("info", path, "--json")))


def same_info(remote, local):
    """info --json of a remote and a local copy agree except for the path."""
    remote = dict(remote)
    local = dict(local)
    remote.pop("path", None)
    local.pop("path", None)
    assert remote == local


def test_zip_open_costs_three_requests_then_one(served, taco, cache_dir):
    url = served.url(NESTED_ZIP)
    with served.srv.measure() as cold:
        remote = json.loads(ok(taco("info", url, "--json")))
    same_info(remote, local_info(served.root / NESTED_ZIP, taco))
    assert len(cold) <= 3, cold
    assert [r.method for r in cold].count("HEAD") <= 1
    assert all(r.status in (200, 206) for r in cold), cold
    # Bytes fetched: the header chunk and the metadata tail, never the whole archive twice.
    size = (served.root / NESTED_ZIP).stat().st_size
    assert sum(r.bytes_sent for r in cold) <= size + 16384
    assert any(cache_dir.glob("*.tacometa"))
    with served.srv.measure() as warm:
        ok(taco("info", url, "--json"))
    assert [(r.method, r.status) for r in warm] == [("HEAD", 200)], warm


def test_misaligned_level_offsets_are_read_corrected_and_the_verdict_cached(served, taco, cache_dir):
    """nested.tacozip's level-1 offsets are misaligned in the file (FORMAT.md §4.3): read remotely,
    the views give each sample's own, as locally; the local headers that prove it are read once,
    and a warm open reuses that verdict (one HEAD, nothing else)."""
    query = 'SELECT "internal:relative_path" AS p, "internal:offset" AS o, "internal:size" AS s FROM level1'
    local = taco("sql", served.root / NESTED_ZIP, query, "--json")
    url = served.url(NESTED_ZIP)
    cold = taco("sql", url, query, "--json")
    assert json.loads(ok(cold)) == json.loads(ok(local))
    assert json.loads(ok(cold))[0] == {"p": "europe/item_0", "o": 205, "s": 13}
    assert "METADATA/level1.parquet: 9 rows carry the internal:offset/size of other rows" in cold.stderr
    with served.srv.measure() as warm:
        again = taco("sql", url, query, "--json")
    assert json.loads(ok(again)) == json.loads(ok(local))
    assert "9 rows carry" in again.stderr
    assert [(r.method, r.status) for r in warm] == [("HEAD", 200)], warm


def test_changed_file_is_refetched_never_stale(served, taco):
    rel = "ref/changing.tacozip"
    target = served.root / rel
    shutil.copyfile(served.root / NESTED_ZIP, target)
    url = served.url(rel)
    assert "level 1: 9 rows" in ok(taco("info", url))
    time.sleep(1.1)  # Last-Modified has one-second resolution
    shutil.copyfile(served.root / FLAT_ZIP, target)
    out = ok(taco("info", url))
    assert out == ok(taco("info", served.root / FLAT_ZIP)).replace(
        str(served.root / FLAT_ZIP), url)


def test_folder_by_known_names(served, taco):
    url = served.url(NESTED_FOLDER)
    with served.srv.measure() as got:
        remote = json.loads(ok(taco("info", url, "--json")))
    same_info(remote, local_info(served.root / NESTED_FOLDER, taco))
    uris = {r.uri for r in got}
    assert uris == {f"/{NESTED_FOLDER}/COLLECTION.json",
                    f"/{NESTED_FOLDER}/METADATA/level0.parquet",
                    f"/{NESTED_FOLDER}/METADATA/level1.parquet"}, got
    assert all(r.status in (200, 206) for r in got), "no listing, no probing of missing files"
    assert [r.method for r in got] == ["GET"] * 3, got  # one GET per file (tacoreader: 6-10)
    with served.srv.measure() as warm:
        ok(taco("info", url, "--json"))
    assert [(r.method, r.status) for r in warm] == [("GET", 304)] * 3, warm


@pytest.mark.parametrize("rel", [NESTED_ZIP, NESTED_FOLDER])
def test_ls_sql_cat_match_local(served, taco, rel):
    url, local = served.url(rel), served.root / rel
    assert ok(taco("ls", url, "europe")) == ok(taco("ls", local, "europe"))
    query = 'SELECT id, type FROM data ORDER BY id'
    assert ok(taco("sql", url, query, "--json")) == ok(taco("sql", local, query, "--json"))
    remote_bytes = taco("cat", url, "europe/item_1", text=False)
    assert remote_bytes.returncode == 0, remote_bytes.stderr
    assert remote_bytes.stdout == taco("cat", local, "europe/item_1", text=False).stdout
    assert len(remote_bytes.stdout) > 0


def test_folder_sample_is_one_request(served, taco):
    url = served.url(NESTED_FOLDER)
    ok(taco("info", url))
    with served.srv.measure() as got:
        out = taco("cat", url, "asia/item_2", text=False)
    assert out.returncode == 0, out.stderr
    sample = [r for r in got if "/DATA/" in r.uri and "__meta__" not in r.uri]
    assert [(r.method, r.status) for r in sample] == [("GET", 200)], got


def test_read_bytes_is_one_request(served, taco):
    url = served.url(NESTED_ZIP)
    ok(taco("info", url))  # warm the cache: the open below is its HEAD
    with served.srv.measure() as got:
        out = taco("cat", url, "asia/item_2", text=False)
    assert out.returncode == 0, out.stderr
    gets = [r for r in got if r.method == "GET"]
    assert [r.method for r in got].count("HEAD") == 1 and len(gets) == 1, got
    assert gets[0].range.startswith("bytes=")


def test_validate_remote(served, taco):
    for rel in (NESTED_ZIP, NESTED_FOLDER):
        out = taco("validate", served.url(rel), "--json")
        assert out.returncode == 0, out.stdout + out.stderr
        assert "remote.scope" in out.stdout


def test_gdal_vsi_of_remote_zip(served, taco):
    url = served.url(NESTED_ZIP)
    rows = json.loads(ok(taco("sql", url, 'SELECT "internal:gdal_vsi" AS v FROM level1', "--json")))
    vsis = [r["v"] for r in rows]
    assert vsis and all(v.startswith("/vsisubfile/") and v.endswith(",/vsicurl/" + url)
                        for v in vsis), vsis[:2]


# ---- errors ---------------------------------------------------------------------------------------


def test_not_found_names_url_and_status(served, taco):
    url = served.url("ref/missing.tacozip")
    out = taco("info", url)
    assert out.returncode == 2
    assert url in out.stderr and "404" in out.stderr, out.stderr


def test_forbidden_hints_at_credentials(served_root, taco):
    from servers import Nginx
    with Nginx(served_root, extra="location /ref/ { return 403; }") as srv:
        out = taco("info", srv.url(NESTED_ZIP))
    assert out.returncode == 2
    assert "403" in out.stderr and "credentials" in out.stderr, out.stderr


def test_server_error_is_retried_then_reported(served_root, taco):
    from servers import Nginx
    with Nginx(served_root, extra="location /ref/ { return 503; }") as srv:
        with srv.measure() as got:
            out = taco("info", srv.url(NESTED_ZIP),
                       env={"GDAL_HTTP_MAX_RETRY": "2", "GDAL_HTTP_RETRY_DELAY": "0.1"})
    assert out.returncode == 2
    assert "503" in out.stderr and srv.url(NESTED_ZIP) in out.stderr, out.stderr
    assert len(got) == 3, got  # the first try and two retries


def test_server_without_ranges(served_root, taco):
    from servers import Nginx
    with Nginx(served_root, extra="max_ranges 0;") as srv:
        out = taco("info", srv.url(NESTED_ZIP))
    assert out.returncode == 2
    assert srv.url(NESTED_ZIP) in out.stderr and "range" in out.stderr.lower(), out.stderr


def test_timeout_does_not_hang(taco):
    # A server that accepts connections and never answers.
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    port = sock.getsockname()[1]
    held = []
    stop = threading.Event()

    def accept():
        sock.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(sock.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        start = time.monotonic()
        out = taco("info", f"http://127.0.0.1:{port}/x.tacozip",
                   env={"GDAL_HTTP_TIMEOUT": "1", "GDAL_HTTP_MAX_RETRY": "1",
                        "GDAL_HTTP_RETRY_DELAY": "0.1"}, timeout=60)
        elapsed = time.monotonic() - start
    finally:
        stop.set()
        t.join()
        for c in held:
            c.close()
        sock.close()
    assert out.returncode == 2
    assert "timed out" in out.stderr and "GDAL_HTTP_TIMEOUT=1" in out.stderr, out.stderr
    assert len(held) == 2  # the first try and one retry
    assert elapsed < 20


def test_unsupported_scheme(taco):
    out = taco("info", "ftp://example.org/x.tacozip")
    assert out.returncode == 2 and "unsupported URL scheme" in out.stderr


def test_truncated_file(served, taco):
    rel = "ref/truncated.tacozip"
    data = (served.root / NESTED_ZIP).read_bytes()
    (served.root / rel).write_bytes(data[: len(data) // 2])
    out = taco("info", served.url(rel))
    assert out.returncode != 0
    assert served.url(rel) in out.stderr and "truncated" in out.stderr, out.stderr


# ---- cache ----------------------------------------------------------------------------------------


def test_cache_clear(served, taco, cache_dir):
    ok(taco("info", served.url(FLAT_ZIP)))
    assert any(cache_dir.glob("*.tacometa"))
    out = ok(taco("cache", "clear"))
    assert "removed 1 cached entry" in out
    assert not any(cache_dir.glob("*.tacometa"))
    assert ok(taco("cache", "dir")).strip() == str(cache_dir)


def test_concurrent_processes_share_the_cache(served, cache_dir):
    import subprocess
    env = dict(os.environ, TACOCORE_CACHE_DIR=str(cache_dir))
    url = served.url(NESTED_ZIP)
    for _ in range(3):
        procs = [subprocess.Popen([str(TACO), "info", url, "--json"], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
        outs = [p.communicate(timeout=120) for p in procs]
        assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
        assert len({o[0] for o in outs}) == 1
    # Two entries: the metadata, and what the local headers said of its misaligned level-1
    # offsets (READER.md §5.1); each written once, whole, whatever the races.
    assert len(list(cache_dir.glob("*.tacometa"))) == 2
    assert not [p for p in cache_dir.iterdir() if not p.name.endswith(".tacometa")]


# ---- S3 (moto) ------------------------------------------------------------------------------------


def test_s3_with_aws_environment(moto, taco):
    out = taco("info", f"s3://{moto.bucket}/data/nested.tacozip", "--json", env=moto.env())
    remote = json.loads(ok(out))
    same_info(remote, local_info(FIXTURES / "tacoreader/zip/nested/nested.tacozip", taco))
    folder = taco("ls", f"s3://{moto.bucket}/data/nested", "europe", env=moto.env())
    assert ok(folder) == ok(taco("ls", FIXTURES / "tacoreader/folder/nested", "europe"))
    cat = taco("cat", f"s3://{moto.bucket}/data/nested.tacozip", "asia/item_0", env=moto.env(),
               text=False)
    assert cat.returncode == 0
    assert cat.stdout == taco("cat", FIXTURES / "tacoreader/zip/nested/nested.tacozip",
                              "asia/item_0", text=False).stdout


def test_s3_wrong_secret_fails_clearly(moto, taco):
    url = f"s3://{moto.bucket}/data/nested.tacozip"
    out = taco("info", url, env=moto.env(secret="not-the-secret"))
    assert out.returncode == 2
    assert url in out.stderr and "403" in out.stderr and "credentials" in out.stderr, out.stderr


def test_s3_with_a_profile(moto, taco, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text(f"[default]\naws_access_key_id = nobody\naws_secret_access_key = wrong\n\n"
                     f"[taco]\naws_access_key_id = {moto.access_key}\n"
                     f"aws_secret_access_key = {moto.secret_key}\n")
    (tmp_path / "config").write_text("")
    env = {"AWS_PROFILE": "taco", "AWS_SHARED_CREDENTIALS_FILE": str(creds),
           "AWS_CONFIG_FILE": str(tmp_path / "config"), "AWS_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": moto.endpoint}
    out = taco("info", f"s3://{moto.bucket}/data/nested.tacozip", env=env)
    assert out.returncode == 0, out.stderr
    env["AWS_PROFILE"] = "default"
    out = taco("info", f"s3://{moto.bucket}/data/nested.tacozip", env=env)
    assert out.returncode == 2 and "403" in out.stderr, out.stderr
