"""`taco export-stac` (issue 16 item 6, STAC half): the catalog is read back with pystac and its
asset hrefs give the samples' bytes."""

from __future__ import annotations

import subprocess

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
FLAT_FOLDER = FIXTURES / "tacoreader/folder/flat"
SIMPLE_ZIP = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"
pystac = pytest.importorskip("pystac")


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def vsi_bytes(href: str) -> bytes:
    head, path = href[len("/vsisubfile/"):].split(",", 1)
    offset, size = (int(x) for x in head.split("_"))
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(size)


def test_stac_collection_and_items_read_back_with_pystac(tmp_path):
    out = tmp_path / "stac"
    proc = taco("export-stac", FLAT_ZIP, out, "--where", "cloud_cover < 50")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # geometry and time present: no warning
    collection = pystac.Collection.from_file(str(out / "collection.json"))
    assert collection.id == "test_dataset" and collection.license == "CC-BY-4.0"
    items = list(collection.get_items())
    assert len(items) == 4
    for item in items:
        assert item.geometry["type"] == "Polygon" and len(item.bbox) == 4
        assert item.datetime is not None
        href = item.assets["data"].href
        assert vsi_bytes(href) == (FLAT_FOLDER / "DATA" / item.id).read_bytes()
    assert collection.extent.temporal.intervals[0][0] is not None


def test_stac_without_geometry_or_time_warns(tmp_path):
    out = tmp_path / "stac"
    proc = taco("export-stac", SIMPLE_ZIP, out)
    assert proc.returncode == 0, proc.stderr
    assert "no stac:geometry or istac:geometry column" in proc.stderr
    assert "no stac:time_start or istac:time_start column and no temporal extent" in proc.stderr
    assert "pystac refuse" in proc.stderr
    collection = pystac.Collection.from_file(str(out / "collection.json"))
    assert len(list(collection.get_links("item"))) == 4
    import json
    item = json.loads((out / "items" / "rgb_256x256.json").read_text())
    assert item["geometry"] is None and item["properties"]["datetime"] is None


def test_stac_refuses_existing_output_and_empty_views(tmp_path):
    (tmp_path / "taken").mkdir()
    proc = taco("export-stac", FLAT_ZIP, tmp_path / "taken")
    assert proc.returncode == 2 and "exists" in proc.stderr
    proc = taco("export-stac", FLAT_ZIP, tmp_path / "none", "--where", "false")
    assert proc.returncode == 2 and "keeps no sample" in proc.stderr  # a query to change
    assert not (tmp_path / "none").exists()


def test_stac_item_files_and_links_need_no_encoding(tmp_path):
    # '#' would start a fragment and '%' an escape, and pystac reads local hrefs without
    # decoding them: an id outside A-Z a-z 0-9 - . _ names its file with ~XX escapes, which the
    # link uses as it is. The catalog reads back from the disk and over HTTP.
    src = tmp_path / "src"
    src.mkdir()
    ids = ["a b", "c#d", "50%", "x~y", "São", "plain-1.0_a", "q?" + "é" * 120]
    for i in ids:
        (src / i).write_bytes(i.encode())
    ds = tmp_path / "odd.tacozip"
    import json
    # No time column: the collection's temporal extent makes the items valid STAC.
    fields = tmp_path / "collection.json"
    fields.write_text(json.dumps({"extent": {"spatial": [-10, -10, 10, 10], "temporal": [
        "2020-01-01T00:00:00Z", "2020-12-31T00:00:00Z"]}}))
    proc = taco("create", "--from", src, ds, "--collection", fields, "-q")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "stac"
    proc = taco("export-stac", ds, out)
    assert proc.returncode == 0, proc.stderr
    assert "the collection's temporal extent as start_datetime/end_datetime" in proc.stderr
    links = json.loads((out / "collection.json").read_text())["links"]
    hrefs = sorted(link["href"] for link in links if link["rel"] == "item")
    long_href = [h for h in hrefs if "~~" in h]
    assert len(long_href) == 1 and len(long_href[0]) == len("./items/") + 250 + len(".json")
    assert sorted(set(hrefs) - set(long_href)) == [
        "./items/50~25.json", "./items/S~C3~A3o.json", "./items/a~20b.json",
        "./items/c~23d.json", "./items/plain-1.0_a.json", "./items/x~7Ey.json"]
    assert sorted(p.name for p in (out / "items").iterdir()) == sorted(h[len("./items/"):]
                                                                       for h in hrefs)
    collection = pystac.Collection.from_file(str(out / "collection.json"))
    items = list(collection.get_items())
    assert sorted(item.id for item in items) == sorted(ids)
    for item in items:
        assert vsi_bytes(item.assets["data"].href) == item.id.encode()
        assert item.datetime is None
        assert item.common_metadata.start_datetime.year == 2020
        assert item.common_metadata.end_datetime.month == 12

    import functools
    import http.server
    import threading
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/collection.json"
        remote = pystac.Collection.from_file(url)
        assert sorted(item.id for item in remote.get_items()) == sorted(ids)
    finally:
        server.shutdown()
        server.server_close()
