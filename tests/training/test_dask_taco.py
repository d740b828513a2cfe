"""tacocore.dask.create(source=Taco) on a LocalCluster of worker processes: the Taco's samples
are pickled into one task per part (exact metadata types, paths and in-memory bytes), the parts
are what tacocore.create writes in one process, and a failing task leaves nothing visible."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

import tacocore  # noqa: E402
import tacocore.dask as tdask  # noqa: E402

from training_data import pixels, write_tif  # noqa: E402

COLLECTION = dict(id="tiles", dataset_version="1.0.0", description="dask from a Taco",
                  licenses=["CC-BY-4.0"], providers=[{"name": "tacocore tests"}], tasks=["other"])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


class Quality:
    """A user's sample extension (tacotoolbox's protocol): its column's description must reach
    every part's taco:field_schema, through the pickled Taco on the workers too."""

    def __init__(self, value: float) -> None:
        self.value = value

    def get_field_descriptions(self) -> dict:
        return {"quality": "Quality score (0-1)"}

    def __call__(self, sample):
        import pyarrow as pa
        return pa.table({"quality": [self.value]})


def make_taco(root: Path) -> tacocore.Taco:
    """24 GeoTIFF FILE samples on disk and 12 in-memory ones, with int32, float32, timestamp,
    list and string columns (values that a lossy pickle would change), and a described one."""
    root.mkdir(parents=True, exist_ok=True)
    samples = []
    for i in range(36):
        meta = dict(region=["north", "south", "east"][i % 3], k=np.int32(i), cloud=np.float32(i / 3),
                    when=datetime.datetime(2024, 1, 1 + i % 28, 6), bands=[i, i + 1])
        if i < 24:
            write_tif(root / f"t{i:02d}.tif", pixels(i, (2, 16, 16)))
            samples.append(tacocore.Sample(f"t{i:02d}", root / f"t{i:02d}.tif", **meta))
        else:
            samples.append(tacocore.Sample(f"m{i:02d}", os.urandom(3000 + i), **meta))
        samples[-1].extend_with(Quality(i / 36))
    return tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION)


def collection_text(path: Path) -> str:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return z.read("COLLECTION.json").decode()


def zip_layout(path: Path) -> list:
    import zipfile

    with zipfile.ZipFile(path) as z:
        return [(i.filename, i.header_offset, i.file_size, i.CRC) for i in z.infolist()]


@pytest.mark.parametrize("how", [{"split_size": "20KB"}, {"group_by": "region"}])
def test_taco_parts_on_workers_match_the_single_process_create(client, tmp_path, how):
    taco = make_taco(tmp_path / "inputs")
    (tmp_path / "one").mkdir()
    (tmp_path / "many").mkdir()
    tacocore.create(taco, tmp_path / "one" / "tiles.tacozip", **how)
    report = {}
    parts = tdask.create(taco, tmp_path / "many" / "tiles.tacozip", client, report=report, **how)
    expected = sorted(p.name for p in (tmp_path / "one").glob("*.tacozip"))
    assert len(expected) >= 3 and sorted(p.name for p in parts) == expected
    for name in expected:  # byte for byte but the ZIP times
        assert zip_layout(tmp_path / "many" / name) == zip_layout(tmp_path / "one" / name), name
        assert "Quality score (0-1)" in collection_text(tmp_path / "many" / name), name
    for f in ("level0.parquet", "COLLECTION.json"):
        assert (tmp_path / "many" / ".tacocat" / f).read_bytes() == (tmp_path / "one" / ".tacocat" / f).read_bytes(), f
    assert sorted(os.listdir(tmp_path / "many")) == sorted(expected + [".tacocat"])
    # The tasks ran on the workers (several processes), not in the client.
    assert len(report["parts"]) == len(expected)
    ds = tacocore.load(tmp_path / "many" / ".tacocat")
    assert ds.count() == 36
    table = ds.data.to_arrow()
    assert str(table.schema.field("k").type) == "int32" and str(table.schema.field("cloud").type) == "float"


def test_a_failing_part_task_leaves_nothing(client, tmp_path):
    taco = make_taco(tmp_path / "inputs")
    with pytest.raises(tacocore.TacoIOError, match=r"part tiles_south\.tacozip failed on its worker.*refused"):
        tdask.create(taco, tmp_path / "out" / "tiles.tacozip", client, group_by="region",
                     prepare=_refuse_south)
    assert not (tmp_path / "out").exists() or os.listdir(tmp_path / "out") == []


def test_a_file_the_workers_cannot_see_fails_its_part_by_name(client, tmp_path):
    taco = make_taco(tmp_path / "inputs")
    (tmp_path / "inputs" / "t04.tif").unlink()  # after the Taco was built: gone for the workers
    (tmp_path / "out").mkdir()
    with pytest.raises(tacocore.TacoIOError, match="t04.tif"):
        tdask.create(taco, tmp_path / "out" / "tiles.tacozip", client, split_size="20KB")
    assert os.listdir(tmp_path / "out") == []


def test_directory_options_are_refused_with_a_taco(client, tmp_path):
    taco = make_taco(tmp_path / "inputs")
    with pytest.raises(tacocore.TacoSchemaError, match="collection, metadata"):
        tdask.create(taco, tmp_path / "t.tacozip", client, collection={"id": "x"}, metadata="m.csv")


def _refuse_south(name, ids):
    if "south" in name:
        raise RuntimeError(f"refused by the test ({len(ids)} samples)")
