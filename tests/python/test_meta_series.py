"""A hierarchy large enough that create encodes its __meta__ tables on several DuckDB connections
at once (src/metadata/parquet_series.cpp: a batch of 256, at least 32 tables per thread): every
FOLDER's __meta__ must still list its own children, in order, with their own offsets, in the ZIP
and in the FOLDER container, and tacoreader must navigate the result."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from osgeo import gdal

import tacocore
import tacoreader  # the reference reader; make setup installs it

from conftest import COLLECTION_DEFAULTS, zip_entry_ranges

ROOTS = 300  # 300 level-0 FOLDERs and 600 level-1 ones: both levels take two threads
MIDS = ["m_b", "m_a"]
LEAVES = ["z", "y", "x"]


def leaf_bytes(r: str, m: str, leaf: str) -> bytes:
    return f"{r}/{m}/{leaf}".encode() * 2


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    out = tmp_path_factory.mktemp("meta_series")
    src = out / "src"
    src.mkdir()
    ids = [f"r{i}" for i in range(ROOTS)]
    random.Random(7).shuffle(ids)  # sample order is not the __meta__ (sorted) order
    roots = []
    for k, r in enumerate(ids):
        mids = []
        for m in MIDS:
            leaves = []
            for j, leaf in enumerate(LEAVES):
                f = src / f"{r}_{m}_{leaf}.bin"
                f.write_bytes(leaf_bytes(r, m, leaf))
                s = tacocore.Sample(id=leaf, path=str(f))
                s.extend_with({"rank": k * 10 + j})
                leaves.append(s)
            mids.append(tacocore.Sample(id=m, path=tacocore.Tortilla(leaves)))
        roots.append(tacocore.Sample(id=r, path=tacocore.Tortilla(mids)))
    taco = tacocore.Taco(tortilla=tacocore.Tortilla(roots), **COLLECTION_DEFAULTS)
    zip_path, folder_path = out / "tree.tacozip", out / "tree_folder"
    tacocore.create(taco, str(zip_path))
    tacocore.create(taco, str(folder_path), output_format="folder")
    return {"ids": ids, "zip": zip_path, "folder": folder_path}


def test_every_zip_meta_lists_its_own_children_at_their_own_bytes(tree):
    entries = zip_entry_ranges(tree["zip"])
    data = Path(tree["zip"]).read_bytes()
    metas = [n for n in entries if n.endswith("/__meta__")]
    assert len(metas) == ROOTS * (1 + len(MIDS))
    for name in metas:
        folder = name[len("DATA/"):-len("/__meta__")]
        off, size = entries[name]
        table = pq.read_table(io.BytesIO(data[off:off + size])).to_pylist()
        children = [row["id"] for row in table]
        assert children == (list(MIDS) if "/" not in folder else list(LEAVES)), name
        for row in table:
            child = f"DATA/{folder}/{row['id']}"
            own = entries.get(child + "/__meta__", entries.get(child))
            assert (row["internal:offset"], row["internal:size"]) == own, child
        if "/" in folder:  # a level-1 FOLDER: its leaves carry their ranks
            r, m = folder.split("/")
            k = tree["ids"].index(r)
            assert [row["rank"] for row in table] == [k * 10 + i for i in range(len(LEAVES))]
            leaf = table[1]
            lo = leaf["internal:offset"]
            assert data[lo:lo + leaf["internal:size"]] == leaf_bytes(r, m, leaf["id"])


def test_every_folder_meta_lists_its_own_children(tree):
    data = Path(tree["folder"]) / "DATA"
    metas = sorted(data.rglob("__meta__"))
    assert len(metas) == ROOTS * (1 + len(MIDS))
    for meta in metas:
        folder = meta.parent.relative_to(data).as_posix()
        table = pq.read_table(meta).to_pylist()
        assert [row["id"] for row in table] == (list(MIDS) if "/" not in folder else list(LEAVES))
        if "/" in folder:
            r, _ = folder.split("/")
            k = tree["ids"].index(r)
            assert [row["rank"] for row in table] == [k * 10 + i for i in range(len(LEAVES))]


@pytest.mark.parametrize("which", ["zip", "folder"])
def test_tacoreader_navigates_the_tree(tree, which):
    ds = tacoreader.load(str(tree[which]))
    ids = ds.data.to_arrow().column("id").to_pylist()
    assert ids == tree["ids"]
    for i in (0, 137, ROOTS - 1):
        mids = ds.data.read(i)
        assert mids.to_arrow().column("id").to_pylist() == MIDS
        leaves = mids.read(1)
        assert leaves.to_arrow().column("id").to_pylist() == LEAVES
        path = leaves.read(2)
        f = gdal.VSIFOpenL(path, "rb")
        got = gdal.VSIFReadL(1, 1 << 16, f)
        gdal.VSIFCloseL(f)
        assert got == leaf_bytes(ids[i], MIDS[1], LEAVES[2])
