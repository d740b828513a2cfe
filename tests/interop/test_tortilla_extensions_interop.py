"""tacotoolbox's tortilla extensions under tacocore: ``MajorTOM`` and ``SpatialGrouping`` give the
same column as tacotoolbox's on the same samples, value for value (grid edges, poles, the
antimeridian, restricted ranges, null and non-point centroids, EWKB and big-endian WKB), each
library's extension runs on the other's Tortilla, ``Tortilla.pop`` returns what tacotoolbox's
does, and the written dataset describes the column as tacotoolbox's does."""

from __future__ import annotations

import json
import struct
import zipfile

import numpy as np
import pyarrow as pa
import pytest

import tacocore
from tacocore.tortilla.extensions.majortom import MajorTOM
from tacocore.tortilla.extensions.spatial_grouping import SpatialGrouping

tacotoolbox = pytest.importorskip("tacotoolbox")
from tacotoolbox.tortilla.extensions.majortom import MajorTOM as RefMajorTOM  # noqa: E402
from tacotoolbox.tortilla.extensions.spatial_grouping import SpatialGrouping as RefSpatialGrouping  # noqa: E402


def wkb_point(lon, lat, order="<", srid=None):
    byte = b"\x01" if order == "<" else b"\x00"
    if srid is None:
        return byte + struct.pack(order + "Idd", 1, lon, lat)
    return byte + struct.pack(order + "IIdd", 1 | 0x20000000, srid, lon, lat)


def wkb_line():
    return b"\x01" + struct.pack("<II4d", 2, 2, 0.0, 0.0, 1.0, 1.0)


def centroids():
    """Points where the grid decides something: the equator, Greenwich, both sides of the
    antimeridian, the poles, the default latitude limits, ring and column boundaries of the
    100 km grid, then random points; plus a null, a line, EWKB and big-endian points."""
    grid = RefMajorTOM(dist_km=100)
    edges = [(0.0, 0.0), (-180.0, 0.0), (180.0, 0.0), (179.9999, -0.0001), (-179.9999, 45.0),
             (0.0, 90.0), (0.0, -90.0), (10.0, 85.0), (10.0, -85.0), (10.0, 85.2), (10.0, -85.2)]
    edges += [(5.0, float(lat)) for lat in grid._lats[::37]]
    row = len(grid._lats) // 3
    edges += [(float(lon), float(grid._lats[row]) + 0.01) for lon in grid._row_lons[row][::50]]
    rng = np.random.default_rng(7)
    edges += list(zip(rng.uniform(-180, 180, 300).tolist(), rng.uniform(-90, 90, 300).tolist()))
    values = [wkb_point(lon, lat) for lon, lat in edges]
    values += [None, wkb_line(), wkb_point(12.5, 41.9, srid=4326), wkb_point(-70.6, -33.4, order=">")]
    return values


def tortilla(mod, values, sizes=None):
    Sample, Tortilla = mod.datamodel.Sample, mod.datamodel.Tortilla
    samples = []
    for i, wkb in enumerate(values):
        s = Sample(id=f"s{i}", path=b"x" * ((sizes or {}).get(i, 1)))
        s.extend_with(pa.table({"stac:centroid": pa.array([wkb], pa.binary())}))
        samples.append(s)
    return Tortilla(samples)


def column(t, name):
    return t._metadata_table.column(name).to_pylist()


@pytest.mark.parametrize("kwargs", [
    {},
    {"dist_km": 10},
    {"dist_km": 1000, "sep": "-"},
    {"dist_km": 333.3, "latitude_range": (-30.0, 60.0), "longitude_range": (-10.0, 40.0)},
])
def test_majortom_codes_equal_tacotoolbox(kwargs):
    values = centroids()
    ours = tortilla(tacocore, values).extend_with(MajorTOM(**kwargs))
    ref = tortilla(tacotoolbox, values).extend_with(RefMajorTOM(**kwargs))
    codes = column(ours, "majortom:code")
    assert codes == column(ref, "majortom:code")
    assert codes[-4] is None and codes[-3] is None  # the null and the line
    assert sum(c is None for c in codes) == 2


def test_majortom_grid_lookups_equal_tacotoolbox():
    ours, ref = MajorTOM(dist_km=50), RefMajorTOM(dist_km=50)
    lats, lons = [0.0, 45.3, -89.0, 12.0], [0.0, 179.9, -180.0, 33.3]
    for integer in (False, True):
        for return_idx in (False, True):
            got = ours.latlon2rowcol(lats, lons, integer=integer, return_idx=return_idx)
            want = ref.latlon2rowcol(lats, lons, integer=integer, return_idx=return_idx)
            assert [np.asarray(g).tolist() for g in got] == [np.asarray(w).tolist() for w in want]
            assert ours.latlon2rowcol(45.3, 7.0, integer=integer, return_idx=return_idx) == \
                ref.latlon2rowcol(45.3, 7.0, integer=integer, return_idx=return_idx)
    rows, cols = ref.latlon2rowcol(lats, lons)
    assert [a.tolist() for a in ours.rowcol2latlon(rows, cols)] == [a.tolist() for a in ref.rowcol2latlon(rows, cols)]
    assert ours.rowcol2latlon(3, -4) == ref.rowcol2latlon(3, -4)
    with pytest.raises(ValueError, match="Row label"):
        ours.rowcol2latlon("9999U", "0000R")


@pytest.mark.parametrize("kwargs", [{"target_count": 7}, {"target_size": "10KB"},
                                    {"target_count": 5, "target_size": "0.01MB"}])
def test_spatial_grouping_codes_equal_tacotoolbox(kwargs):
    values = centroids()
    rng = np.random.default_rng(3)
    sizes = {i: int(v) for i, v in enumerate(rng.integers(1, 4096, len(values)))}
    sizes[5] = 20000  # larger than a whole group: a group of its own
    ours = tortilla(tacocore, values, sizes).extend_with(SpatialGrouping(**kwargs))
    ref = tortilla(tacotoolbox, values, sizes).extend_with(RefSpatialGrouping(**kwargs))
    codes = column(ours, "spatialgroup:code")
    assert codes == column(ref, "spatialgroup:code")
    assert len({c for c in codes if c}) > 10


def test_each_library_runs_the_others_extension():
    values = centroids()
    ours, ref = tortilla(tacocore, values), tortilla(tacotoolbox, values)
    want = column(tortilla(tacotoolbox, values).extend_with(RefMajorTOM()), "majortom:code")
    assert column(ours.extend_with(RefMajorTOM()), "majortom:code") == want
    assert column(ref.extend_with(MajorTOM()), "majortom:code") == want
    grouped = tortilla(tacocore, values).extend_with(RefSpatialGrouping(target_size="8KB"))
    assert column(grouped, "spatialgroup:code") == column(
        tortilla(tacotoolbox, values).extend_with(RefSpatialGrouping(target_size="8KB")), "spatialgroup:code")


def test_tortilla_pop_equals_tacotoolbox():
    values = centroids()[:20]
    ours = tortilla(tacocore, values).extend_with(MajorTOM())
    ref = tortilla(tacotoolbox, values).extend_with(RefMajorTOM())
    popped, ref_popped = ours.pop("majortom:code"), ref.pop("majortom:code")
    assert popped.schema == ref_popped.schema
    assert popped.to_pylist() == ref_popped.to_pylist()
    assert ours._metadata_table.column_names == ref._metadata_table.column_names
    for t in (ours, ref):
        with pytest.raises(ValueError):
            t.pop("stac:centroid")  # the samples' own column
        with pytest.raises(ValueError):
            t.pop("id")
        with pytest.raises(KeyError):
            t.pop("majortom:code")


def field_schema(path):
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("COLLECTION.json"))["taco:field_schema"]["level0"]


def taco_of(mod, t):
    return mod.datamodel.Taco(tortilla=t, id="grid", dataset_version="1.0.0", description="d",
                              licenses=["CC-BY-4.0"], providers=[{"name": "p"}], tasks=["classification"])


def test_written_columns_are_described_as_tacotoolbox_describes_them(tmp_path):
    values = [wkb_point(1.0 * i, 2.0 * i) for i in range(6)]
    ours = tortilla(tacocore, values).extend_with(MajorTOM()).extend_with(SpatialGrouping(target_count=2))
    ref = tortilla(tacotoolbox, values).extend_with(RefMajorTOM()).extend_with(
        RefSpatialGrouping(target_count=2))
    tacocore.create(taco_of(tacocore, ours), str(tmp_path / "ours.tacozip"))
    tacotoolbox.create(taco_of(tacotoolbox, ref), str(tmp_path / "ref.tacozip"))
    want = {name: (kind, text) for name, kind, text in field_schema(tmp_path / "ref.tacozip")}
    got = {name: (kind, text) for name, kind, text in field_schema(tmp_path / "ours.tacozip")}
    for name in ("majortom:code", "spatialgroup:code"):
        assert got[name] == want[name]
        assert want[name][1]  # tacotoolbox describes it: the comparison means something
    # The text comes with the extension object: the same column from a dict has none, in both.
    plain = [tacocore.Sample(f"s{i}", b"x", **{"majortom:code": "0100km_0000U_0000R"}) for i in range(2)]
    tacocore.create(taco_of(tacocore, tacocore.Tortilla(plain)), str(tmp_path / "plain.tacozip"))
    assert {n: t for n, _, t in field_schema(tmp_path / "plain.tacozip")}["majortom:code"] == ""
    ours_level0 = tacocore.load(str(tmp_path / "ours.tacozip")).data.to_arrow()
    assert ours_level0.column("majortom:code").to_pylist() == column(ref, "majortom:code")
    assert ours_level0.column("spatialgroup:code").to_pylist() == column(ref, "spatialgroup:code")
