"""ZIP64, exactly when needed (FORMAT.md §2.6): by entry count (> 65,535 entries) and by size and
offset (an entry of more than 4 GiB, and entries that start beyond 4 GiB).

Both archives are built through the C++ API (tests/tools/taco_make_dataset.cpp) and must open in
Python's zipfile (which checks every CRC it reads), in tacoreader, through GDAL, and in tacozip.
The > 4 GiB source is a sparse file and the writer keeps the archive sparse, so neither costs
4 GiB of disk; both are deleted as soon as the test ends.
"""

from __future__ import annotations

import io
import os
import struct
import zipfile

import pyarrow.parquet as pq
import pytest

tacoreader = pytest.importorskip("tacoreader")
tacozip = pytest.importorskip("tacozip")
gdal = pytest.importorskip("osgeo.gdal")

U32_MAX = 0xFFFFFFFF
CHUNK = 16 << 20


def header_slots(layout, levels: int):
    names = [f"METADATA/level{i}.parquet" for i in range(levels)] + ["COLLECTION.json"]
    return [(layout.by_name[n].data_offset, layout.by_name[n].size) for n in names]


@pytest.fixture(scope="module")
def many(tmp_path_factory, make_dataset, taco_expect):
    out = tmp_path_factory.mktemp("many") / "many.tacozip"
    desc = make_dataset("many-70000", out)
    yield out, desc, taco_expect.parse_zip(out)
    out.unlink()


def test_70000_entries_get_zip64_end_records_and_nothing_else(many):
    path, desc, layout = many
    total = 70000 + 3  # TACO_HEADER + samples + level0 + COLLECTION.json
    assert len(layout.entries) == total
    assert layout.zip64_eocd is not None, "more than 65,535 entries need the ZIP64 end record"
    z = layout.zip64_eocd
    assert (z["record_size"], z["version_made_by"] & 0xFF, z["version_needed"]) == (44, 45, 45)
    assert (z["entries"], z["entries_on_disk"]) == (total, total)
    assert (z["cd_offset"], z["cd_size"]) == (layout.cd_offset, layout.cd_size)
    assert layout.zip64_locator["eocd64_offset"] == z["offset"]
    assert layout.zip64_locator["total_disks"] == 1
    assert z["offset"] == layout.cd_offset + layout.cd_size  # right after the central directory
    # Classic end record: the counts are clamped, the fields that fit keep their real values.
    assert (layout.eocd["entries"], layout.eocd["entries_on_disk"]) == (0xFFFF, 0xFFFF)
    assert (layout.eocd["cd_offset"], layout.eocd["cd_size"]) == (layout.cd_offset, layout.cd_size)
    # No entry is big or far enough for ZIP64 extra fields.
    assert all(e.lfh_extra == b"" and e.cd_extra == b"" for e in layout.entries)
    assert all(e.lfh_version == 10 and e.cd_version == 10 for e in layout.entries)
    assert [e.name for e in layout.entries[1:4]] == ["DATA/s00000", "DATA/s00001", "DATA/s00002"]
    assert layout.entries[-1].name == "COLLECTION.json"


def test_70000_entries_read_back_in_zipfile(many):
    path, desc, layout = many
    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
        assert len(infos) == 70003
        assert zf.testzip() is None  # reads every entry and checks its CRC-32
        assert zf.read("DATA/s69999") == str(69999 * 7).encode()


def test_70000_entries_load_in_tacoreader_and_every_file_reads(many, taco_expect):
    path, desc, layout = many
    assert tacozip.read_header(str(path)) == header_slots(layout, 1)
    ds = tacoreader.load(str(path))
    assert ds.pit_schema.root["n"] == 70000
    view = ds.sql('SELECT "l0:id" AS id, "l0:idx" AS idx, "l0:internal:gdal_vsi" AS vsi FROM l0')
    ids = view.column("id").to_pylist()
    assert ids == [f"s{i:05d}" for i in range(70000)]
    assert view.column("idx").to_pylist() == list(range(70000))
    for i, vsi in enumerate(view.column("vsi").to_pylist()):
        assert taco_expect.vsi_read(vsi) == str(i * 7).encode(), ids[i]
    level0 = pq.read_table(io.BytesIO(layout.read("METADATA/level0.parquet")))
    entries = [layout.by_name["DATA/" + i] for i in ids]
    assert level0.column("internal:offset").to_pylist() == [e.data_offset for e in entries]


# ---- > 4 GiB ------------------------------------------------------------------------------------

BIG_SIZE = (4 << 30) + 4097  # > 0xFFFFFFFF
MARKERS = {0: b"BEGIN", 1 << 31: b"MIDDLE", (4 << 30) - 3: b"ACROSS-4GIB", BIG_SIZE - 3: b"END"}


def make_sparse_source(path):
    with open(path, "wb") as f:
        f.truncate(BIG_SIZE)
        for offset, data in MARKERS.items():
            f.seek(offset)
            f.write(data)
    assert os.path.getsize(path) == BIG_SIZE


def expected_big_bytes(offset: int, n: int, _zeros={}) -> bytes:
    """Bytes [offset, offset + n) of the sparse source, from MARKERS (no need to read 4 GiB)."""
    if n not in _zeros:
        _zeros[n] = bytes(n)
    hits = [(o, d) for o, d in MARKERS.items() if o < offset + n and o + len(d) > offset]
    if not hits:
        return _zeros[n]
    buf = bytearray(n)
    for o, d in hits:
        for i, byte in enumerate(d):
            if offset <= o + i < offset + n:
                buf[o + i - offset] = byte
    return bytes(buf)


def assert_stream_is_source(read, size: int):
    """Streams `read(n)` chunk by chunk against the known source content (one chunk in memory)."""
    done = 0
    while done < size:
        n = min(CHUNK, size - done)
        assert read(n) == expected_big_bytes(done, n), f"bytes {done}..{done + n} differ"
        done += n


def vsi_window(path: str, offset: int, n: int) -> bytes:
    f = gdal.VSIFOpenL(path, "rb")
    assert f is not None, path
    try:
        gdal.VSIFSeekL(f, offset, 0)
        return bytes(gdal.VSIFReadL(1, n, f) or b"")
    finally:
        gdal.VSIFCloseL(f)


@pytest.fixture(scope="module")
def big(tmp_path_factory, make_dataset, taco_expect):
    work = tmp_path_factory.mktemp("big")
    source, out = work / "source.bin", work / "big.tacozip"
    make_sparse_source(source)
    try:
        desc = make_dataset("big-4g", out, source)
        yield out, source, desc, taco_expect.parse_zip(out)
    finally:
        for p in (out, source):
            p.unlink(missing_ok=True)


def test_over_4gib_uses_zip64_extras_exactly_where_needed(big):
    path, source, desc, layout = big
    assert [e.name for e in layout.entries] == [
        "TACO_HEADER", "DATA/head", "DATA/big", "DATA/tail", "METADATA/level0.parquet", "COLLECTION.json"]
    head, bigf, tail = (layout.by_name[n] for n in ("DATA/head", "DATA/big", "DATA/tail"))
    sizes64 = struct.pack("<HHQQ", 1, 16, BIG_SIZE, BIG_SIZE)
    # The > 4 GiB entry: saturated sizes + 20-byte extra in the local header and the directory.
    assert (bigf.lfh_version, bigf.lfh_csize32, bigf.lfh_usize32, bigf.lfh_extra) == (45, U32_MAX, U32_MAX, sizes64)
    assert (bigf.cd_version, bigf.cd_csize32, bigf.cd_usize32, bigf.cd_extra) == (45, U32_MAX, U32_MAX, sizes64)
    assert bigf.size == BIG_SIZE and bigf.cd_offset32 == bigf.lfh_offset < U32_MAX
    # Entries after it start beyond 4 GiB: plain local header, offset in a 12-byte directory extra.
    for e in (tail, layout.by_name["METADATA/level0.parquet"], layout.by_name["COLLECTION.json"]):
        assert e.lfh_offset > U32_MAX
        assert (e.lfh_version, e.lfh_extra) == (10, b""), e.name
        assert (e.cd_version, e.cd_offset32, e.cd_extra) == (45, U32_MAX, struct.pack("<HHQ", 1, 8, e.lfh_offset)), e.name
    # Entries before it need nothing.
    for e in (layout.entries[0], head):
        assert (e.lfh_version, e.cd_version, e.lfh_extra, e.cd_extra) == (10, 10, b"", b""), e.name
    # The central directory starts beyond 4 GiB: ZIP64 end record, classic fields clamped.
    assert layout.zip64_eocd is not None
    assert (layout.zip64_eocd["cd_offset"], layout.zip64_eocd["entries"]) == (layout.cd_offset, 6)
    assert (layout.eocd["cd_offset"], layout.eocd["entries"], layout.eocd["cd_size"]) == (U32_MAX, 6, layout.cd_size)
    # TACO_HEADER slots carry the 64-bit offsets.
    assert tacozip.read_header(str(path)) == header_slots(layout, 1)


def test_over_4gib_reads_back_in_zipfile_tacoreader_and_gdal(big, taco_expect):
    path, source, desc, layout = big
    with open(source, "rb") as src:  # the markers really are in the source
        for offset, data in MARKERS.items():
            src.seek(offset)
            assert src.read(len(data)) == data
    # One full pass: zipfile streams the entry (checking its CRC-32 at the end) and every chunk
    # is compared with the source content.
    with zipfile.ZipFile(path) as zf:
        assert zf.read("DATA/tail") == b"tail sample after 4 GiB"
        with zf.open("DATA/big") as member:
            assert_stream_is_source(member.read, BIG_SIZE)
            assert member.read(1) == b""  # end of entry: zipfile has checked the CRC-32 here
    # tacoreader's paths name exactly the verified data ranges; GDAL reads them at the edges,
    # at every marker and across the 4 GiB boundary.
    ds = tacoreader.load(str(path))
    view = ds.sql('SELECT "l0:id" AS id, "l0:internal:gdal_vsi" AS vsi FROM l0')
    rows = dict(zip(view.column("id").to_pylist(), view.column("vsi").to_pylist()))
    assert list(rows) == ["head", "big", "tail"]
    for sample, vsi in rows.items():
        e = layout.by_name["DATA/" + sample]
        assert vsi == f"/vsisubfile/{e.data_offset}_{e.size},{path}"
    assert taco_expect.vsi_read(rows["head"]) == b"head sample"
    assert taco_expect.vsi_read(rows["tail"]) == b"tail sample after 4 GiB"
    windows = [(0, 1 << 20), (BIG_SIZE - (1 << 20), 1 << 20), ((4 << 30) - 8, 16)]
    windows += [(max(0, o - 100), 200) for o in MARKERS]
    for offset, n in windows:
        n = min(n, BIG_SIZE - offset)
        assert vsi_window(rows["big"], offset, n) == expected_big_bytes(offset, n), offset
    assert vsi_window(rows["big"], BIG_SIZE, 16) == b""  # the range ends where the sample ends
