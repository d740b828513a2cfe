"""`taco docs` dataset cards (issue 16 item 5). The HTML card is opened in headless Chromium
(Debian's): the test reads the DOM Chromium built and looks at the rendered screenshot (the
extent box must be drawn where the extent is), not only at the HTML text."""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest

from cli_support import REPO_ROOT, TACO
FIXTURES = REPO_ROOT / "tests" / "fixtures" / "reference"
NESTED_ZIP = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
SIMPLE_ZIP = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-dev-shm-usage", "--disable-extensions", "--no-first-run"]


def taco(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(TACO), *map(str, args)], capture_output=True, text=True,
                          timeout=300)


def ok(*args) -> str:
    proc = taco(*args)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def read_png(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB(A) rows of an 8-bit PNG (what Chromium writes), decoded here."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r) for r in rows], bpp


def test_markdown_card_has_every_section():
    md = ok("docs", NESTED_ZIP)
    assert md.startswith("# test_dataset\n")
    for fragment in ("Test fixture with STAC metadata", "| licenses | CC-BY-4.0 |",
                     "## Extent", "spatial (W, S, E, N): -77, -33.85, 151.2, 52.5",
                     "<svg", "## Structure", "- level 0: 3 FOLDER samples",
                     "  - level 1: 9 rows, children item_0 (FILE), item_1 (FILE), item_2 (FILE)",
                     "### level1", "| `cloud_cover` | double |", "Fake statistics for testing",
                     'tacocore.load("', "```python", "## Providers"):
        assert fragment in md, fragment


def test_split_counts_and_output_file(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    rows = ["path,split"]
    for i in range(7):
        (files / f"s{i}.bin").write_bytes(b"x" * (i + 1))
        rows.append(f"s{i}.bin,{'train' if i < 5 else 'test'}")
    (tmp_path / "meta.csv").write_text("\n".join(rows) + "\n")
    ds = tmp_path / "ds.tacozip"
    ok("create", "--from", files, "--metadata", tmp_path / "meta.csv", ds, "-q")
    ok("docs", ds, "--output", tmp_path / "README.md", "--example-path", "ds.tacozip")
    md = (tmp_path / "README.md").read_text()
    assert "| test | 2 |" in md and "| train | 5 |" in md
    assert 'tacocore.load("ds.tacozip")' in md
    proc = taco("docs", ds, "--output", tmp_path / "README.md")
    assert proc.returncode == 2 and "exists" in proc.stderr
    proc = taco("docs", ds, "--format", "pdf")
    assert proc.returncode != 0


def green_pixels(path: Path) -> list[tuple[int, int]]:
    width, height, rows, bpp = read_png(path)
    out = []
    for y in range(0, height, 2):
        row = rows[y]
        for x in range(0, width, 2):
            r, g, b = row[x * bpp:x * bpp + 3]
            # The extent box: #4CAF50 at 35% over the map's #eef4fb.
            if abs(r - 181) < 14 and abs(g - 220) < 14 and abs(b - 183) < 14:
                out.append((x, y))
    return out


@pytest.mark.skipif(not CHROMIUM, reason="chromium is not installed (scripts/setup.sh does)")
def test_html_card_renders_in_headless_chromium(tmp_path):
    page = tmp_path / "card.html"
    ok("docs", NESTED_ZIP, "--format", "html", "--output", page)
    dom = subprocess.run([CHROMIUM, *FLAGS, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert '<h1 id="title">test_dataset</h1>' in dom
    assert dom.count('<table class="fields">') == 2
    assert '<rect class="extent"' in dom and "<script" not in dom
    shot = tmp_path / "card.png"
    subprocess.run([CHROMIUM, *FLAGS, "--window-size=1000,1400", f"--screenshot={shot}",
                    page.as_uri()], capture_output=True, timeout=120, check=True)
    green = green_pixels(shot)
    assert len(green) > 2000  # a box of ~228 x 86 map units at 1.5 px per unit, sampled 1 in 4
    # Rows crossing the box hold a long run of its colour (anti-aliased text holds a few pixels).
    per_row: dict[int, list[int]] = {}
    for x, y in green:
        per_row.setdefault(y, []).append(x)
    box_rows = {y: xs for y, xs in per_row.items() if len(xs) > 100}
    ys = list(box_rows)
    xs = [x for row in box_rows.values() for x in row]
    # The box spans lon -77..151.2 of the map's 540 px: about 40% of its width.
    assert 300 < max(xs) - min(xs) < 380
    assert 100 < max(ys) - min(ys) < 150


@pytest.mark.skipif(not CHROMIUM, reason="chromium is not installed (scripts/setup.sh does)")
def test_html_card_without_extent_columns_and_escaping(tmp_path):
    page = tmp_path / "simple.html"
    ok("docs", SIMPLE_ZIP, "--format", "html", "--output", page)
    dom = subprocess.run([CHROMIUM, *FLAGS, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert "temporal: not given" in dom
    assert "4 FILE samples" in dom
