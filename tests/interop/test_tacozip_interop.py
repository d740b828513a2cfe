"""tacozip's API on tacocore (``import tacocore.tacozip as tacozip``) against tacozip itself:
the same archive bytes from ``create``, the same patch from ``update_header``, the same pairs from
``read_header``; the reference fixtures rebuilt entry by entry the way tacotoolbox builds them
(create with a placeholder header, then update_header) come out byte for byte, and load; and
where tacozip would write a file that hides or loses something, tacocore refuses and leaves the
target as it was."""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import tacozip as ref

import tacocore
import tacocore.tacozip as tz
from tacocore.tacozip.exceptions import TacozipIOError, TacozipValidationError


def _write(path: Path, data: bytes, mode: int = 0o644) -> Path:
    path.write_bytes(data)
    path.chmod(mode)
    return path


def _mask_header_time(data: bytes) -> bytes:
    """TACO_HEADER's DOS time is the archive's creation time (FORMAT.md §2.2): two writers run
    one after the other may fall in different 2-second steps. Zeroes it in the local header and
    in the first central directory record, the only places it is."""
    buf = bytearray(data)
    buf[10:14] = b"\0\0\0\0"
    cd_offset = struct.unpack_from("<I", buf, len(buf) - 22 + 16)[0]
    assert buf[cd_offset:cd_offset + 4] == b"PK\x01\x02"
    buf[cd_offset + 12:cd_offset + 16] = b"\0\0\0\0"
    return bytes(buf)


def _data_ranges(path: Path) -> dict[str, tuple[int, int]]:
    """Every entry's (first data byte, length), read with Python's zipfile."""
    with zipfile.ZipFile(path) as z:
        return {i.filename: (i.header_offset + 30 + len(i.filename.encode()) + len(i.extra), i.file_size)
                for i in z.infolist()}


@pytest.fixture
def sources(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    return [
        _write(src / "a.bin", b"hello"),
        _write(src / "empty.bin", b""),
        _write(src / "large.bin", os.urandom(300_000)),
        _write(src / "private.json", b'{"k": 1}', 0o600),
        _write(src / "ünïcode.txt", "ñ".encode()),
    ]


NAMES = ["DATA/a", "DATA/empty", "DATA/nested/large", "METADATA/level0.parquet", "DATA/ñ"]


@pytest.mark.parametrize("arc", [NAMES, None], ids=["names", "default-names"])
def test_create_writes_tacozips_bytes(tmp_path, sources, arc):
    ours, theirs = tmp_path / "ours.zip", tmp_path / "theirs.zip"
    tz.create(ours, sources, arc)
    ref.create(str(theirs), [str(s) for s in sources], arc)
    assert _mask_header_time(ours.read_bytes()) == _mask_header_time(theirs.read_bytes())
    assert tz.read_header(ours) == ref.read_header(str(ours)) == []


def test_create_with_entries_and_update_header_match_tacozip(tmp_path, sources):
    probe = tmp_path / "probe.zip"
    ref.create(str(probe), [str(s) for s in sources], NAMES)
    ranges = _data_ranges(probe)
    entries = [ranges["METADATA/level0.parquet"], ranges["DATA/nested/large"]]

    ours, theirs = tmp_path / "ours.zip", tmp_path / "theirs.zip"
    tz.create(ours, sources, NAMES, entries)
    ref.create(str(theirs), [str(s) for s in sources], NAMES, entries)
    assert _mask_header_time(ours.read_bytes()) == _mask_header_time(theirs.read_bytes())
    assert ref.read_header(str(ours)) == entries

    # The same archive patched by each tool: every byte equal (payload and both CRCs).
    shutil.copy(theirs, ours)
    new = [ranges["DATA/a"], ranges["DATA/ñ"], ranges["DATA/empty"]]
    tz.update_header(ours, new)
    ref.update_header(str(theirs), new)
    assert ours.read_bytes() == theirs.read_bytes()
    assert tz.read_header(ours) == ref.read_header(str(ours)) == new
    assert zipfile.ZipFile(ours).testzip() is None  # the CRCs agree with the payload


def test_read_header_matches_tacozip_on_every_reference_zip(fixtures_dir):
    zips = sorted(fixtures_dir.rglob("*.tacozip"))
    assert len(zips) >= 5
    for path in zips:
        head = path.read_bytes()[:256]  # what tacoreader fetches from a remote file
        assert tz.read_header(path) == ref.read_header(str(path)) == tz.read_header(head), path
        assert tz.read_header(bytearray(head)) == tz.read_header(memoryview(head)) == ref.read_header(head)


def _rebuild_like_tacotoolbox(original: Path, workdir: Path, writer) -> Path:
    """Extracts every entry of a reference TACO ZIP with its mtime and mode, then writes it back
    as tacotoolbox does: create with a placeholder header, update_header with the real ranges."""
    workdir.mkdir()
    files, names = [], []
    with zipfile.ZipFile(original) as z:
        for i, info in enumerate(z.infolist()[1:]):  # TACO_HEADER is written by create
            path = workdir / f"entry{i}"
            path.write_bytes(z.read(info))
            path.chmod((info.external_attr >> 16) & 0o7777)
            stamp = __import__("time").mktime(info.date_time + (0, 0, -1))
            os.utime(path, (stamp, stamp))
            files.append(str(path))
            names.append(info.filename)
    out = workdir / original.name
    writer.create(str(out), files, names, [(0, 0)])
    ranges = _data_ranges(out)
    slots = [ranges[n] for n in names if n.startswith("METADATA/")] + [ranges["COLLECTION.json"]]
    writer.update_header(str(out), slots)
    return out


@pytest.mark.parametrize("fixture", ["tacoreader/zip/flat/flat.tacozip", "tacoreader/zip/nested/nested.tacozip",
                                     "tacotoolbox/zip/simple/simple.tacozip"])
def test_reference_fixtures_rebuilt_byte_for_byte(tmp_path, fixtures_dir, fixture):
    original = fixtures_dir / fixture
    ours = _rebuild_like_tacotoolbox(original, tmp_path / "ours", tz)
    theirs = _rebuild_like_tacotoolbox(original, tmp_path / "theirs", ref)
    assert _mask_header_time(ours.read_bytes()) == _mask_header_time(theirs.read_bytes())
    # Against the file the reference wrote: only the creation time of TACO_HEADER may differ.
    assert _mask_header_time(ours.read_bytes()) == _mask_header_time(original.read_bytes())
    ds = tacocore.load(str(ours))
    assert len(ds.data) == len(tacocore.load(str(original)).data)


def test_a_tacozip_script_runs_unchanged(tmp_path, sources):
    script = tmp_path / "script.py"
    script.write_text(
        "import sys\n"
        "if sys.argv[1] == 'ours':\n"
        "    import tacocore.tacozip as tacozip\n"
        "else:\n"
        "    import tacozip\n"
        "out = sys.argv[2]\n"
        "tacozip.self_check()\n"
        f"tacozip.create(out, {[str(s) for s in sources]!r}, entries=[(0, 0)])\n"
        "print(tacozip.read_header(out), tacozip.TACO_HEADER_MAX_ENTRIES, tacozip.TACOZ_ERR_IO)\n"
        "try:\n"
        "    tacozip.read_header(out + '.missing')\n"
        "except tacozip.TacozipError as exc:\n"
        "    print('error', exc.code)\n"
        "try:\n"
        "    tacozip.create(out, ['x'], entries=[(1, 1)] * 8)\n"
        "except ValueError as exc:\n"
        "    print(exc)\n")
    runs = [subprocess.run([sys.executable, str(script), who, str(tmp_path / f"{who}.zip")],
                           capture_output=True, text=True, check=True).stdout for who in ("ours", "theirs")]
    assert runs[0] == runs[1]
    assert "error -1" in runs[0]


# --- where tacozip writes a file that hides or loses something, tacocore refuses ---------------

def test_refuses_a_header_entry_that_is_not_an_entrys_data(tmp_path, sources):
    out = tmp_path / "out.zip"
    with pytest.raises(ValueError, match=r"slot 0 \(1, 2\) is not the data of any entry"):
        tz.create(out, sources, NAMES, [(1, 2)])
    assert not out.exists() and sorted(os.listdir(tmp_path)) == ["src"]
    tz.create(out, sources, NAMES)
    before = out.read_bytes()
    level0 = _data_ranges(out)["METADATA/level0.parquet"]
    with pytest.raises(ValueError, match=r"closest match, 'METADATA/level0.parquet', has its data at"):
        tz.update_header(out, [(level0[0] - 53, level0[1])])  # the local header's offset
    assert out.read_bytes() == before


@pytest.mark.parametrize("entries, message", [
    ([(0, 0), (200, 5)], r"entry 0 is \(0, 0\) but a later one is used"),  # tacozip hides the 2nd
    ([(-1, 5)], r"unsigned 64-bit"),                                       # tacozip wraps it
    ([(2 ** 64, 5)], r"unsigned 64-bit"),
    ([(1, 1)] * 8, r"Too many entries: 8 > 7"),
])
def test_refuses_entries_tacozip_would_store_wrongly(tmp_path, sources, entries, message):
    with pytest.raises(ValueError, match=message):
        tz.create(tmp_path / "out.zip", sources, NAMES, entries)
    assert not (tmp_path / "out.zip").exists()


@pytest.mark.parametrize("names, message", [
    (["x", "x"], "is given twice"),          # tacozip keeps one of the two files
    (["../x", "y"], r"has a '\.\.' part"),
    (["/x", "y"], "is absolute"),
    (["dir/", "y"], "ends in '/'"),
    (["", "y"], "is empty"),
    (["TACO_HEADER", "y"], "is reserved"),
])
def test_refuses_archive_names_that_lose_or_escape(tmp_path, sources, names, message):
    with pytest.raises(ValueError, match=message):
        tz.create(tmp_path / "out.zip", sources[:2], names)
    assert sorted(os.listdir(tmp_path)) == ["src"]


def test_never_replaces_an_unrelated_file_and_keeps_the_old_archive_on_error(tmp_path, sources):
    notes = _write(tmp_path / "notes.zip", b"my notes")
    with pytest.raises(TacozipIOError, match="not a TACO ZIP") as err:
        tz.create(notes, sources, NAMES)
    assert err.value.code == tz.TACOZ_ERR_IO and isinstance(err.value, tacocore.TacoIOError)
    assert notes.read_bytes() == b"my notes"   # tacozip truncates it

    out = tmp_path / "out.zip"
    tz.create(out, sources, NAMES)
    before = out.read_bytes()
    with pytest.raises(TacozipIOError, match="missing.bin"):
        tz.create(out, [sources[0], tmp_path / "missing.bin"], ["a", "b"])
    assert out.read_bytes() == before          # tacozip leaves it truncated
    assert sorted(os.listdir(tmp_path)) == ["notes.zip", "out.zip", "src"]
    tz.create(out, sources[:1], ["only"])     # an earlier TACO ZIP is replaced
    assert zipfile.ZipFile(out).namelist() == ["TACO_HEADER", "only"]


def test_errors_keep_tacozips_classes_and_codes(tmp_path, sources):
    with pytest.raises(tz.TacozipError) as err:
        tz.create(tmp_path / "out.zip", [])
    assert err.value.code == tz.TACOZ_ERR_PARAM and isinstance(err.value, TacozipValidationError)
    plain = _write(tmp_path / "plain.zip", b"PK" + bytes(300))
    with pytest.raises(TacozipValidationError, match="plain.zip: invalid TACO_HEADER") as err:
        tz.read_header(plain)
    assert err.value.code == tz.TACOZ_ERR_INVALID_HEADER and str(err.value).startswith("tacozip error -3: ")
    with pytest.raises(tz.TacozipError, match="missing.zip") as err:
        tz.update_header(tmp_path / "missing.zip", [])
    assert err.value.code == tz.TACOZ_ERR_IO
    with pytest.raises(ValueError, match="Buffer too small: 100 < 157"):
        tz.read_header(b"\0" * 100)
    assert tz.TacozipError(-5).args == ref.TacozipError(-5).args


def test_every_public_name_of_tacozip_exists():
    import tacozip.config
    import tacozip.exceptions
    import tacocore.tacozip.config
    import tacocore.tacozip.exceptions

    assert set(ref.__all__) - {"__author__", "__author_email__", "__description__", "__url__",
                               "__license__"} <= set(dir(tz))
    for theirs, ours in [(tacozip.config, tacocore.tacozip.config),
                         (tacozip.exceptions, tacocore.tacozip.exceptions)]:
        public = {n for n in dir(theirs) if not n.startswith("_") and n.isupper() or n.startswith("Tacozip")}
        public -= {"LIBRARY_NAMES"}  # names of tacozip's shared library, which tacocore does not load
        assert public <= set(dir(ours)), public - set(dir(ours))
        for name in public:
            if name.isupper():
                assert getattr(ours, name) == getattr(theirs, name), name


def test_read_only_sources_and_out_of_range_mtimes_give_tacozips_bytes(tmp_path):
    """libzip's rules, found by a parity hunt (2026-12-02): a file its owner may not write gets
    the MS-DOS read-only bit in its external attributes; a year before 1980 becomes 1980 with the
    rest of the date kept, and a year from 2108 on wraps in the 7-bit year field."""
    src = tmp_path / "src"
    src.mkdir()
    files = [_write(src / f"r{i}", b"x" * i, mode) for i, mode in enumerate([0o444, 0o555, 0o400, 0o200])]
    for i, mtime in enumerate([0, 315532799, -100, 4354819200, 10**10, 1_700_000_001]):
        path = _write(src / f"t{i}", b"y" * i)
        os.utime(path, (mtime, mtime))
        files.append(path)
    ours, theirs = tmp_path / "ours.zip", tmp_path / "theirs.zip"
    tz.create(ours, files)
    ref.create(str(theirs), [str(f) for f in files])
    assert _mask_header_time(ours.read_bytes()) == _mask_header_time(theirs.read_bytes())
    attrs = {i.filename: i.external_attr for i in zipfile.ZipFile(ours).infolist()}
    assert attrs["r0"] & 1 and attrs["r2"] & 1 and not attrs["r3"] & 1


def test_a_replaced_archive_keeps_its_permissions_as_tacozip(tmp_path, sources):
    for mode in (0o600, 0o640):
        ours, theirs = tmp_path / f"ours{mode:o}.zip", tmp_path / f"theirs{mode:o}.zip"
        for tool, out in ((tz, ours), (ref, theirs)):
            tool.create(str(out), [str(sources[0])], ["old"])
            out.chmod(mode)
            tool.create(str(out), [str(sources[1])], ["new"])
            assert zipfile.ZipFile(out).namelist() == ["TACO_HEADER", "new"]
        assert (ours.stat().st_mode & 0o7777) == (theirs.stat().st_mode & 0o7777) == mode


def test_an_empty_file_is_replaced_as_tacozip_does(tmp_path, sources):
    import tempfile
    fd, name = tempfile.mkstemp(suffix=".tacozip", dir=tmp_path)
    os.close(fd)
    tz.create(name, sources[:1], ["a"])
    assert zipfile.ZipFile(name).namelist() == ["TACO_HEADER", "a"]


def test_numpy_integers_are_offsets_as_in_tacozip(tmp_path, sources):
    import numpy as np  # a dependency of the reference tools installed beside tacocore
    probe = tmp_path / "probe.zip"
    tz.create(probe, sources, NAMES)
    first = _data_ranges(probe)["DATA/a"]
    pairs = list(np.array([first], dtype=np.int64))            # what pandas/pyarrow hand out
    tz.update_header(probe, [(pairs[0][0], pairs[0][1])])
    assert tz.read_header(probe) == ref.read_header(str(probe)) == [first]
    with pytest.raises(TypeError, match="must be integers, got bool"):
        tz.update_header(probe, [(True, 1)])


def test_read_header_takes_the_first_count_slots_of_a_tacozip_header_with_a_hole(tmp_path, sources):
    """tacozip stores [(0, 0), (a, b)] with count 1 (tacocore refuses to write it) and reads it
    back as [(0, 0)]: tacocore reads it the same way."""
    out = tmp_path / "hole.zip"
    ref.create(str(out), [str(s) for s in sources], NAMES, [(0, 0), _data_ranges_of(sources, NAMES, tmp_path)])
    assert tz.read_header(out) == ref.read_header(str(out)) == [(0, 0)]
    assert tz.read_header(out.read_bytes()[:200]) == [(0, 0)]
    with pytest.raises(tacocore.TacoFormatError, match="but count is 1"):
        tacocore.load(str(out))  # a dataset reader still refuses it, naming the slot


def _data_ranges_of(sources, names, tmp_path) -> tuple[int, int]:
    probe = tmp_path / "probe.zip"
    ref.create(str(probe), [str(s) for s in sources], names)
    return _data_ranges(probe)["DATA/a"]


def test_error_messages_carry_one_prefix_and_bad_names_say_why(tmp_path, sources):
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("a.txt", "x")
    with pytest.raises(TacozipValidationError) as err:
        tz.update_header(plain, [])
    assert err.value.code == tz.TACOZ_ERR_NOT_FOUND
    assert str(err.value).count("tacozip error") == 1, str(err.value)
    with pytest.raises(ValueError, match="valid UTF-8"):
        tz.create(tmp_path / "out.zip", sources[:1], ["bad\udcffname"])
    assert not (tmp_path / "out.zip").exists()
