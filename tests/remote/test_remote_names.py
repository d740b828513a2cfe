"""Remote FOLDER datasets and collections whose names need care in a URL, and servers that
redirect.

Sample ids may hold a space, '#', '?' or '%' (the spec forbids only '/', '\\', ':' and a leading
'__'). Over http they must be percent-encoded in the URL: unencoded, 'g%20h' fetched the bytes of
the sample 'g h', and the others failed. A server that answers with a redirect (Hugging Face's
`resolve/` to a CDN, http to https, a moved mirror) must be followed for every file of a FOLDER
dataset and of a `.tacocat` index, as it already was for ZIP range reads.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tacocore
from servers import Nginx

IDS = ["g h", "g%20h", "c#d", "e?f", "100%", "plain"]
# /moved/X answers 302 to /X, the path kept as the client encoded it ($request_uri: nginx's
# rewrite would decode it, and a redirect to ".../e?f" asks for another file).
REDIRECT = "location /moved/ { if ($request_uri ~ ^/moved(/.*)$) { return 302 $1; } }"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TACOCORE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("GDAL_HTTP_MAX_RETRY", "0")


def _taco(tortilla, id_):
    return tacocore.Taco(tortilla=tortilla, id=id_, dataset_version="1.0.0", description="d",
                         licenses=["CC-BY-4.0"], providers=[{"name": "p"}], tasks=["other"])


@pytest.fixture(scope="module")
def www(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("names")
    src = root / "src"
    src.mkdir()
    samples = []
    for i, sid in enumerate(IDS):
        p = src / f"s{i}.bin"
        p.write_bytes(f"bytes of {sid!r}".encode())
        samples.append(tacocore.Sample(id=sid, path=p))
    flat = _taco(tacocore.Tortilla(samples=samples), "special")
    tacocore.create(flat, root / "www" / "flat", output_format="folder")
    children = tacocore.Tortilla(samples=[tacocore.Sample(id="child #1", path=src / "s0.bin")])
    nested = _taco(tacocore.Tortilla(samples=[tacocore.Sample(id="dir one", path=children)]), "nested")
    tacocore.create(nested, root / "www" / "nested", output_format="folder")
    coll = root / "www" / "coll"
    coll.mkdir()
    parts = tacocore.create(flat, root / "tmp" / "ds.tacozip", split_size=40)
    names = ["part one.tacozip", "part#2.tacozip"] + [f"p{i}.tacozip" for i in range(len(parts))]
    tacocore.create_tacocat([Path(shutil.copy(p, coll / n)) for p, n in zip(parts, names)], coll)
    for p in (root / "www").rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)
    return root / "www"


@pytest.fixture(scope="module")
def srv(www):
    with Nginx(www, extra=REDIRECT) as server:
        yield server


@pytest.mark.parametrize("prefix", ["", "moved/"])
def test_folder_ids_that_need_encoding_read_their_own_bytes(www, srv, prefix):
    remote = tacocore.load(srv.url(prefix + "flat")).data
    local = tacocore.load(str(www / "flat")).data
    for sid in IDS:
        assert remote.read_bytes(sid) == local.read_bytes(sid) == f"bytes of {sid!r}".encode()
    # The paths GDAL is given are encoded URLs: GDAL itself opens them.
    paths = remote.to_arrow().column("internal:gdal_vsi").to_pylist()
    assert paths[0].endswith("/DATA/g%20h") and paths[1].endswith("/DATA/g%2520h"), paths


@pytest.mark.parametrize("prefix", ["", "moved/"])
def test_nested_folder_names_that_need_encoding(srv, prefix):
    top = tacocore.load(srv.url(prefix + "nested")).data
    assert top.read("dir one").read_bytes("child #1") == b"bytes of 'g h'"


@pytest.mark.parametrize("prefix", ["", "moved/"])
def test_collection_parts_that_need_encoding(www, srv, prefix):
    remote = tacocore.load(srv.url(prefix + "coll/.tacocat")).data
    local = tacocore.load(str(www / "coll")).data
    assert remote.to_arrow().column("id").to_pylist() == IDS
    for sid in IDS:
        assert remote.read_bytes(sid) == local.read_bytes(sid)


def test_redirected_requests_are_followed(srv):
    srv.clear()
    assert len(tacocore.load(srv.url("moved/flat")).data) == len(IDS)
    moved = [r for r in srv.requests() if r.uri.startswith("/moved/")]
    assert moved and all(r.status == 302 for r in moved), moved
