"""The codec of the level tables tacocore writes from Python: LZ4_RAW by default, zstd on request
(create, export, convert), __meta__ always zstd; read from the Parquet footers by pyarrow, and
tacoreader reads the LZ4_RAW dataset to the same rows as the zstd one."""
from __future__ import annotations

import io
import zipfile

import pyarrow.parquet as pq
import pytest

import tacocore


def _codecs(path) -> set:
    meta = pq.ParquetFile(path).metadata
    return {meta.row_group(g).column(c).compression
            for g in range(meta.num_row_groups) for c in range(meta.num_columns)}


def _taco(n: int = 30) -> tacocore.Taco:
    leaves = lambda: tacocore.Tortilla([tacocore.Sample(f"b{k}", b"xyz" * (k + 1)) for k in range(2)])
    samples = [tacocore.Sample(f"s{i:03d}", leaves(), cloud=float(i) / 3, label=f"l{i % 4}")
               for i in range(n)]
    return tacocore.Taco(tacocore.Tortilla(samples), id="codec", dataset_version="1",
                         description="codec", licenses=["CC-BY-4.0"], providers=[{"name": "t"}],
                         tasks=["other"])


def _rows(path) -> list:
    table = tacocore.load(str(path)).data.to_arrow()
    return table.drop_columns(["internal:gdal_vsi"]).to_pylist()


def test_create_writes_lz4_raw_by_default_and_zstd_when_asked(tmp_path):
    tacocore.create(_taco(), tmp_path / "lz4")
    tacocore.create(_taco(), tmp_path / "zstd", level_codec="zstd")
    assert _codecs(tmp_path / "lz4" / "METADATA" / "level0.parquet") == {"LZ4"}  # pyarrow's name of LZ4_RAW
    assert _codecs(tmp_path / "lz4" / "METADATA" / "level1.parquet") == {"LZ4"}
    assert _codecs(tmp_path / "lz4" / "DATA" / "s000" / "__meta__") == {"ZSTD"}
    assert _codecs(tmp_path / "zstd" / "METADATA" / "level0.parquet") == {"ZSTD"}
    assert _rows(tmp_path / "lz4") == _rows(tmp_path / "zstd")


def test_export_takes_the_codec_too(tmp_path):
    tacocore.create(_taco(), tmp_path / "src.tacozip")
    view = tacocore.load(str(tmp_path / "src.tacozip")).sql("SELECT * FROM data WHERE cloud > 5")
    tacocore.export(view, tmp_path / "lz4")
    tacocore.export(view, tmp_path / "zstd", level_codec="zstd")
    assert _codecs(tmp_path / "lz4" / "METADATA" / "level0.parquet") == {"LZ4"}
    assert _codecs(tmp_path / "zstd" / "METADATA" / "level0.parquet") == {"ZSTD"}
    assert _rows(tmp_path / "lz4") == _rows(tmp_path / "zstd")
    assert len(_rows(tmp_path / "lz4")) == 14


def test_an_unknown_codec_is_refused_naming_the_choices(tmp_path):
    with pytest.raises(ValueError, match=r"'gzip'.*lz4_raw.*zstd"):
        tacocore.create(_taco(), tmp_path / "bad", level_codec="gzip")
    assert not (tmp_path / "bad").exists()


def test_tacoreader_reads_the_lz4_raw_dataset_to_the_same_rows(tmp_path):
    tacoreader = pytest.importorskip("tacoreader")
    tacocore.create(_taco(), tmp_path / "lz4.tacozip")
    tacocore.create(_taco(), tmp_path / "zstd.tacozip", level_codec="zstd")
    def rows(name):
        t = tacoreader.load(str(tmp_path / name)).data
        t = t.to_arrow() if hasattr(t, "to_arrow") else t._data
        return t.select(["id", "type", "cloud", "label"]).to_pylist()
    assert rows("lz4.tacozip") == rows("zstd.tacozip")
    assert len(rows("lz4.tacozip")) == 30


def test_convert_takes_the_codec_both_ways(tmp_path):
    tacocore.create(_taco(), tmp_path / "src.tacozip")
    tacocore.convert(tmp_path / "src.tacozip", tmp_path / "zstd", level_codec="zstd")
    tacocore.convert(tmp_path / "src.tacozip", tmp_path / "lz4")
    assert _codecs(tmp_path / "zstd" / "METADATA" / "level0.parquet") == {"ZSTD"}
    assert _codecs(tmp_path / "zstd" / "METADATA" / "level1.parquet") == {"ZSTD"}
    assert _codecs(tmp_path / "lz4" / "METADATA" / "level0.parquet") == {"LZ4"}
    # FOLDER -> ZIP keeps asking for it: the ZIP's level tables are zstd too.
    result = tacocore.convert(tmp_path / "zstd", tmp_path / "back.tacozip", level_codec="ZSTD")
    assert result["format"] == "zip"
    with zipfile.ZipFile(tmp_path / "back.tacozip") as z:
        assert _codecs(io.BytesIO(z.read("METADATA/level0.parquet"))) == {"ZSTD"}
    assert _rows(tmp_path / "back.tacozip") == _rows(tmp_path / "src.tacozip")
    with pytest.raises(ValueError, match=r"'gzip'.*lz4_raw.*zstd"):
        tacocore.convert(tmp_path / "src.tacozip", tmp_path / "bad", level_codec="gzip")
    assert not (tmp_path / "bad").exists()
