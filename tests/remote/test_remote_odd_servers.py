"""Remote datasets served in ways a demanding user meets: a ZIP under a key without a suffix on
S3, a URL with a query string, a server whose ETags are weak, a URL curl cannot parse, and
`validate` of a remote collection index."""

from __future__ import annotations

import hashlib
import http.server
import re
import shutil
import socketserver
import threading

import pytest

import tacocore
from remote_paths import FIXTURES

FLAT_ZIP = FIXTURES / "tacoreader/zip/flat/flat.tacozip"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TACOCORE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("GDAL_HTTP_MAX_RETRY", "0")


def test_s3_zip_without_a_suffix_falls_back_from_folder_to_zip(moto, tmp_path, monkeypatch, taco):
    # USER-GUIDE §6: a name without .tacozip/.zip is tried as a FOLDER, then as a ZIP. S3 says
    # "The specified key does not exist." where http says 404: both must fall back.
    key = tmp_path / "flat_v2"
    shutil.copy(FLAT_ZIP, key)
    moto.put_tree(key, "nosuffix")
    url = f"s3://{moto.bucket}/nosuffix/flat_v2"
    for k, v in moto.env().items():
        monkeypatch.setenv(k, v)
    assert len(tacocore.load(url).data) == 5
    proc = taco("ls", url, env=moto.env())
    assert proc.returncode == 0, proc.stderr
    missing = taco("info", f"s3://{moto.bucket}/nosuffix/nothing.tacozip", env=moto.env())
    assert missing.returncode == 2 and "HTTP 404 (not found)" in missing.stderr, missing.stderr


@pytest.mark.parametrize("query", ["?download=1", "?token=abc"])
def test_a_url_with_a_query_string(served, query, taco):
    url = served.url("ref/tacoreader/zip/flat/flat.tacozip") + query
    ds = tacocore.load(url)
    assert ds.data.read_bytes(0) == tacocore.load(str(FLAT_ZIP)).data.read_bytes(0)
    assert taco("ls", url).returncode == 0


def test_a_url_curl_cannot_parse_is_named_malformed(served, taco):
    proc = taco("info", served.url("ref/some dir/flat.tacozip"))
    assert proc.returncode == 2
    assert "the URL is malformed" in proc.stderr, proc.stderr
    assert "timed out" not in proc.stderr, proc.stderr


class _WeakEtagHandler(http.server.BaseHTTPRequestHandler):
    """Serves FIXTURES with weak ETags and compares If-Match strongly, as RFC 9110 §13.1.1
    requires: a request carrying a weak tag in If-Match gets 412."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _send(self, code, body=b"", headers=()):
        self.send_response(code)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        path = FIXTURES / self.path.lstrip("/")
        if not path.is_file():
            return self._send(404)
        data = path.read_bytes()
        headers = [("ETag", 'W/"%s"' % hashlib.md5(data).hexdigest()), ("Accept-Ranges", "bytes")]
        if_match = self.headers.get("If-Match")
        if if_match is not None and if_match.strip() != "*":
            return self._send(412, b"", headers)
        wanted = self.headers.get("Range")
        if wanted and self.command == "GET":
            a, b = re.match(r"bytes=(\d+)-(\d*)", wanted).groups()
            a, b = int(a), min(int(b) if b else len(data) - 1, len(data) - 1)
            return self._send(206, data[a:b + 1],
                              headers + [("Content-Range", f"bytes {a}-{b}/{len(data)}")])
        if self.command == "HEAD":
            self.send_response(200)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            return
        self._send(200, data, headers)


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


def test_a_server_with_weak_etags_serves_a_zip():
    server = _Server(("127.0.0.1", 0), _WeakEtagHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/tacoreader/zip/flat/flat.tacozip"
        assert tacocore.load(url).data.read_bytes(0) == tacocore.load(str(FLAT_ZIP)).data.read_bytes(0)
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("query", ["?download=1", "?token=abc"])
def test_a_folder_url_with_a_query_string_asks_each_file_with_it(served, query, taco):
    # The query is for the server: every file of the FOLDER is asked for with it, after its own
    # path (…/DATA/<id>?token=abc), never in the middle of the path.
    local = tacocore.load(str(FIXTURES / "tacoreader/folder/nested"))
    url = served.url("ref/tacoreader/folder/nested") + query
    ds = tacocore.load(url)
    paths = ds.data["internal:gdal_vsi"].to_pylist()
    assert all(p.endswith(query) and p.count("?") == 1 for p in paths), paths
    assert "/DATA/" in paths[0].split("?")[0]
    child = ds.data.read(0)  # through europe's __meta__?…
    assert child.read_bytes(0) == local.data.read(0).read_bytes(0)
    assert child["internal:gdal_vsi"].to_pylist()[0].endswith(query)
    proc = taco("ls", url)
    assert proc.returncode == 0, proc.stderr
