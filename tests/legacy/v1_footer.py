"""Reading a v1 file's header and FOOTER with struct and pyarrow, independently of tacocore: the
expected values the tests compare tacocore's (and tacoreader's, after migrate) against."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def header(data: bytes, base: int = 0) -> dict:
    magic = data[base:base + 2]
    fo, fl, dp = struct.unpack_from("<QQQ", data, base + 2)
    out = {"magic": magic, "footer_offset": fo, "footer_length": fl, "partitions": dp}
    if magic == b"WX":
        out["collection_offset"], out["collection_length"] = struct.unpack_from("<QQ", data, 26)
    return out


def footer(data: bytes, base: int = 0) -> list[dict]:
    """The FOOTER rows of the tortilla starting at `base` (offsets as stored: relative)."""
    h = header(data, base)
    start = base + h["footer_offset"]
    table = pq.read_table(pa.BufferReader(data[start:start + h["footer_length"]]))
    return table.to_pylist()


def collection(path: Path) -> dict:
    data = path.read_bytes()
    h = header(data)
    return json.loads(data[h["collection_offset"]:h["collection_offset"] + h["collection_length"]])


def sample_bytes(data: bytes, row: dict, base: int = 0) -> bytes:
    start = base + row["tortilla:offset"]
    return data[start:start + row["tortilla:length"]]
