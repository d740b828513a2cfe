"""tacoreader's v1 API on tacocore (tacocore.v1): the same script, `import tacoreader.v1` or
`import tacocore.v1`, over the files the legacy writers made, gives the same frames, the same
reads and byte-identical compiled files; where tacocore.v1 differs on purpose (errors, safety),
the test says so."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pandas as pd
import pytest

import tacocore
import tacocore.v1 as tc

import tacoreader.v1 as tr  # the reference; make setup installs it (scripts/python-requirements.txt)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "remote"))
from servers import Nginx  # noqa: E402

FILES = ["flat.tortilla", "nested.taco", "deep.tortilla", "irregular.taco", "big.tortilla",
         "multi.0001.part.taco", "split.0000.part.taco"]


def plain(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame's data as a plain DataFrame (the two packages' classes differ by module)."""
    return pd.DataFrame({c: list(frame[c]) for c in frame.columns}, index=list(frame.index))


def assert_same_frame(ref: pd.DataFrame, ours: pd.DataFrame) -> None:
    assert type(ours).__name__ == "TortillaDataFrame"
    assert list(ours.columns) == list(ref.columns)
    assert [str(t) for t in ours.dtypes] == [str(t) for t in ref.dtypes]
    pd.testing.assert_frame_equal(plain(ref), plain(ours))


def assert_same_reads(ref: pd.DataFrame, ours: pd.DataFrame) -> int:
    """Reads every row of both, recursively; returns how many samples were compared."""
    n = 0
    for i in range(len(ref)):
        a, b = ref.read(i), ours.read(i)
        if isinstance(a, pd.DataFrame):
            assert_same_frame(a, b)
            n += assert_same_reads(a, b)
        else:
            assert type(a) is type(b) and a == b, (i, a, b)
            assert ours.iloc[i].read() == b  # the row's own read()
            n += 1
    return n


@pytest.mark.parametrize("name", FILES)
def test_load_and_read_match_tacoreader_v1(v1, name):
    ref, ours = tr.load(str(v1.path(name))), tc.load(str(v1.path(name)))
    assert_same_frame(ref, ours)
    assert assert_same_reads(ref, ours) >= 2
    # pandas operations keep the class and its read()
    sub = ours[ours["tortilla:length"] > 0].iloc[::-1]
    assert type(sub).__name__ == "TortillaDataFrame"
    last, first_of_sub = ours.read(len(ours) - 1), sub.read(0)
    if isinstance(last, pd.DataFrame):
        assert_same_frame(last, first_of_sub)
    else:
        assert first_of_sub == last


def test_reads_give_the_packed_bytes(v1):
    """What read() returns opens as the input: GDAL paths for rasters, bytes for BYTES."""
    from osgeo import gdal

    flat = tc.load(v1.path("flat.tortilla"))
    by_id = {r["id"]: r["path"] for r in v1.manifest["flat.tortilla"]["rows"]}
    for i, sample_id in enumerate(flat["tortilla:id"]):
        got = flat.read(i)
        if isinstance(got, bytes):
            assert got == Path(by_id[sample_id]).read_bytes()
        else:
            assert got.startswith("/vsisubfile/")
            f = gdal.VSIFOpenL(got, "rb")
            data = gdal.VSIFReadL(1, Path(by_id[sample_id]).stat().st_size, f)
            gdal.VSIFCloseL(f)
            assert data == Path(by_id[sample_id]).read_bytes()


def test_a_list_of_parts_is_one_frame_sorted_by_id(v1):
    parts = [str(v1.path(f"multi.{i:04d}.part.taco")) for i in range(3)]
    ref, ours = tr.load(parts), tc.load(parts)
    # tacoreader.v1 concatenates in thread completion order, so only its rows are comparable;
    # tacocore keeps the order the files are given in.
    assert_same_frame(ref.reset_index(drop=True), ours.reset_index(drop=True))
    assert list(ours["tortilla:id"]) == sorted(r["id"] for r in v1.manifest["multi.taco"]["rows"])
    assert {s.rsplit(",", 1)[1] for s in ours["internal:subfile"]} == set(parts)
    assert_same_reads(ref.sort_values("tortilla:id", kind="stable").reset_index(drop=True),
                      ours.reset_index(drop=True))


def test_load_metadata_matches_and_a_tortilla_has_none(v1):
    for name in ("nested.taco", "irregular.taco", "multi.0002.part.taco"):
        assert tc.load_metadata(str(v1.path(name))) == tr.load_metadata(str(v1.path(name)))
    assert tc.load_metadata([v1.path("split.0001.part.taco")]) == tr.load_metadata(
        [str(v1.path("split.0001.part.taco"))])
    with pytest.raises(tacocore.TacoFormatError, match=r"flat\.tortilla: a Tortilla 0\.5 file has no COLLECTION"):
        tc.load_metadata(v1.path("flat.tortilla"))


def subsets(frame: pd.DataFrame):
    n = len(frame)
    yield frame
    yield frame.iloc[[n - 1, 0]]
    yield frame.iloc[[n // 2]]


@pytest.mark.parametrize("name", ["flat.tortilla", "nested.taco", "deep.tortilla", "big.tortilla"])
def test_compile_writes_the_bytes_tacoreader_writes(v1, tmp_path, name):
    ref_frame, our_frame = tr.load(str(v1.path(name))), tc.load(v1.path(name))
    for k, (a, b) in enumerate(zip(subsets(ref_frame), subsets(our_frame))):
        ref_out, our_out = tmp_path / f"ref{k}.tortilla", tmp_path / f"ours{k}.tortilla"
        tr.compile(a, str(ref_out), quiet=True)
        assert tc.compile(b, our_out) == our_out
        assert our_out.read_bytes() == ref_out.read_bytes(), (name, k)
        # the result reads back in both APIs, and in tacocore's TACO 2.0 surface
        again = tc.load(our_out)
        assert list(again["tortilla:id"]) == list(b.sort_values("tortilla:offset")["tortilla:id"])
        assert_same_reads(tr.load(str(our_out)), again)
        assert tacocore.load(our_out).data.to_arrow().num_rows == len(b)


def test_compile_from_several_parts(v1, tmp_path):
    parts = [str(v1.path(f"split.{i:04d}.part.taco")) for i in range(3)]
    frame = tc.load(parts)
    out = tc.compile(frame.iloc[::2], tmp_path / "picked.tortilla")
    back = tc.load(out)
    assert sorted(back["tortilla:id"]) == sorted(frame.iloc[::2]["tortilla:id"])
    for i, sample_id in enumerate(back["tortilla:id"]):
        j = list(frame["tortilla:id"]).index(sample_id)
        a, b = back.read(i), frame.read(j)
        if isinstance(a, pd.DataFrame):
            assert [a.read(x) if isinstance(a.read(x), bytes) else
                    tacocore_bytes(a.read(x)) for x in range(len(a))] == [
                b.read(x) if isinstance(b.read(x), bytes) else tacocore_bytes(b.read(x))
                for x in range(len(b))]
        else:
            assert tacocore_bytes(a) == tacocore_bytes(b) if isinstance(a, str) else a == b


def tacocore_bytes(gdal_path: str) -> bytes:
    from osgeo import gdal

    f = gdal.VSIFOpenL(gdal_path, "rb")
    gdal.VSIFSeekL(f, 0, 2)
    size = gdal.VSIFTellL(f)
    gdal.VSIFSeekL(f, 0, 0)
    data = gdal.VSIFReadL(1, size, f)
    gdal.VSIFCloseL(f)
    return data


def test_compile_loses_nothing_on_bad_input(v1, tmp_path):
    frame = tc.load(v1.path("flat.tortilla"))
    keep = tmp_path / "mine.tif"
    keep.write_bytes(b"II*\x00 not a tortilla")
    with pytest.raises(tacocore.TacoIOError, match="not a legacy v1 file"):
        tc.compile(frame, keep)  # overwrite=True is the default, as in tacoreader.v1
    assert keep.read_bytes() == b"II*\x00 not a tortilla"
    out = tmp_path / "out.tortilla"
    tc.compile(frame.iloc[[0]], out)
    first = out.read_bytes()
    with pytest.raises(tacocore.TacoIOError, match="exists"):
        tc.compile(frame, out, overwrite=False)
    assert out.read_bytes() == first
    tc.compile(frame, out)  # a v1 file is replaced
    assert len(tc.load(out)) == len(frame)
    with pytest.raises(ValueError, match="no rows"):
        tc.compile(frame.iloc[0:0], tmp_path / "empty.tortilla")
    with pytest.raises(ValueError, match=r"internal:subfile"):
        tc.compile(frame.drop(columns=["internal:subfile"]), tmp_path / "cols.tortilla")
    with pytest.raises(ValueError, match="Unsupported unit"):
        tc.compile(frame, tmp_path / "unit.tortilla", chunk_size_iter="100MiB")
    garbled = frame.copy()
    garbled.loc[garbled.index[2], "internal:subfile"] = "tile_2.tif"
    with pytest.raises(ValueError, match="'tile_2.tif' is not a '/vsisubfile/OFFSET_LENGTH,FILE' path"):
        tc.compile(garbled, tmp_path / "garbled.tortilla")
    broken = frame.copy()
    broken.loc[broken.index[1], "internal:subfile"] = "/vsisubfile/200_370," + str(tmp_path / "gone.tortilla")
    with pytest.raises(tacocore.TacoIOError, match="gone.tortilla"):
        tc.compile(broken, tmp_path / "half.tortilla")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.tif", "out.tortilla"]


def test_bad_files_are_named(v1, tmp_path):
    bad = tmp_path / "bad.tortilla"
    bad.write_bytes(b"NO" + bytes(300))
    with pytest.raises(tacocore.TacoFormatError, match=r"bad\.tortilla: corrupt header"):
        tc.load(bad)
    short = tmp_path / "short.taco"
    short.write_bytes(v1.path("nested.taco").read_bytes()[:150])
    with pytest.raises(tacocore.TacoFormatError, match="truncated"):
        tc.load(short)
    with pytest.raises(tacocore.TacoIOError, match="No such file or directory"):
        tc.load(tmp_path / "missing.tortilla")
    with pytest.raises(ValueError, match="Invalid file type"):
        tc.load(42)
    # a FOOTER without tortilla:length (the rest of the file as the writer made it)
    import struct

    import pyarrow as pa
    import pyarrow.parquet as pq

    data = v1.path("flat.tortilla").read_bytes()
    fo, fl = struct.unpack_from("<QQ", data, 2)
    table = pq.read_table(pa.BufferReader(data[fo:fo + fl])).drop_columns(["tortilla:length"])
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    footer = sink.getvalue().to_pybytes()
    lacking = tmp_path / "lacking.tortilla"
    lacking.write_bytes(data[:10] + struct.pack("<Q", len(footer)) + data[18:fo] + footer)
    with pytest.raises(tacocore.TacoFormatError, match=r"lacking\.tortilla: the FOOTER .* lacks the column\(s\) \['tortilla:length'\]"):
        tc.load(lacking)


def test_read_needs_only_the_format_and_subfile_columns(v1):
    flat = tc.load(v1.path("flat.tortilla"))
    slim = flat[["tortilla:file_format", "internal:subfile"]]
    assert [slim.read(i) for i in range(len(slim))] == [flat.read(i) for i in range(len(flat))]
    nested = tc.load(v1.path("nested.taco"))[["tortilla:file_format", "internal:subfile"]]
    assert list(nested.read(1)["tortilla:id"]) == ["lr", "hr"]


def failing_on_tile_2(data) -> None:  # module level: sanity_check's worker processes pickle it
    from osgeo import gdal

    if isinstance(data, str) and gdal.Open(data).GetGeoTransform()[0] == 500200.0:
        raise ValueError("tile_2 rejected")


@pytest.mark.parametrize("workers", [None, 2])
def test_sanity_check_names_the_failing_samples(v1, workers):
    flat = tc.load(v1.path("flat.tortilla"))
    assert tc.sanity_check(flat, failing_on_tile_2, max_workers=workers) == ["tile_2"]
    nested = tc.load(v1.path("nested.taco"))
    # tile_2 is region_1's "lr": nested ids are the parent's id followed by the child's
    assert tc.sanity_check(nested, failing_on_tile_2, batch_size=1, max_workers=workers) == ["region_1lr"]
    assert tc.sanity_check(flat, len, max_workers=workers) == []


def test_remote_files_read_by_range(v1, tmp_path):
    with Nginx(v1.root) as srv:
        url = srv.url("nested.taco")
        remote, local = tc.load(url), tc.load(v1.path("nested.taco"))
        assert list(remote["internal:subfile"]) == [
            s.replace(str(v1.path("nested.taco")), "/vsicurl/" + url) for s in local["internal:subfile"]]
        pd.testing.assert_frame_equal(plain(remote.drop(columns=["internal:subfile"])),
                                      plain(local.drop(columns=["internal:subfile"])))
        child = remote.read(2)
        assert list(child["tortilla:id"]) == ["lr", "hr"]
        assert tacocore_bytes(child.read(1)) == (v1.inputs / "tile_5.tif").read_bytes()
        big = tc.load(srv.url("big.tortilla"))
        srv.clear()
        assert big.read(1) == (v1.inputs / "big_1.bin").read_bytes()
        got = [r for r in srv.requests() if r.method == "GET"]
        assert got and all(r.range for r in got) and sum(r.bytes_sent for r in got) < (1 << 20) + 200_000
        assert tc.load_metadata(url) == tr.load_metadata(str(v1.path("nested.taco")))
        out = tc.compile(remote, tmp_path / "from_remote.tortilla")
        tr.compile(tr.load(str(v1.path("nested.taco"))), str(tmp_path / "ref.tortilla"), quiet=True)
        assert out.read_bytes() == (tmp_path / "ref.tortilla").read_bytes()


def test_tacofoundation_names_resolve_through_the_catalog(v1, tmp_path, monkeypatch):
    parts = [str(v1.path(f"multi.{i:04d}.part.taco")) for i in range(3)]
    catalog = tmp_path / "tacos.json"
    catalog.write_text(json.dumps({"multi": parts}))
    monkeypatch.setenv("TACOCORE_TACOFOUNDATION_CATALOG", catalog.as_uri())
    pd.testing.assert_frame_equal(plain(tc.load("tacofoundation:multi")), plain(tc.load(parts)))
    with pytest.raises(ValueError, match="not in the catalog"):
        tc.load("tacofoundation:nope")
    monkeypatch.setenv("TACOCORE_TACOFOUNDATION_CATALOG", (tmp_path / "absent.json").as_uri())
    with pytest.raises(tacocore.TacoIOError, match="cannot read the TACO Foundation catalog"):
        tc.load("tacofoundation:multi")


def test_the_v1_script_runs_with_the_import_changed(v1, tmp_path):
    """tacoreader's legacy message tells users `import tacoreader.v1 as tacoreader`; the same
    script with `import tacocore.v1 as tacoreader` prints the same."""
    script = tmp_path / "v1_script.py"
    script.write_text(f"""
import sys
import IMPORT as tacoreader
ds = tacoreader.load({str(v1.path("nested.taco"))!r})
print(len(ds), list(ds.columns))
region = ds.read(1)
print(list(region["tortilla:id"]), region.read(0).split(",")[0])
print(sorted(tacoreader.load_metadata({str(v1.path("nested.taco"))!r})))
print(tacoreader.sanity_check(ds, len, max_workers=None))
tacoreader.compile(ds.iloc[[2]], sys.argv[1], quiet=True)
print(open(sys.argv[1], "rb").read()[:2], len(tacoreader.load(sys.argv[1])))
""")
    outs = []
    for module in ("tacoreader.v1", "tacocore.v1"):
        text = script.read_text().replace("IMPORT", module)
        path = tmp_path / f"{module}.py"
        path.write_text(text)
        import subprocess

        proc = subprocess.run([sys.executable, str(path), str(tmp_path / f"{module}.tortilla")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[0] == outs[1]
    assert (tmp_path / "tacoreader.v1.tortilla").read_bytes() == (tmp_path / "tacocore.v1.tortilla").read_bytes()
    assert os.path.getsize(tmp_path / "tacocore.v1.tortilla") > 200
