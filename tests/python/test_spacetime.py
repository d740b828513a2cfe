"""filter_bbox, filter_datetime, cascades and stats_* (issue 14), with the answers computed
independently: geometry with shapely, CRS transforms with pyproj, times with datetime, pooled
statistics with numpy. Datasets are the reference fixtures that carry istac:* and geotiff:stats
plus generated ones (UTM geometries in many zones, antimeridian, microsecond times)."""
from __future__ import annotations

import datetime as dt
import math
import random

import numpy as np
import pyarrow as pa
import pytest
import shapely
from pyproj import CRS, Transformer
from shapely.geometry import Point, Polygon, box

import tacocore
from conftest import COLLECTION_DEFAULTS


def ids(view) -> list:
    return view.data.to_arrow().column("id").to_pylist()


def densified_box(minx, miny, maxx, maxy, transformer=None, n=64):
    """The box boundary with n points per edge, projected when a transformer is given."""
    xs, ys = [], []
    corners = [(minx, miny), (maxx, miny), (maxx, maxy), (minx, maxy)]
    for e in range(4):
        (x0, y0), (x1, y1) = corners[e], corners[(e + 1) % 4]
        for k in range(n):
            t = k / n
            xs.append(x0 + t * (x1 - x0))
            ys.append(y0 + t * (y1 - y0))
    if transformer is not None:
        xs, ys = transformer.transform(xs, ys)
    return Polygon(list(zip(xs, ys)))


def write(tmp_path, samples, name="ds.tacozip") -> str:
    taco = tacocore.Taco(tacocore.Tortilla(samples), **COLLECTION_DEFAULTS)
    return tacocore.create(taco, tmp_path / name)[0]


# --- reference fixtures ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["reader-folder-flat", "reader-zip-flat"])
@pytest.mark.parametrize("bbox", [(-10, 35, 5, 50), (-80, -15, -70, 45), (139.6, 35.6, 139.7, 35.7),
                                  (-0.2, 39.6, 0, 40), (100, -60, 120, -50)])
def test_bbox_on_reference_fixture_matches_shapely(fixture_paths, key, bbox):
    ds = tacocore.load(fixture_paths[key])
    table = ds.data.to_arrow()
    expected = [i for i, g in zip(table.column("id").to_pylist(),
                                  table.column("istac:geometry").to_pylist())
                if shapely.from_wkb(g).intersects(box(*bbox))]
    view = ds.filter_bbox(*bbox)
    assert ids(view) == expected
    assert view.count() == len(expected)
    assert view.pit_schema.root["n"] == len(expected)
    assert isinstance(view, tacocore.TacoDataset)
    # centroids give their own answer
    centroids = [i for i, g in zip(table.column("id").to_pylist(),
                                   table.column("istac:centroid").to_pylist())
                 if shapely.from_wkb(g).intersects(box(*bbox))]
    assert ids(ds.filter_bbox(*bbox, geometry_col="istac:centroid")) == centroids


def test_box_in_another_crs_is_carried_to_the_geometry(fixture_paths):
    ds = tacocore.load(fixture_paths["reader-zip-flat"])
    to_merc = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
    (x0, x1), (y0, y1) = to_merc.transform([-10, 5], [35, 50])
    assert ids(ds.filter_bbox(x0, y0, x1, y1, crs="EPSG:3857")) == ["sample_0", "sample_1"]


@pytest.mark.parametrize("key", ["reader-folder-flat", "reader-zip-flat"])
def test_datetime_on_reference_fixture(fixture_paths, key):
    ds = tacocore.load(fixture_paths[key])
    times = dict(zip(ids(ds), ds.data.to_arrow().column("istac:time_start").to_pylist()))
    cases = {
        "2023-01-31": lambda t: t.date() == dt.date(2023, 1, 31),
        "2023-01-01/2023-03-01": lambda t: dt.datetime(2023, 1, 1) <= t < dt.datetime(2023, 3, 2),
        "../2023-02-01": lambda t: t < dt.datetime(2023, 2, 2),
        "2023-04-01T00:00:00Z/..": lambda t: t >= dt.datetime(2023, 4, 1),
        "2023-04-01T00:00:00.000001Z/..": lambda t: t > dt.datetime(2023, 4, 1),
        (dt.datetime(2023, 3, 2), None): lambda t: t >= dt.datetime(2023, 3, 2),
        dt.date(2023, 5, 1): lambda t: t.date() == dt.date(2023, 5, 1),
        dt.datetime(2023, 5, 1): lambda t: t == dt.datetime(2023, 5, 1),
        (dt.datetime(2023, 1, 1, 1, tzinfo=dt.timezone(dt.timedelta(hours=2))), "2023-01-31"):
            lambda t: dt.datetime(2022, 12, 31, 23) <= t < dt.datetime(2023, 2, 1),
    }
    for rng, keep in cases.items():
        assert ids(ds.filter_datetime(rng)) == [i for i, t in times.items() if keep(t)], rng


@pytest.mark.parametrize("key", ["reader-folder-nested", "reader-zip-nested"])
def test_cascade_on_nested_fixture(fixture_paths, key):
    ds = tacocore.load(fixture_paths[key])
    level1 = ds.sql("SELECT * FROM level1").data_raw.to_arrow().to_pylist()
    parents = dict(zip(range(3), ids(ds)))
    query = (-75, 40, -73, 41.5)
    hits = [r for r in level1 if shapely.from_wkb(r["istac:geometry"]).intersects(box(*query))]
    view = ds.filter_bbox(*query, level=1)
    assert ids(view) == sorted({parents[r["internal:parent_id"]] for r in hits},
                               key=list(parents.values()).index)
    children = view.read("americas")
    assert children.to_arrow().column("id").to_pylist() == [
        r["id"] for r in hits if parents[r["internal:parent_id"]] == "americas"]
    # chained with sql() and a time cascade
    assert ids(view.sql("SELECT * FROM data").filter_datetime("2023-03-02", level=1)) == ["americas"]
    assert view.filter_datetime("2023-03-02", level=1).read(0).to_arrow().column("id").to_pylist() \
        == ["item_2"]
    # without the cascade, every child shows
    assert len(ds.read("americas")) == 3


# --- generated: UTM geometries in their own CRS ---------------------------------------------------


@pytest.fixture(scope="module")
def utm_dataset(tmp_path_factory):
    rng = random.Random(14)
    samples, truth = [], []
    for i in range(300):
        lon, lat = rng.uniform(-170, 170), rng.uniform(-70, 70)
        zone = int((lon + 180) // 6) + 1
        epsg = (32600 if lat >= 0 else 32700) + zone
        to_utm = Transformer.from_crs("EPSG:4326", f"EPSG:{epsg}", always_xy=True)
        x, y = to_utm.transform(lon, lat)
        size = rng.uniform(500, 20000)
        poly = box(x - size, y - size, x + size, y + size)
        samples.append(tacocore.Sample(
            f"s{i:03d}", b"x", **{"istac:crs": f"EPSG:{epsg}", "istac:geometry": poly.wkb,
                                  "istac:time_start": dt.datetime(2020, 1, 1) + dt.timedelta(
                                      microseconds=rng.randrange(10**14))}))
        truth.append((f"s{i:03d}", epsg, poly))
    path = write(tmp_path_factory.mktemp("utm"), samples)
    return path, truth


def test_bbox_against_pyproj_and_shapely_in_each_utm_zone(utm_dataset):
    """Truth: each UTM square carried to EPSG:4326 by pyproj (densified) against the box with
    shapely. Samples within 1e-3 degrees of the box boundary may go either way (the box is carried
    the other way round by tacocore): the answer must lie between the shrunk and grown boxes."""
    path, truth = utm_dataset
    ds = tacocore.load(path)
    in_4326 = {}
    for sid, epsg, poly in truth:
        t = Transformer.from_crs(f"EPSG:{epsg}", "EPSG:4326", always_xy=True)
        in_4326[sid] = densified_box(*poly.bounds, transformer=t)
    rng = random.Random(7)
    checked = 0
    for _ in range(25):
        minx, miny = rng.uniform(-170, 150), rng.uniform(-70, 50)
        query = (minx, miny, minx + rng.uniform(1, 30), miny + rng.uniform(1, 20))
        inner = box(*query).buffer(-1e-3, join_style="mitre")
        outer = box(*query).buffer(1e-3, join_style="mitre")
        sure = {sid for sid, g in in_4326.items() if g.intersects(inner)}
        maybe = {sid for sid, g in in_4326.items() if g.intersects(outer)}
        got = set(ids(ds.filter_bbox(*query)))
        assert sure <= got <= maybe, (query, sure - got, got - maybe)
        checked += len(sure)
    assert checked > 0


def _footprints(tmp_path, places: dict) -> tuple[str, dict]:
    """One 2 km square per {name: (lon, lat, crs)}, stored in its CRS; also returned in lon/lat
    (densified) as the truth to compare with."""
    samples, truth = [], {}
    for name, (lon, lat, crs) in places.items():
        to_crs = Transformer.from_crs("EPSG:4326", crs, always_xy=True)
        back = Transformer.from_crs(crs, "EPSG:4326", always_xy=True)
        x, y = to_crs.transform(lon, lat)
        footprint = box(x - 1000, y - 1000, x + 1000, y + 1000)
        samples.append(tacocore.Sample(name, b"x", **{"istac:geometry": footprint.wkb, "istac:crs": crs}))
        truth[name] = densified_box(*footprint.bounds, transformer=back, n=16)
    return write(tmp_path, samples), truth


def test_bbox_finds_footprints_far_outside_their_crs_area_of_use(tmp_path):
    # Norway maps the whole country in ETRS89 / UTM 33N (area of use 12-18 E): Bergen (5.3 E)
    # and Kirkenes (30 E) lie far outside it, and a box cut to that area missed them.
    utm33 = "EPSG:25833"
    path, truth = _footprints(tmp_path, {"oslo": (10.75, 59.91, utm33), "bergen": (5.32, 60.39, utm33),
                                         "tromso": (18.96, 69.65, utm33), "kirkenes": (30.05, 69.73, utm33)})
    ds = tacocore.load(path)
    for q in [(4, 59, 7, 62), (29, 69, 31, 70.5), (4, 57, 32, 72), (-180, -90, 180, 90), (20, 59, 25, 62)]:
        expected = sorted(n for n, fp in truth.items() if fp.intersects(box(*q)))
        assert sorted(ids(ds.filter_bbox(*q))) == expected, q


def test_bbox_with_crs_that_have_no_area_of_use(tmp_path):
    # A PROJ string, WKT1 and a custom WKT2 have no EPSG area of use: a world box carried into
    # them folded over and lost the footprint.
    lyon = (4.8, 45.75)
    places = {
        "epsg": (*lyon, "EPSG:32631"),
        "proj_string": (*lyon, "+proj=utm +zone=31 +datum=WGS84 +units=m +no_defs"),
        "wkt1": (*lyon, CRS("EPSG:32631").to_wkt("WKT1_GDAL")),
        "custom_laea": (*lyon, CRS("+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 "
                                   "+ellps=GRS80 +units=m").to_wkt()),
    }
    path, _ = _footprints(tmp_path, places)
    ds = tacocore.load(path)
    for q in [(4, 45, 5, 46), (-180, -90, 180, 90), (-179, -89, 179, 89)]:
        assert sorted(ids(ds.filter_bbox(*q))) == sorted(places), q
    for q in [(5, 45, 6, 46), (-10, -10, 0, 0)]:
        assert ids(ds.filter_bbox(*q)) == [], q


def test_antimeridian_box_and_geometries(tmp_path):
    pts = {"east": (179.5, 0.0), "west": (-179.5, 0.0), "zero": (0.0, 0.0), "far": (170.5, 0.5)}
    samples = [tacocore.Sample(k, b"x", **{"stac:centroid": Point(*p).wkb}) for k, p in pts.items()]
    # a geometry written past 180 (175..185) meets boxes on both sides
    samples.append(tacocore.Sample("wrapped", b"x", **{
        "stac:centroid": Point(0, 80).wkb}))
    ds = tacocore.load(write(tmp_path, samples))
    assert ids(ds.filter_bbox(170, -10, -170, 10)) == ["east", "west", "far"]
    assert ids(ds.filter_bbox(179, -1, -179, 1)) == ["east", "west"]
    with pytest.raises(tacocore.TacoQueryError, match="minx > maxx"):
        ds.filter_bbox(10, 0, 5, 1, crs="EPSG:3857")
    wrapped = [tacocore.Sample("w", b"x", **{
        "istac:geometry": box(175, -1, 185, 1).wkb, "istac:crs": "EPSG:4326"})]
    ds2 = tacocore.load(write(tmp_path, wrapped, "w.tacozip"))
    assert ids(ds2.filter_bbox(-179, -0.5, -178, 0.5)) == ["w"]
    assert ids(ds2.filter_bbox(176, -0.5, 177, 0.5)) == ["w"]
    assert ids(ds2.filter_bbox(0, -0.5, 1, 0.5)) == []


def test_datetime_microseconds_and_intervals(tmp_path):
    base = dt.datetime(2023, 6, 1, 12)
    rows = {
        "instant": (base, None),
        "next_us": (base + dt.timedelta(microseconds=1), None),
        "interval": (dt.datetime(2023, 5, 1), dt.datetime(2023, 7, 1)),
        "before": (dt.datetime(2022, 1, 1), dt.datetime(2022, 2, 1)),
    }
    samples = [tacocore.Sample(k, b"x", **{"stac:time_start": s, "stac:time_end": e})
               for k, (s, e) in rows.items()]
    ds = tacocore.load(write(tmp_path, samples))
    assert ids(ds.filter_datetime(base)) == ["instant", "interval"]
    assert ids(ds.filter_datetime((base + dt.timedelta(microseconds=1), None))) == [
        "next_us", "interval"]
    assert ids(ds.filter_datetime("2023-06-15/2023-12-31")) == ["interval"]
    assert ids(ds.filter_datetime("../2022-01-15")) == ["before"]
    # an explicit non-start column is an instant
    assert ids(ds.filter_datetime("2023-07-01", time_col="stac:time_end")) == ["interval"]


@pytest.mark.parametrize("values", [
    [dt.datetime(2023, 1, 1, 12, tzinfo=dt.timezone.utc), dt.datetime(2023, 2, 1, tzinfo=dt.timezone.utc)],
    [dt.date(2023, 1, 1), dt.date(2023, 2, 1)],
], ids=["timestamptz", "date"])
def test_datetime_on_zoned_timestamp_and_date_columns(tmp_path, values):
    # tacocore writes these types itself (aware datetimes, dates); they were refused.
    samples = [tacocore.Sample(f"s{i}", b"x", **{"stac:time_start": v}) for i, v in enumerate(values)]
    ds = tacocore.load(write(tmp_path, samples))
    assert ids(ds.filter_datetime("2023-01-01")) == ["s0"]
    assert ids(ds.filter_datetime("2023-01-02/..")) == ["s1"]


def test_datetime_text_column_keeps_its_utc_offset(tmp_path):
    texts = {"utc": "2023-01-01T23:30:00Z", "east": "2023-01-02T01:30:00+02:00",
             "west": "2023-01-01T18:30:00-05:00", "naive": "2023-01-01T23:30:00",
             "other": "2023-01-01T23:29:59Z", "junk": "not a time"}
    samples = [tacocore.Sample(k, b"x", **{"stac:time_start": v}) for k, v in texts.items()]
    ds = tacocore.load(write(tmp_path, samples))
    # The same instant written four ways; text without an offset is UTC.
    assert sorted(ids(ds.filter_datetime("2023-01-01T23:30:00Z"))) == ["east", "naive", "utc", "west"]


def test_filters_chain_and_survive_concat(tmp_path, utm_dataset):
    path, truth = utm_dataset
    a = tacocore.load(path).filter_bbox(-180, 0, 180, 90)
    b = tacocore.load(path).filter_datetime("2021-01-01/..")
    both = tacocore.concat([a, b])
    assert both.count() == a.count() + b.count()
    assert sorted(ids(both)) == sorted(ids(a) + ids(b))
    # order of application does not matter
    ab = tacocore.load(path).filter_bbox(-180, 0, 180, 90).filter_datetime("2021-01-01/..")
    ba = tacocore.load(path).filter_datetime("2021-01-01/..").sql(
        "SELECT * FROM data").filter_bbox(-180, 0, 180, 90)
    assert ids(ab) == ids(ba) == sorted(set(ids(a)) & set(ids(b)))


# --- bad input ---------------------------------------------------------------------------------------


def test_bad_inputs_raise_query_errors(fixture_paths):
    ds = tacocore.load(fixture_paths["reader-zip-flat"])
    Q = tacocore.TacoQueryError
    with pytest.raises(Q, match="finite"):
        ds.filter_bbox(float("nan"), 0, 1, 1)
    with pytest.raises(Q, match="miny > maxy"):
        ds.filter_bbox(0, 1, 1, 0)
    with pytest.raises(Q, match="not a CRS"):
        ds.filter_bbox(0, 0, 1, 1, crs="EPSG:0")
    with pytest.raises(Q, match="level 2 does not exist"):
        ds.filter_bbox(0, 0, 1, 1, level=2)
    with pytest.raises(Q, match="level must be"):
        ds.filter_bbox(0, 0, 1, 1, level=-1)
    with pytest.raises(Q, match="the columns are: id, location"):
        ds.sql("SELECT id, location FROM data").filter_bbox(0, 0, 1, 1)
    with pytest.raises(Q, match="expected WKB"):
        ds.filter_bbox(0, 0, 1, 1, geometry_col="location")
    with pytest.raises(Q, match="not found"):
        ds.filter_datetime("2023-01-01", time_col="nope")
    with pytest.raises(Q, match="reversed"):
        ds.filter_datetime("2023-02-01/2023-01-01")
    with pytest.raises(Q, match="reversed"):
        ds.filter_datetime((dt.datetime(2023, 2, 1), dt.datetime(2023, 1, 1)))
    with pytest.raises(Q, match="ISO 8601"):
        ds.filter_datetime("2023-02-30")
    with pytest.raises(Q, match="2 items"):
        ds.filter_datetime((dt.datetime(2023, 2, 1),))
    with pytest.raises(Q, match="expected"):
        ds.filter_datetime(20230101)
    bad = ds.sql("SELECT * REPLACE ('junk'::BLOB AS \"istac:geometry\") FROM data")
    with pytest.raises(Q, match=r"'istac:geometry' of sample 'sample_0' does not hold a WKB"):
        bad.filter_bbox(-180, -90, 180, 90).count()


# --- statistics ------------------------------------------------------------------------------------


def fixture_stats(ds):
    t = ds.data.to_arrow()
    return np.array(t.column("geotiff:stats").to_pylist(), dtype=np.float64), \
        np.array([s[-2] * s[-1] for s in t.column("stac:tensor_shape").to_pylist()], dtype=float)


@pytest.mark.parametrize("key", ["reader-folder-flat", "reader-zip-flat"])
def test_stats_follow_the_view_and_pool_correctly(fixture_paths, key):
    ds = tacocore.load(fixture_paths[key])
    for view in (ds, ds.filter_datetime("2023-02-01/.."), ds.filter_bbox(-80, -15, 5, 50)):
        stats, pixels = fixture_stats(view)
        w = pixels[:, None] * stats[:, :, 4] / 100  # valid pixels per row and band
        mean = (w * stats[:, :, 2]).sum(0) / w.sum(0)
        var = (w * (stats[:, :, 3] ** 2 + (stats[:, :, 2] - mean) ** 2)).sum(0) / w.sum(0)
        np.testing.assert_allclose(view.stats_mean([0, 1, 2]), mean, rtol=1e-6)
        np.testing.assert_allclose(view.stats_std([0, 1, 2]), np.sqrt(var), rtol=1e-6)
        np.testing.assert_allclose(view.stats_min([0, 1, 2]), stats[:, :, 0].min(0))
        np.testing.assert_allclose(view.stats_max([0, 1, 2]), stats[:, :, 1].max(0))
        assert isinstance(view.stats_mean(1), np.float32)
        # percentiles: invert the mixture of piecewise-linear CDFs numerically
        for band in range(3):
            grid = np.linspace(stats[:, band, 0].min(), stats[:, band, 1].max(), 200001)
            cdf = sum(wi * np.interp(grid, sorted(s[[0, 5, 6, 7, 8, 1]]),
                                     [0, .25, .5, .75, .95, 1])
                      for wi, s in zip(w[:, band], stats[:, band]))
            cdf /= w[:, band].sum()
            for q, fn in ((.25, view.stats_p25), (.5, view.stats_median), (.75, view.stats_p75),
                          (.95, view.stats_p95)):
                assert abs(fn(band) - grid[np.searchsorted(cdf, q)]) < 0.01, (q, band)
    one = ds.sql("SELECT * FROM data WHERE id = 'sample_3'")
    stats, _ = fixture_stats(one)
    np.testing.assert_allclose(one.stats_p25([0, 1, 2]), stats[0, :, 5], rtol=1e-6)
    np.testing.assert_allclose(one.stats_p95([0, 1, 2]), stats[0, :, 8], rtol=1e-6)
    # the pooled median of two disjoint samples is not the mean of their medians
    lo = [0, 1, .5, .1, 100, .25, .5, .75, .95]
    hi = [10, 11, 10.5, .1, 100, 10.25, 10.5, 10.75, 10.95]
    assert tacocore._core.pooled_quantile([lo, hi], [1, 3], 0.5) == pytest.approx(10 + 1 / 3, abs=1e-9)


def test_stats_categorical_cascade_and_errors(tmp_path, fixture_paths):
    roots = []
    for r in range(3):
        kids = [tacocore.Sample(f"k{c}", b"x", **{
            "geotiff:stats": [[0.1 * c, 1 - 0.1 * c], [1.0, 0.0]],
            "stac:tensor_shape": [2, 10 * (c + 1), 10]}) for c in range(3)]
        roots.append(tacocore.Sample(f"r{r}", tacocore.Tortilla(kids), region=r))
    ds = tacocore.load(write(tmp_path, roots))
    w = np.array([100, 200, 300], float)
    p = np.array([[0.1 * c, 1 - 0.1 * c] for c in range(3)])
    expected = (w[:, None] * p).sum(0) / w.sum()
    np.testing.assert_allclose(ds.stats_categorical(0, level=1), expected, rtol=1e-6)
    np.testing.assert_allclose(ds.stats_categorical([0, 1], level=1, id="r1"),
                               [expected, [1, 0]], rtol=1e-6)
    assert ds.stats_categorical(0, level=1).shape == (2,)
    Q = tacocore.TacoQueryError
    with pytest.raises(Q, match="categorical"):
        ds.stats_mean(0, level=1)
    with pytest.raises(Q, match="band 2 is out of range"):
        ds.stats_categorical(2, level=1)
    with pytest.raises(Q, match="no column 'geotiff:stats'"):
        ds.stats_categorical(0)
    with pytest.raises(Q, match="level 2 does not exist"):
        ds.stats_categorical(0, level=2)
    flat = tacocore.load(fixture_paths["reader-zip-flat"])
    with pytest.raises(Q, match="continuous"):
        flat.stats_categorical(0)
    with pytest.raises(Q, match="band must be"):
        flat.stats_mean(-1)
    uneven = [tacocore.Sample("a", b"x", **{"geotiff:stats": [[1.0] * 9]}),
              tacocore.Sample("b", b"x", **{"geotiff:stats": [[1.0] * 4]})]
    with pytest.raises(tacocore.TacoSchemaError, match="sample 'b'"):
        tacocore.load(write(tmp_path, uneven, "u.tacozip")).stats_mean(0)


# --- DuckDB's spatial extension, offline -----------------------------------------------------------

ST_QUERY = ('SELECT id FROM data WHERE ST_Intersects(ST_GeomFromWKB("istac:geometry"), '
            'ST_MakeEnvelope(-10, 35, 5, 50))')


def test_st_functions_work_offline_from_the_pinned_wheel(fixture_paths):
    path = tacocore._core.spatial_extension_path()
    assert path.endswith("v1.4.4/linux_amd64/spatial.duckdb_extension"), path
    ds = tacocore.load(fixture_paths["reader-zip-flat"])
    assert ids(ds.sql(ST_QUERY)) == ["sample_0", "sample_1"] == ids(ds.filter_bbox(-10, 35, 5, 50))


def test_without_the_extension_only_st_functions_fail(fixture_paths):
    import subprocess
    import sys

    code = f"""
import tacocore
ds = tacocore.load({fixture_paths["reader-zip-flat"]!r})
assert ds.filter_bbox(-10, 35, 5, 50).count() == 2
assert ds.sql("SELECT * FROM data WHERE cloud_cover >= 0").count() == 5
try:
    ds.sql({ST_QUERY!r})
except tacocore.TacoQueryError as e:
    print(e)
"""
    import os
    env = dict(os.environ, TACO_DUCKDB_SPATIAL="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "pip install duckdb-ext-spatial==1.4.4.20260205" in out.stdout
    assert "filter_bbox works without it" in out.stdout


def test_tacoreader_runs_offline_with_the_same_extension(fixture_paths, duckdb_spatial_offline):
    """tacoreader's duckdb pointed at the wheel's extension directory (as bench_spacetime.py
    does) loads spatial offline: its filter_bbox (planar, in the raw coordinates) agrees with ours
    on this EPSG:4326 fixture."""
    tacoreader = pytest.importorskip("tacoreader")
    ref = tacoreader.load(fixture_paths["reader-zip-flat"])
    for query in [(-10, 35, 5, 50), (-80, -15, -70, 45), (100, -60, 120, -50)]:
        got = ref.filter_bbox(*query).data
        ref_ids = got.to_arrow().column("id").to_pylist() if hasattr(got, "to_arrow") else \
            list(got["id"])
        assert ref_ids == ids(tacocore.load(fixture_paths["reader-zip-flat"]).filter_bbox(*query))


def test_sandboxed_load_refuses_the_extension_clearly(fixture_paths):
    ds = tacocore.load(fixture_paths["reader-zip-flat"], sandbox=True)
    with pytest.raises(tacocore.TacoQueryError, match="cannot load DuckDB's spatial extension"):
        ds.sql(ST_QUERY)
    assert ids(ds.filter_bbox(-10, 35, 5, 50)) == ["sample_0", "sample_1"]  # needs no extension


def test_export_extent_covers_the_kept_footprints_as_create_does(tmp_path):
    """export recomputes the extent by create's rule: an ISTAC geometry counts by its whole
    footprint, not by its centroid (which would miss most of each polygon)."""
    samples = [tacocore.Sample(f"s{i}", b"x", **{
        "istac:crs": "EPSG:4326", "istac:geometry": box(10 * i, 0, 10 * i + 5, 5 + i).wkb,
        "istac:centroid": Point(10 * i + 2.5, 2.5).wkb,
        "istac:time_start": dt.datetime(2020, 1, 1 + i)}) for i in range(4)]
    path = write(tmp_path, samples)
    assert tacocore.load(path).collection["extent"]["spatial"] == pytest.approx([0, 0, 35, 8])
    out = tmp_path / "sub.tacozip"
    tacocore.export(tacocore.load(path).sql("SELECT * FROM data WHERE id IN ('s1', 's2')"), out)
    extent = tacocore.load(out).collection["extent"]
    assert extent["spatial"] == pytest.approx([10, 0, 25, 7])  # centroids alone: [12.5, 2.5, 22.5, 2.5]
    assert extent["temporal"][0].startswith("2020-01-02") and extent["temporal"][1].startswith("2020-01-03")
