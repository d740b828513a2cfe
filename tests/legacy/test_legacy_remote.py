"""Remote legacy v1 files (issue 16): the files the legacy writer made, served by nginx on
loopback, read with range requests (never downloaded whole) and migrated from the URL."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "remote"))
from servers import Nginx  # noqa: E402


@pytest.fixture(scope="module")
def srv(v1):
    with Nginx(v1.root) as server:
        yield server


def test_remote_nested_taco_reads_ranges(v1, srv, taco, tmp_path):
    url = srv.url("nested.taco")
    size = v1.path("nested.taco").stat().st_size
    srv.clear()
    out = taco("cat", url, "region_2/hr", env={"TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    assert out.stdout == (v1.inputs / "tile_5.tif").read_bytes()
    got = [r for r in srv.requests() if r.method == "GET"]
    assert got and all(r.range for r in got), got  # range reads only
    assert len(got) <= 4, got


def test_remote_sample_is_read_by_range(v1, srv, taco, tmp_path):
    """Of a 3 MiB file, one 1 MiB sample costs about 1 MiB: the header, the FOOTER and the
    sample's own range, never the whole file."""
    size = v1.path("big.tortilla").stat().st_size
    srv.clear()
    out = taco("cat", srv.url("big.tortilla"), "big_1",
               env={"TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    assert out.stdout == (v1.inputs / "big_1.bin").read_bytes()
    got = [r for r in srv.requests() if r.method == "GET"]
    assert all(r.range for r in got), got
    sent = sum(r.bytes_sent for r in got)
    assert (1 << 20) <= sent < (1 << 20) + 200_000, (sent, size, got)


def test_remote_multipart_from_one_part(v1, srv, taco, tmp_path):
    out = taco("sql", srv.url("multi.0001.part.taco"), "SELECT id FROM data ORDER BY id", "--json",
               env={"TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert out.returncode == 0, out.stderr
    ids = [row["id"] for row in json.loads(out.stdout)]
    assert ids == [r["id"] for r in v1.manifest["multi.taco"]["rows"]]
    vsi = taco("sql", srv.url("multi.0001.part.taco"),
               'SELECT "internal:gdal_vsi" AS v FROM data WHERE id = \'tile_3\'', "--json",
               env={"TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert json.loads(vsi.stdout)[0]["v"] == (
        "/vsisubfile/570_370,/vsicurl/" + srv.url("multi.0001.part.taco"))


def test_migrate_from_a_url(v1, srv, taco, tmp_path):
    out = tmp_path / "deep.tacozip"
    proc = taco("migrate", srv.url("deep.tortilla"), out,
                env={"TACOCORE_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    valid = taco("validate", out)
    assert valid.returncode == 0, valid.stdout
    cat = taco("cat", out, "site_1/sensor_0/nir")
    assert cat.returncode == 0, cat.stderr
    want = v1.manifest["deep.tortilla"]["rows"][1]["children"][0]["children"][1]["path"]
    assert cat.stdout == Path(want).read_bytes()
