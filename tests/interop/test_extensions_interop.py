"""The writing extensions (issue 14): STAC, ISTAC, Scaling, Split on samples; OpticalData, Labels,
Publications, SplitStrategy on the TACO. The same dataset is written by tacotoolbox and by
tacocore, with each tool's own extension classes, and compared: level-0 columns (names, order,
Arrow types, values; centroids to 1e-9°), COLLECTION.json (every key but the ones where tacocore
is deliberately different: taco_version, and the extent, checked here against an independent
computation). tacoreader reads what tacocore writes; filter_bbox / filter_datetime work on it;
bad input raises TacoSchemaError naming the sample and the field."""

from __future__ import annotations

import datetime as dt
import decimal
import io
import json
import struct
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import tacocore
from tacocore.sample.extensions.istac import ISTAC
from tacocore.sample.extensions.scaling import Scaling
from tacocore.sample.extensions.split import Split
from tacocore.sample.extensions.stac import STAC
from tacocore.taco.extensions.labels import LabelClass, Labels
from tacocore.taco.extensions.opticaldata import OpticalData, SpectralBand
from tacocore.taco.extensions.scientific import Publication, Publications
from tacocore.taco.extensions.split import SplitStrategy

tacotoolbox = pytest.importorskip("tacotoolbox")
shapely = pytest.importorskip("shapely")
pyproj = pytest.importorskip("pyproj")
from shapely.geometry import Polygon, box  # noqa: E402
from shapely.wkb import loads as wkb_loads  # noqa: E402

US = 1_000_000
T0 = 1_600_000_000 * US  # 2020-09-13T12:26:40Z


def utm_box(i: int) -> bytes:
    return box(500000 + i * 5000, 4500000, 504000 + i * 5000, 4504000).wkb


# One description of the dataset, spelled with either tool's classes.
def sample_specs():
    for i in range(4):
        yield dict(
            id=f"s{i}", data=b"sample-%d" % i,
            stac=dict(crs="EPSG:32633", tensor_shape=(3, 100, 200),
                      geotransform=(500000.0 + i * 1000, 10.0, 0.0, 4500000.0, 0.0, -10.0),
                      time_start=T0 + i * 86_400 * US, time_end=T0 + (i + 2) * 86_400 * US + 7),
            scaling=dict(scale_factor=[0.5, 0.25 * (i + 1)], scale_offset=[1.0, 2.0],
                         padding=[0, 1, 2, 3] if i % 2 else None),
            split=["train", "test", "validation", "train"][i],
        )


def istac_specs():
    for i in range(3):
        yield dict(id=f"g{i}", data=b"geom-%d" % i,
                   istac=dict(crs="EPSG:32633", geometry=utm_box(i), time_start=T0 + i * US,
                              time_end=T0 + (i + 10) * US),
                   scaling=dict(scale_factor=0.0001, scale_offset=None if i else -0.1, padding=[0, 1, 2, i]))


def write(tool, out: Path, specs, ext_names, taco_ext: bool) -> Path:
    """Writes the dataset with `tool` ("ref" = tacotoolbox, "ours" = tacocore)."""
    if tool == "ref":
        from tacotoolbox.datamodel import Sample, Taco, Tortilla
        from tacotoolbox.sample.extensions import istac as m_istac, scaling as m_scaling, split as m_split
        from tacotoolbox.sample.extensions import stac as m_stac
        from tacotoolbox.taco.extensions import labels as m_labels, opticaldata as m_opt
        from tacotoolbox.taco.extensions import scientific as m_sci, split as m_ss
        create = tacotoolbox.create
    else:
        from tacocore.datamodel import Sample, Taco, Tortilla
        from tacocore.sample.extensions import istac as m_istac, scaling as m_scaling, split as m_split
        from tacocore.sample.extensions import stac as m_stac
        from tacocore.taco.extensions import labels as m_labels, opticaldata as m_opt
        from tacocore.taco.extensions import scientific as m_sci, split as m_ss
        create = tacocore.create
    samples = []
    for spec in specs:
        s = Sample(id=spec["id"], path=spec["data"])
        if "stac" in ext_names:
            s.extend_with(m_stac.STAC(**spec["stac"]))
        if "istac" in ext_names:
            s.extend_with(m_istac.ISTAC(**spec["istac"]))
        if "scaling" in ext_names:
            s.extend_with(m_scaling.Scaling(**spec["scaling"]))
        if "split" in ext_names:
            s.extend_with(m_split.Split(split=spec["split"]))
        samples.append(s)
    taco = Taco(tortilla=Tortilla(samples), id="ext_demo", dataset_version="1.0.0", description="extensions",
                licenses=["CC-BY-4.0"], providers=[{"name": "x"}], tasks=["classification"])
    if taco_ext:
        taco.extend_with(m_opt.OpticalData(sensor="sentinel2msi[B02,B03,B04,B8A]"))
        taco.extend_with(m_labels.Labels(label_classes=[m_labels.LabelClass(name="a", category=0),
                                                        m_labels.LabelClass(name="b", category="B", description="bee")],
                                         label_description="two classes"))
        taco.extend_with(m_sci.Publications(publications=[m_sci.Publication(doi="10.1/x", citation="Someone 2024")]))
        taco.extend_with(m_ss.SplitStrategy(strategy="stratified"))
    create(taco, str(out))
    return out


def level0(path: Path) -> pa.Table:
    with zipfile.ZipFile(path) as z:
        return pq.read_table(io.BytesIO(z.read("METADATA/level0.parquet")))


def collection(path: Path) -> dict:
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("COLLECTION.json"))


def point(wkb: bytes) -> tuple[float, float]:
    g = wkb_loads(wkb)
    return g.x, g.y


def assert_same_columns(ours: pa.Table, ref: pa.Table) -> None:
    user = [n for n in ref.column_names if not n.startswith("internal:")]
    assert [n for n in ours.column_names if not n.startswith("internal:")] == user
    for n in user:
        assert ours.schema.field(n).type == ref.schema.field(n).type, n
        a, b = ours.column(n).to_pylist(), ref.column(n).to_pylist()
        if n.endswith(":centroid"):
            for x, y in zip(a, b):
                assert x[0:5] == y[0:5]  # byte order + type: a 2-D point, as shapely writes it
                assert point(x) == pytest.approx(point(y), abs=1e-9)
        else:
            assert a == b, n


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    d = tmp_path_factory.mktemp("ext")
    names = ("stac", "scaling", "split")
    return (write("ours", d / "ours.tacozip", list(sample_specs()), names, True),
            write("ref", d / "ref.tacozip", list(sample_specs()), names, True))


@pytest.fixture(scope="module")
def istac_pair(tmp_path_factory):
    d = tmp_path_factory.mktemp("istac")
    return (write("ours", d / "ours.tacozip", list(istac_specs()), ("istac", "scaling"), False),
            write("ref", d / "ref.tacozip", list(istac_specs()), ("istac", "scaling"), False))


def test_sample_columns_equal_tacotoolbox(pair):
    ours, ref = pair
    assert_same_columns(level0(ours), level0(ref))


def test_istac_columns_equal_tacotoolbox(istac_pair):
    ours, ref = istac_pair
    assert_same_columns(level0(ours), level0(ref))


def test_time_nested_and_decimal_columns_from_dicts_and_tables_equal_tacotoolbox(tmp_path):
    """Naive datetimes are wall times (timestamp[us]), aware ones instants (timestamp[us, tz=UTC]),
    from a dict as from a 1-row table, as tacotoolbox's pyarrow inference writes them; a table's
    struct, map, decimal and list<int32> columns keep their types. Values and
    types equal, nulls included, but for a millisecond column's unit.
    (Aware datetimes in other zones are instants in tacocore too; tacotoolbox would name each
    zone in the type, and refuses two zones in one column.)"""
    utc = dt.timezone.utc
    rows = [(dt.datetime(2024, 2, 29, 23, 59, 58, 123456), dt.datetime(2024, 1, 1, 12, tzinfo=utc)),
            (dt.datetime(1969, 12, 31, 23, 0), dt.datetime(1999, 12, 31, 23, 59, 59, 1, tzinfo=utc))]
    table = pa.table({"t_tab": pa.array([dt.datetime(2020, 1, 1, tzinfo=utc), None], pa.timestamp("us", tz="UTC")),
                      "ms_tab": pa.array([dt.datetime(2020, 1, 1, 0, 0, 0, 5000), None], pa.timestamp("ms")),
                      # nested and decimal columns keep their Arrow types (arrow_row.cpp)
                      "st": pa.array([{"a": 1, "b": "x"}, None], pa.struct([("a", pa.int32()), ("b", pa.string())])),
                      "mp": pa.array([[("k", 1)], []], pa.map_(pa.string(), pa.int64())),
                      "dec": pa.array([decimal.Decimal("1.25"), None], pa.decimal128(5, 2)),
                      "l32": pa.array([[1, None], None], pa.list_(pa.int32()))})

    def build(tool: str) -> pa.Table:
        mod = tacotoolbox if tool == "ref" else tacocore
        Sample, Taco, Tortilla = mod.datamodel.Sample, mod.datamodel.Taco, mod.datamodel.Tortilla
        samples = []
        for i, (naive, aware) in enumerate(rows):
            s = Sample(id=f"s{i}", path=b"x" * (i + 1))
            s.extend_with({"t_naive": naive, "t_aware": aware})
            s.extend_with(table.slice(i, 1))
            samples.append(s)
        taco = Taco(tortilla=Tortilla(samples), id="times", dataset_version="1.0.0", description="times",
                    licenses=["CC-BY-4.0"], providers=[{"name": "x"}], tasks=["classification"])
        out = tmp_path / f"{tool}.tacozip"
        mod.create(taco, str(out))
        return level0(out)

    ours, ref = build("ours"), build("ref")
    assert ref.schema.field("t_aware").type == pa.timestamp("us", tz="UTC")  # what is compared
    # The one deliberate difference: tacocore keeps every time column in microseconds (its
    # model's one unit, USER-GUIDE §4), tacotoolbox the table's milliseconds; the times are equal.
    assert ref.schema.field("ms_tab").type == pa.timestamp("ms")
    assert ours.schema.field("ms_tab").type == pa.timestamp("us")
    assert ours["ms_tab"].to_pylist() == ref["ms_tab"].to_pylist()
    assert_same_columns(ours.drop_columns(["ms_tab"]), ref.drop_columns(["ms_tab"]))


def test_collection_json_equals_tacotoolbox_but_for_version_and_extent(pair):
    ours, ref = (collection(p) for p in pair)
    assert ours["taco_version"] == "2.0.0"  # the spec's; the reference writes its own 0.5.0
    for doc in (ours, ref):
        doc.pop("taco_version")
    ours_extent, ref_extent = ours.pop("extent"), ref.pop("extent")
    assert list(ours) == list(ref)  # same keys, same order
    # Not the extensions' business, and documented elsewhere: the provider given as {"name"} is
    # filled in with the spec's shape (FORMAT-DECISIONS "Provider shapes"), and pit_schema has no
    # tacotoolbox-only "shape" key.
    for doc in (ours, ref):
        doc.pop("providers")
        doc["taco:pit_schema"].pop("shape", None)
    assert ours == ref
    # Spatial: the reference's rule (centroids) — same box.
    assert ours_extent["spatial"] == pytest.approx(ref_extent["spatial"], abs=1e-9)
    # Temporal: every [time_start, time_end] covered (the reference's min/max of time_middle
    # leaves out the first half of the first interval and the second half of the last).
    specs = list(sample_specs())
    first = min(s["stac"]["time_start"] for s in specs)
    last = max(s["stac"]["time_end"] for s in specs)
    iso = lambda us: (dt.datetime(1970, 1, 1) + dt.timedelta(microseconds=us)).isoformat() + "Z"  # noqa: E731
    assert ours_extent["temporal"] == [iso(first), iso(last)]
    assert ref_extent["temporal"][0] > ours_extent["temporal"][0]


def test_istac_extent_is_the_footprints_bounds(istac_pair):
    ours = collection(istac_pair[0])["extent"]
    t = pyproj.Transformer.from_crs("EPSG:32633", "EPSG:4326", always_xy=True)
    lons, lats = [], []
    for s in istac_specs():
        g = wkb_loads(s["istac"]["geometry"]).segmentize(10)  # densified, as tacocore does
        for x, y in g.exterior.coords:
            lon, lat = t.transform(x, y)
            lons.append(lon)
            lats.append(lat)
    assert ours["spatial"] == pytest.approx([min(lons), min(lats), max(lons), max(lats)], abs=1e-6)


def test_tacotoolbox_extension_objects_work_on_tacocore_samples(tmp_path, pair):
    """A script that keeps tacotoolbox's extension classes and swaps only Sample/Taco/create."""
    from tacotoolbox.sample.extensions.scaling import Scaling as TScaling
    from tacotoolbox.sample.extensions.split import Split as TSplit
    from tacotoolbox.sample.extensions.stac import STAC as TSTAC
    from tacotoolbox.taco.extensions.labels import LabelClass as TLabelClass, Labels as TLabels
    from tacotoolbox.taco.extensions.opticaldata import OpticalData as TOpticalData
    from tacotoolbox.taco.extensions.scientific import Publication as TPub, Publications as TPubs
    from tacotoolbox.taco.extensions.split import SplitStrategy as TSS
    samples = []
    for spec in sample_specs():
        s = tacocore.Sample(id=spec["id"], path=spec["data"])
        s.extend_with(TSTAC(**spec["stac"]))
        s.extend_with(TScaling(**spec["scaling"]))
        s.extend_with(TSplit(split=spec["split"]))
        samples.append(s)
    taco = tacocore.Taco(tortilla=tacocore.Tortilla(samples), id="ext_demo", dataset_version="1.0.0",
                         description="extensions", licenses=["CC-BY-4.0"], providers=[{"name": "x"}],
                         tasks=["classification"])
    taco.extend_with(TOpticalData(sensor="sentinel2msi[B02,B03,B04,B8A]"))
    taco.extend_with(TLabels(label_classes=[TLabelClass(name="a", category=0),
                                            TLabelClass(name="b", category="B", description="bee")],
                             label_description="two classes"))
    taco.extend_with(TPubs(publications=[TPub(doi="10.1/x", citation="Someone 2024")]))
    taco.extend_with(TSS(strategy="stratified"))
    out = tacocore.create(taco, str(tmp_path / "mixed.tacozip"))[0]
    assert_same_columns(level0(out), level0(pair[1]))
    assert collection(out) == collection(pair[0])


def test_tacoreader_reads_ours_and_filters_work(pair, istac_pair):
    import tacoreader
    ours = pair[0]
    ds = tacoreader.load(str(ours))
    assert len(ds.data) == 4
    assert set(ds.data.columns) >= {"stac:crs", "stac:centroid", "scaling:scale_factor", "split"}
    ds = tacocore.load(str(ours))
    # Samples s0..s3 start a day apart; a range holding only s1's start and s2's interval.
    day = dt.timedelta(days=1)
    start = dt.datetime(2020, 9, 13, 12, 26, 40)
    ids = lambda view: view.data.to_arrow().column("id").to_pylist()  # noqa: E731
    # Intervals overlap the range: s0 [d0, d2], s1 [d1, d3], s2 [d2, d4]; s3 starts at d3.
    assert ids(ds.filter_datetime((start + day, start + day * 2))) == ["s0", "s1", "s2"]
    # The s0 footprint centroid, by pyproj: a tiny box around it selects s0 only.
    t = pyproj.Transformer.from_crs("EPSG:32633", "EPSG:4326", always_xy=True)
    lon, lat = t.transform(500000 + 100 * 10, 4500000 - 50 * 10)
    assert ids(ds.filter_bbox(lon - 1e-6, lat - 1e-6, lon + 1e-6, lat + 1e-6)) == ["s0"]
    # ISTAC: the footprint (not the centroid) is what filter_bbox tests.
    g = tacocore.load(str(istac_pair[0]))
    lon, lat = t.transform(500100, 4500100)  # inside g0, far from its centroid
    assert ids(g.filter_bbox(lon - 1e-7, lat - 1e-7, lon + 1e-7, lat + 1e-7)) == ["g0"]


def test_centroids_against_shapely_and_pyproj():
    geom = Polygon([(500000, 4500000), (520000, 4500000), (510000, 4530000), (500000, 4500000)])
    s = tacocore.Sample(id="tri", path=b"x")
    s.extend_with(ISTAC(crs="EPSG:32633", geometry=geom.wkb, time_start=0))
    c = geom.centroid
    lon, lat = pyproj.Transformer.from_crs("EPSG:32633", "EPSG:4326", always_xy=True).transform(c.x, c.y)
    assert point(s["istac:centroid"]) == pytest.approx((lon, lat), abs=1e-9)
    # Across the antimeridian (geographic): the centroid sits at ±180, where the footprint is.
    across = Polygon([(170, -5), (-170, -5), (-170, 5), (170, 5)])
    s = tacocore.Sample(id="am", path=b"x")
    s.extend_with(ISTAC(crs="EPSG:4326", geometry=across, time_start=dt.datetime(2020, 1, 1)))
    x, y = point(s["istac:centroid"])
    assert abs(x) == pytest.approx(180.0) and y == pytest.approx(0.0, abs=1e-12)
    assert s["istac:time_start"] == dt.datetime(2020, 1, 1)
    # The same footprint shifted into one piece (170..190), as shapely sees it.
    shifted = Polygon([(170, -5), (190, -5), (190, 5), (170, 5)]).centroid
    assert (x + 360) % 360 == pytest.approx(shifted.x)


def test_taco_level_extensions_as_the_reference(pair):
    ref = collection(pair[1])
    bands = ref["optical:bands"]
    assert [b["name"] for b in bands] == ["B02", "B03", "B04", "B8A"]
    assert OpticalData(sensor="sentinel2msi[B02,B03,B04,B8A]").to_dict()["optical:bands"] == bands
    assert OpticalData(sensor="custom", bands=[SpectralBand(name="X", center_wavelength=500)]).to_dict() == {
        "optical:sensor": "custom", "optical:num_bands": 1,
        "optical:bands": [{"name": "X", "index": None, "common_name": None, "description": None, "unit": None,
                           "center_wavelength": 500.0, "full_width_half_max": None}]}
    for sensor in tacocore.taco.extensions.opticaldata.SUPPORTED_SENSORS:
        from tacotoolbox.taco.extensions.opticaldata import OpticalData as TOpticalData
        assert OpticalData(sensor=sensor).to_dict() == TOpticalData(sensor=sensor)(None).to_pylist()[0], sensor


def bad(match: str, fn):
    with pytest.raises(tacocore.TacoSchemaError) as e:
        fn()
    assert all(m in str(e.value) for m in match.split("|")), str(e.value)


def test_bad_input_names_the_sample_and_field():
    def on_sample(ext):
        return lambda: tacocore.Sample(id="tile_9", path=b"x").extend_with(ext)
    good = dict(crs="EPSG:32633", tensor_shape=(3, 10, 10), geotransform=(0, 10, 0, 0, 0, -10), time_start=0)
    bad("tile_9|stac:crs|EPSG:999999", on_sample(STAC(**{**good, "crs": "EPSG:999999"})))
    bad("tile_9|stac:geotransform|got 5", on_sample(STAC(**{**good, "geotransform": (0, 10, 0, 0, 0)})))
    bad("tile_9|stac:tensor_shape|-10", on_sample(STAC(**{**good, "tensor_shape": (3, -10, 10)})))
    bad("tile_9|stac:time_end|before time_start", on_sample(STAC(**{**good, "time_start": 10, "time_end": 5})))
    bad("tile_9|istac:geometry|not WKB",
        on_sample(ISTAC(crs="EPSG:4326", geometry=b"POLYGON((0 0,1 0,1 1,0 0))", time_start=0)))
    bad("tile_9|istac:crs", on_sample(ISTAC(crs="no such crs", geometry=box(0, 0, 1, 1).wkb, time_start=0)))
    bad("tile_9|istac:time_end", on_sample(ISTAC(crs="EPSG:4326", geometry=box(0, 0, 1, 1).wkb, time_start=3,
                                                  time_end=2)))
    bad("tile_9|scaling:scale_factor", on_sample(Scaling(scale_factor=0.0)))
    bad("tile_9|scaling:padding|4 integers", on_sample(Scaling(padding=[1, 2])))
    bad("tile_9|split|'dev'", on_sample(Split(split="dev")))
    bad("STAC|stac:time_start", lambda: STAC(**{**good, "time_start": "yesterday"}))
    bad("SplitStrategy|'sometimes'", lambda: SplitStrategy(strategy="sometimes"))
    bad("unsupported sensor", lambda: OpticalData(sensor="hubble"))
    bad("B99", lambda: OpticalData(sensor="sentinel2msi[B02,B99]"))
    bad("share the name", lambda: Labels(label_classes=[LabelClass(name="a", category=0),
                                                        LabelClass(name="a", category=1)]))
    bad("doi", lambda: Publications(publications=[Publication(doi="", citation="c")]))
    # The sample is left without half the columns.
    s = tacocore.Sample(id="tile_9", path=b"x")
    with pytest.raises(tacocore.TacoSchemaError):
        s.extend_with(STAC(**{**good, "crs": "EPSG:999999"}))
    assert s.metadata == {}
