"""Shared fixtures of the interop suites (tests/interop): where things are, how to run them.

Fixtures
    repo_root      the tacocore checkout
    build_dir      its CMake build directory (build/, or $TACO_BUILD_DIR)
    taco_bin       path of the `taco` command line (skips the test when it is not built)
    venv_python    the Python that has tacoreader / tacotoolbox / tacozip (the running one)
    fixtures_dir   tests/fixtures/reference (read-only reference datasets)
    run_taco       run_taco(*args, check=True, input=None, cwd=None) -> CompletedProcess (text)
    make_dataset   make_dataset(case, output, *extra) -> dict: runs build/bin/taco_make_dataset
                   and returns the JSON description it prints
    zip_layout     zip_layout(path) -> ZipLayout: every entry's local header, central directory
                   record and end records, parsed independently of zipfile
    taco_expect    helpers for writer tests: expected level tables of a dataset description,
                   pyarrow value normalisation, GDAL VSI reads, parse_zip

Everything a test writes goes under pytest's tmp_path / tmp_path_factory.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from reader_helpers import vsi_read

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def build_dir(repo_root) -> Path:
    return Path(os.environ.get("TACO_BUILD_DIR", repo_root / "build"))


def _binary(build_dir: Path, name: str) -> Path:
    path = build_dir / "bin" / name
    if not path.is_file():
        pytest.skip(f"{path} is not built (cmake --build build --target {name})")
    return path


@pytest.fixture(scope="session")
def taco_bin(build_dir) -> Path:
    return _binary(build_dir, "taco")


@pytest.fixture(scope="session")
def venv_python() -> Path:
    return Path(sys.executable)


@pytest.fixture(scope="session")
def fixtures_dir(repo_root) -> Path:
    path = repo_root / "tests" / "fixtures" / "reference"
    if not path.is_dir():
        pytest.skip(f"reference fixtures not found at {path}")
    return path


@pytest.fixture(scope="session")
def run_taco(taco_bin):
    """Runs `taco ARGS...`; with check=True a non-zero exit fails the test showing stderr."""

    def run(*args, check: bool = True, input: str | None = None, cwd=None, timeout: float = 600):
        proc = subprocess.run(
            [str(taco_bin), *map(str, args)],
            capture_output=True,
            text=True,
            input=input,
            cwd=cwd,
            timeout=timeout,
        )
        if check and proc.returncode != 0:
            pytest.fail(
                f"taco {' '.join(map(str, args))} exited {proc.returncode}\n"
                f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
            )
        return proc

    return run


@pytest.fixture(scope="session")
def make_dataset(build_dir):
    """Builds a matrix dataset through the C++ API (tests/tools/taco_make_dataset.cpp)."""
    tool = _binary(build_dir, "taco_make_dataset")

    def make(case: str, output, *extra, timeout: float = 900) -> dict:
        proc = subprocess.run(
            [str(tool), case, str(output), *map(str, extra)],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if proc.returncode != 0:
            pytest.fail(f"taco_make_dataset {case} {output} failed ({proc.returncode}):\n{proc.stderr}")
        return json.loads(proc.stdout)

    return make


# ---- an independent ZIP parser (local headers, central directory, end records) -----------------

LFH_SIG = b"PK\x03\x04"
CDH_SIG = b"PK\x01\x02"
EOCD_SIG = b"PK\x05\x06"
ZIP64_EOCD_SIG = b"PK\x06\x06"
ZIP64_LOCATOR_SIG = b"PK\x06\x07"


def _zip64_extra(extra: bytes) -> bytes | None:
    """The payload of the ZIP64 extended-information extra field (id 0x0001), if present."""
    pos = 0
    while pos + 4 <= len(extra):
        hid, size = struct.unpack_from("<HH", extra, pos)
        if hid == 1:
            return extra[pos + 4 : pos + 4 + size]
        pos += 4 + size
    return None


@dataclass
class ZipEntry:
    name: str
    # local file header
    lfh_offset: int
    lfh_version: int
    lfh_flags: int
    lfh_method: int
    lfh_crc: int
    lfh_csize32: int
    lfh_usize32: int
    lfh_extra: bytes
    data_offset: int
    size: int  # real (uncompressed = stored) size, ZIP64 extra applied
    # central directory record
    cd_offset: int
    cd_version_made_by: int
    cd_version: int
    cd_flags: int
    cd_method: int
    cd_crc: int
    cd_csize32: int
    cd_usize32: int
    cd_offset32: int
    cd_extra: bytes
    cd_external_attr: int
    cd_disk: int
    cd_comment: bytes


@dataclass
class ZipLayout:
    path: Path
    file_size: int
    entries: list[ZipEntry]
    cd_offset: int
    cd_size: int
    eocd_offset: int
    eocd: dict
    zip64_eocd: dict | None = None
    zip64_locator: dict | None = None
    by_name: dict[str, ZipEntry] = field(default_factory=dict)

    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def read(self, name: str) -> bytes:
        entry = self.by_name[name]
        with open(self.path, "rb") as f:
            f.seek(entry.data_offset)
            return f.read(entry.size)


def parse_zip(path) -> ZipLayout:
    """Parses the end records, every central-directory record and every local header.

    Reads only the tail and the headers, never the entry data, so it is cheap on huge archives.
    """
    path = Path(path)
    size = path.stat().st_size
    with open(path, "rb") as f:
        tail_len = min(size, 22 + 65535)
        f.seek(size - tail_len)
        tail = f.read(tail_len)
        eocd_pos = tail.rfind(EOCD_SIG)
        assert eocd_pos >= 0, f"{path}: no end of central directory record"
        eocd_offset = size - tail_len + eocd_pos
        (disk, cd_disk, n_disk, n_total, cd_size32, cd_offset32, comment_len) = struct.unpack_from(
            "<HHHHIIH", tail, eocd_pos + 4
        )
        eocd = dict(disk=disk, cd_disk=cd_disk, entries_on_disk=n_disk, entries=n_total,
                    cd_size=cd_size32, cd_offset=cd_offset32, comment_length=comment_len)
        n_entries, cd_size, cd_offset = n_total, cd_size32, cd_offset32
        zip64_eocd = zip64_locator = None
        if eocd_offset >= 20:
            f.seek(eocd_offset - 20)
            loc = f.read(20)
            if loc[:4] == ZIP64_LOCATOR_SIG:
                zdisk, z_offset, z_disks = struct.unpack_from("<IQI", loc, 4)
                zip64_locator = dict(offset=eocd_offset - 20, disk=zdisk, eocd64_offset=z_offset, total_disks=z_disks)
                f.seek(z_offset)
                rec = f.read(56)
                assert rec[:4] == ZIP64_EOCD_SIG, f"{path}: ZIP64 locator points to no ZIP64 EOCD"
                (rec_size, made_by, needed, d, cdd, n_d, n_t, z_cd_size, z_cd_offset) = struct.unpack_from(
                    "<QHHIIQQQQ", rec, 4
                )
                zip64_eocd = dict(offset=z_offset, record_size=rec_size, version_made_by=made_by,
                                  version_needed=needed, disk=d, cd_disk=cdd, entries_on_disk=n_d,
                                  entries=n_t, cd_size=z_cd_size, cd_offset=z_cd_offset)
                n_entries, cd_size, cd_offset = n_t, z_cd_size, z_cd_offset
        f.seek(cd_offset)
        cd = f.read(cd_size)
        entries: list[ZipEntry] = []
        pos = 0
        for _ in range(n_entries):
            assert cd[pos : pos + 4] == CDH_SIG, f"{path}: bad central directory record at {cd_offset + pos}"
            (made_by, version, flags, method, _t, _d, crc, csize, usize, nlen, xlen, clen, disk_start,
             _internal, external, offset32) = struct.unpack_from("<HHHHHHIIIHHHHHII", cd, pos + 4)
            name_bytes = cd[pos + 46 : pos + 46 + nlen]
            cd_extra = cd[pos + 46 + nlen : pos + 46 + nlen + xlen]
            comment = cd[pos + 46 + nlen + xlen : pos + 46 + nlen + xlen + clen]
            # ZIP64 values come in a fixed order, only for the fields that are saturated.
            real_usize, real_csize, lfh_offset = usize, csize, offset32
            z = _zip64_extra(cd_extra)
            if z is not None:
                zpos = 0
                if usize == 0xFFFFFFFF:
                    real_usize = struct.unpack_from("<Q", z, zpos)[0]
                    zpos += 8
                if csize == 0xFFFFFFFF:
                    real_csize = struct.unpack_from("<Q", z, zpos)[0]
                    zpos += 8
                if offset32 == 0xFFFFFFFF:
                    lfh_offset = struct.unpack_from("<Q", z, zpos)[0]
                    zpos += 8
            assert real_usize == real_csize, f"{path}: entry {name_bytes!r} is not STORE-sized"
            f.seek(lfh_offset)
            lfh = f.read(30)
            assert lfh[:4] == LFH_SIG, f"{path}: no local header at {lfh_offset} for {name_bytes!r}"
            (l_version, l_flags, l_method, _lt, _ld, l_crc, l_csize, l_usize, l_nlen, l_xlen) = struct.unpack_from(
                "<HHHHHIIIHH", lfh, 4
            )
            l_name_extra = f.read(l_nlen + l_xlen)
            assert l_name_extra[:l_nlen] == name_bytes, f"{path}: local/central name mismatch for {name_bytes!r}"
            name = name_bytes.decode("utf-8" if flags & 0x800 else "cp437")
            entries.append(ZipEntry(
                name=name, lfh_offset=lfh_offset, lfh_version=l_version, lfh_flags=l_flags,
                lfh_method=l_method, lfh_crc=l_crc, lfh_csize32=l_csize, lfh_usize32=l_usize,
                lfh_extra=l_name_extra[l_nlen:], data_offset=lfh_offset + 30 + l_nlen + l_xlen,
                size=real_usize, cd_offset=cd_offset + pos, cd_version_made_by=made_by,
                cd_version=version, cd_flags=flags, cd_method=method, cd_crc=crc, cd_csize32=csize,
                cd_usize32=usize, cd_offset32=offset32, cd_extra=cd_extra, cd_external_attr=external,
                cd_disk=disk_start, cd_comment=comment))
            pos += 46 + nlen + xlen + clen
        assert pos == cd_size, f"{path}: central directory size {cd_size} but records take {pos}"
    layout = ZipLayout(path=path, file_size=size, entries=entries, cd_offset=cd_offset, cd_size=cd_size,
                       eocd_offset=eocd_offset, eocd=eocd, zip64_eocd=zip64_eocd, zip64_locator=zip64_locator)
    layout.by_name = {e.name: e for e in entries}
    return layout


@pytest.fixture(scope="session")
def zip_layout():
    return parse_zip


# ---- expected level tables of a dataset description --------------------------------------------
# A description is what taco_make_dataset prints (tests build the same shape for `taco create`):
# {"samples": [node, ...]}, node = {"id", "type", "padding", "fields": [[name, arrow type, value]],
# FILE: "size" + "data_b64" | "source"; FOLDER: "children"}. The rules below restate FORMAT.md §4.2
# and §4.4 independently of the writer.


def arrow_type_name(t) -> str:
    """A pyarrow type as the writer's descriptions spell it ("list<item: float>", ...)."""
    return str(t).replace("element:", "item:")


def normalized_values(column) -> list:
    """A pyarrow column as description values: timestamps as int µs, binary as hex."""
    import pyarrow as pa

    t = column.type
    if pa.types.is_timestamp(t):
        return column.cast(pa.int64()).to_pylist()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return [None if v is None else v.hex() for v in column.to_pylist()]
    return column.to_pylist()


@dataclass
class Row:
    node: dict
    index: int
    parent: int  # level 0: own index (FORMAT.md §11.6)
    rel: str  # relative path under DATA/, FOLDERs end with "/"
    child_begin: int = -1

    @property
    def id(self) -> str:
        return self.node["id"]

    @property
    def is_folder(self) -> bool:
        return self.node["type"] == "FOLDER"

    @property
    def fields(self) -> dict:
        return {name: value for name, _, value in self.node["fields"]}

    @property
    def entry_name(self) -> str:
        """Its ZIP entry: the FILE's data, or the FOLDER's __meta__."""
        return "DATA/" + self.rel + ("__meta__" if self.is_folder else "")


def expected_levels(samples: list[dict]) -> list[list[Row]]:
    """Level tables row by row: level 0 = roots, level N = children of level N-1 FOLDERs in order."""
    levels = [[Row(n, i, i, n["id"] + ("/" if n["type"] == "FOLDER" else "")) for i, n in enumerate(samples)]]
    while True:
        rows: list[Row] = []
        for parent in levels[-1]:
            if not parent.is_folder:
                continue
            parent.child_begin = len(rows)
            for child in parent.node["children"]:
                rel = parent.rel + child["id"] + ("/" if child["type"] == "FOLDER" else "")
                rows.append(Row(child, len(rows), parent.index, rel))
        if not rows:
            return levels
        levels.append(rows)


def expected_extension_columns(rows: list[Row], level: int) -> list[tuple[str, str]]:
    """Level 0 keeps the samples' field order; deeper levels are code-point sorted (§4.2).

    A column's type is the first one not containing an unknown (null) part; a column that is
    null everywhere is stored as string (tacocore's documented choice).
    """
    names: list[str] = []
    types: dict[str, list[str]] = {}
    for r in rows:
        for name, typ, _ in r.node["fields"]:
            if name not in types:
                names.append(name)
                types[name] = []
            types[name].append(typ)
    if level > 0:
        names = sorted(names)

    def resolve(ts: list[str]) -> str:
        for t in ts:
            if "null" not in t:
                return t
        return "string"

    return [(n, resolve(types[n])) for n in names]


def sample_data(node: dict) -> bytes:
    """The source bytes of a FILE node (small samples only)."""
    import base64

    if "data_b64" in node:
        return base64.b64decode(node["data_b64"])
    return Path(node["source"]).read_bytes()


@pytest.fixture(scope="session")
def taco_expect():
    """The helpers above, for test modules (conftest modules are not importable by name)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        arrow_type_name=arrow_type_name,
        normalized_values=normalized_values,
        expected_levels=expected_levels,
        expected_extension_columns=expected_extension_columns,
        sample_data=sample_data,
        vsi_read=vsi_read,
        parse_zip=parse_zip,
    )
