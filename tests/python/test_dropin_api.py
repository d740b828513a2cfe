"""The tacoreader 2.4 surface on tacocore, where tacocore goes further than the reference or where
the side-by-side script (test_dropin.py) cannot look: flat views and flatten() following a
filtered view, pit_schema counts of a view, navigation from derived and from_arrow frames,
backends per dataset and per thread, worker processes (fork and spawn), PITSchema validation,
verbose() with the logging module, clear_cache(), close(), repr and _repr_html_.
"""

from __future__ import annotations

import logging
import multiprocessing
import pickle
import threading

import pyarrow as pa
import pytest

import tacocore


@pytest.fixture()
def nested(fixture_paths):
    return fixture_paths["reader-zip-nested"]


@pytest.fixture(autouse=True)
def default_backend():
    yield
    tacocore.use("pyarrow")


# --- flat views and flatten follow the current view ------------------------------------------------

def test_flat_views_prefix_every_column_and_join_along_parents(nested):
    ds = tacocore.load(nested)
    l1 = ds.sql('SELECT * FROM l1').data_raw.to_arrow()
    assert l1.num_rows == 9
    assert l1.column_names[:2] == ["l1:id", "l1:type"]
    assert "internal:current_id" not in " ".join(l1.column_names)
    assert l1.column_names.index("l1:internal:gdal_vsi") < l1.column_names.index("l0:id")
    pairs = ds.sql('SELECT "l0:id" AS p, "l1:id" AS c FROM l1').data.to_arrow().to_pylist()
    assert {(r["p"], r["c"]) for r in pairs} == {(p, f"item_{i}") for p in ("europe", "americas", "asia")
                                                 for i in range(3)}


def test_flat_views_follow_a_filter(nested):
    europe = tacocore.load(nested).sql("SELECT * FROM data WHERE id = 'europe'")
    rows = europe.sql('SELECT "l0:id", "l1:id" FROM l1').data.to_arrow().to_pylist()
    assert [r["l0:id"] for r in rows] == ["europe"] * 3
    # chained once more, and through flatten()
    deeper = europe.sql("SELECT * FROM data WHERE true")
    assert deeper.sql("SELECT count(*) AS n FROM l1").data.to_arrow()["n"].to_pylist() == [3]
    flat = europe.flatten()
    assert flat.num_rows == 3 and set(flat["l0:id"].to_pylist()) == {"europe"}
    assert flat.column_names[-1] == "gdal_vsi"
    assert not any(":internal:" in c for c in flat.column_names)
    # the unfiltered dataset still sees everything
    assert tacocore.load(nested).flatten().num_rows == 9


def test_flatten_levels_sort_and_limit(nested):
    ds = tacocore.load(nested)
    assert ds.flatten(level=0).num_rows == 0  # level 0 holds FOLDERs only
    assert ds.sort("l0:id").limit(4).flatten()["l0:id"].to_pylist() == ["americas"] * 3 + ["asia"]
    assert ds.sort("l1:id", descending=True).limit(1).flatten()["l1:id"].to_pylist() == ["item_2"]
    with pytest.raises(tacocore.TacoQueryError, match="Level 5 does not exist"):
        ds.flatten(level=5)
    with pytest.raises(TypeError, match="level must be an integer"):  # said "Level 0 does not exist"
        ds.flatten(level="0")
    # sort(None) drops the order, as tacoreader's does (it was a TypeError)
    fresh = tacocore.load(nested).sort("l1:id", descending=True).sort(None)
    assert fresh.flatten()["l1:id"].to_pylist()[:2] == ["item_0", "item_1"]
    with pytest.raises(TypeError, match=r"a list of TacoDataset objects, not one TacoDataset: concat\(\[a, b\]\)"):
        tacocore.concat(ds)  # named a ChunkedArray: iterating a dataset gives its table's columns
    with pytest.raises(tacocore.TacoQueryError):
        ds.limit(-1)


def test_sql_result_answers_as_a_table(nested):
    """tacoreader 2.4.21's sql() returns a table: the lazy view answers the same calls."""
    view = tacocore.load(nested).sql('SELECT "l1:id" FROM l1 ORDER BY "l1:id"')
    assert isinstance(view, tacocore.TacoDataset)
    assert len(view) == 9 and view.num_rows == 9
    assert view["l1:id"].to_pylist()[:2] == ["item_0", "item_0"]
    assert view.column_names == ["l1:id"]
    assert pa.table(view).num_rows == 9
    assert bool(tacocore.load(nested).sql("SELECT * FROM data WHERE false"))
    with pytest.raises(AttributeError, match="no attribute 'not_a_method'"):
        view.not_a_method
    polars = tacocore.load(nested, backend="polars").sql("SELECT id FROM data")
    assert polars.to_native().to_dicts()[0] == {"id": "europe"}
    pandas = tacocore.load(nested, backend="pandas").sql("SELECT id, type FROM data")
    assert list(pandas) == ["id", "type"] and "type" in pandas
    assert [row.id for row in pandas.itertuples()] == ["europe", "americas", "asia"]


def test_pit_schema_counts_follow_the_view(nested):
    ds = tacocore.load(nested)
    assert ds.pit_schema.root["n"] == 3 and ds.pit_schema.hierarchy["1"][0]["n"] == 9
    one = ds.sql("SELECT * FROM data WHERE id = 'asia'").pit_schema
    assert one.root["n"] == 1 and one.hierarchy["1"][0]["n"] == 3
    none = ds.sql("SELECT * FROM data WHERE false").pit_schema
    assert none.root["n"] == 0 and none.hierarchy["1"][0]["n"] == 0
    assert none.is_compatible(ds.pit_schema)


# --- backends ---------------------------------------------------------------------------------------

def test_use_get_backend_and_load_backend(nested):
    assert tacocore.get_backend() == "pyarrow"
    tacocore.use("pandas")
    assert tacocore.get_backend() == "pandas"
    pandas_ds = tacocore.load(nested)
    assert isinstance(pandas_ds.data, tacocore.TacoDataFramePandas)
    assert isinstance(tacocore.load(nested, backend="polars").data, tacocore.TacoDataFramePolars)
    tacocore.use("pyarrow")
    assert isinstance(pandas_ds.data, tacocore.TacoDataFramePandas)  # kept its backend
    with pytest.raises(tacocore.TacoBackendError, match="Unknown backend: 'spark'"):
        tacocore.use("spark")
    with pytest.raises(tacocore.TacoBackendError):
        tacocore.load(nested, backend="spark")
    assert tacocore.get_backend() == "pyarrow"


def test_backend_of_a_dataset_is_not_changed_by_another_thread(nested):
    ds = tacocore.load(nested, backend="pyarrow")
    threads = [threading.Thread(target=tacocore.use, args=(b,)) for b in ("pandas", "polars")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert isinstance(ds.data, tacocore.TacoDataFrameArrow)


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_every_backend_keeps_navigation_and_conversions(nested, backend):
    df = tacocore.load(nested, backend=backend).data
    assert len(df) == 3 and df.shape == (3, len(df.columns))
    children = df.read("asia")
    assert type(children) is type(df) and children.level == 1
    assert children.read_bytes(0) == tacocore.load(nested).data.read("asia").read_bytes(0)
    assert df.to_arrow().num_rows == 3
    assert len(df.to_pandas()) == 3 and len(df.to_polars()) == 3
    assert "backend=" + backend in repr(df)
    assert "TacoDataFrame: 3 rows" in df._repr_html_()


def test_derived_frames_navigate_by_their_own_rows(nested):
    import polars as pl

    reference = tacocore.load(nested).data.read("asia")
    pdf = tacocore.load(nested, backend="pandas").data
    only_asia = pdf[pdf["id"] == "asia"]
    assert isinstance(only_asia, tacocore.TacoDataFramePandas) and len(only_asia) == 1
    assert only_asia.read(0).to_arrow() == reference.to_arrow()
    assert pdf.sort_values("id").read(1).read_bytes(2) == reference.read_bytes(2)  # americas, asia, europe
    pldf = tacocore.load(nested, backend="polars").data
    assert pldf.filter(pl.col("id") == "asia").read(0).to_arrow() == reference.to_arrow()
    assert pldf.sort("id", descending=True).read("asia").read_bytes("item_1") == reference.read_bytes("item_1")
    with pytest.raises(tacocore.TacoNavigationError, match="Position 1 out of range"):
        only_asia.read(1)


def test_protected_columns_refuse_edits(nested):
    pdf = tacocore.load(nested, backend="pandas").data
    for column in ("id", "type", "internal:gdal_vsi", "internal:anything"):
        with pytest.raises(ValueError, match="Cannot modify protected column"):
            pdf[column] = "x"
    with pytest.raises(ValueError, match="protected"):
        pdf.assign(type="FILE")
    pdf["score"] = [1, 2, 3]
    assert pdf.columns[-1] == "score"
    assert isinstance(pdf.read(0), tacocore.TacoDataFrame)  # still navigates after the edit
    pldf = tacocore.load(nested, backend="polars").data
    with pytest.raises(ValueError, match="Cannot modify protected column"):
        pldf["id"] = ["a", "b", "c"]
    # polars with_columns replaces id by keyword as by expression, as tacoreader's does (it was
    # refused by keyword only): the derived frame reads by the new ids.
    import polars as pl
    import tacoreader
    for frame in (pldf, tacoreader.load(nested, backend="polars").data):
        renamed = frame.with_columns(id=pl.Series(["x", "y", "z"]))
        assert len(renamed.read("y")) == len(frame.read(1))
    assert pldf.with_columns(id=pl.Series(["x", "y", "z"])).read("z").to_arrow() == pldf.read(2).to_arrow()


@pytest.mark.parametrize("fixture", ["reader-zip-nested", "reader-folder-nested"])
def test_from_arrow_navigates_without_the_native_core(fixture_paths, fixture):
    ds = tacocore.load(fixture_paths[fixture])
    native = ds.data
    frame = tacocore.TacoDataFrame.from_arrow(native.to_arrow(), ds.format)
    assert isinstance(frame, tacocore.TacoDataFrameArrow)
    for key in (0, "asia"):
        theirs, ours = frame.read(key), native.read(key)
        assert theirs.to_arrow()["id"].to_pylist() == ours.to_arrow()["id"].to_pylist()
        assert theirs.to_arrow()["internal:gdal_vsi"].to_pylist() == ours.to_arrow()["internal:gdal_vsi"].to_pylist()
        assert theirs.read_bytes(1) == ours.read_bytes(1)
    pandas_frame = tacocore.TacoDataFramePandas.from_arrow(native.to_arrow(), ds.format)
    assert isinstance(pandas_frame.read("europe"), tacocore.TacoDataFramePandas)


# --- worker processes ---------------------------------------------------------------------------

def _worker_read(args):
    ds, key = args
    df = ds.data
    return type(df).__name__, len(df), df.read(key).read_bytes(0)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_worker_process_gets_a_working_handle(nested, method):
    ds = tacocore.load(nested, backend="polars").sql("SELECT * FROM data WHERE id <> 'americas'")
    expected = [("TacoDataFramePolars", 2, ds.data.read(k).read_bytes(0)) for k in ("europe", "asia")]
    with multiprocessing.get_context(method).Pool(2) as pool:
        assert pool.map(_worker_read, [(ds, "europe"), (ds, "asia")]) == expected


def test_pickle_keeps_view_backend_and_sort(nested, fixture_paths):
    ds = tacocore.load(nested, backend="pandas").sql("SELECT * FROM data WHERE id = 'asia'").sort("l1:id", True)
    again = pickle.loads(pickle.dumps(ds))
    assert again.backend == "pandas" and len(again) == 1  # count() is pandas' on a sql() view
    assert again.flatten()["l1:id"].tolist() == ["item_2", "item_1", "item_0"]
    both = tacocore.concat([tacocore.load(fixture_paths["toolbox-zip-nested_a"]),
                            tacocore.load(fixture_paths["toolbox-zip-nested_b"])])
    assert len(pickle.loads(pickle.dumps(both)).data) == 4


# --- PITSchema ---------------------------------------------------------------------------------------

GOOD = {"root": {"n": 3, "type": "FOLDER"},
        "hierarchy": {"1": [{"n": 9, "type": ["FILE", "FILE", "FILE"], "id": ["r", "g", "b"]}]}}


@pytest.mark.parametrize("doc, message", [
    ({"root": {"n": 1, "type": "BLOB"}, "hierarchy": {}}, "Invalid root type"),
    ({"root": {"n": -1, "type": "FILE"}, "hierarchy": {}}, "invalid count"),
    ({"root": {"n": 1.5, "type": "FILE"}, "hierarchy": {}}, "invalid count"),
    ({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {"x": []}}, "Invalid depth key"),
    ({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {"1": [{"n": 1, "type": ["FILE"]}]}}, "missing required field"),
    ({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {"1": [{"n": 1, "type": [], "id": []}]}}, "type array empty"),
    ({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {"1": [{"n": 1, "type": ["FILE"], "id": ["a", "b"]}]}},
     "type and id arrays differ"),
    ({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {"1": [{"n": -2, "type": ["FILE"], "id": ["a"]}]}},
     "invalid count"),
    ({"root": {"n": 1, "type": "FOLDER"}}, "missing required key 'hierarchy'"),
    ("not a dict", "must be a dict"),
])
def test_pit_schema_rejects_bad_input(doc, message):
    with pytest.raises(tacocore.TacoSchemaError, match=message):
        tacocore.PITSchema(doc)


def test_pit_schema_methods():
    schema = tacocore.PITSchema(GOOD)
    assert schema.max_depth() == 1 and tacocore.PITSchema({"root": {"n": 1, "type": "FILE"},
                                                           "hierarchy": {}}).max_depth() == 0
    other = schema.with_n(7)
    assert other.root["n"] == 7 and schema.root["n"] == 3
    assert schema.is_compatible(other)
    changed = dict(GOOD, hierarchy={"1": [dict(GOOD["hierarchy"]["1"][0], id=["r", "g", "x"])]})
    assert not schema.is_compatible(tacocore.PITSchema(changed))
    assert schema.to_dict() == GOOD and schema.to_dict() is not GOOD
    assert repr(schema) == "PITSchema(root=FOLDER, max_depth=1)"
    from tacocore.schema import PITSchema

    assert PITSchema is tacocore.PITSchema


# --- errors, logging, caches, lifetime, display ----------------------------------------------------

def test_exceptions_keep_the_reference_layout_and_words(tmp_path, fixture_paths):
    from tacocore import _exceptions

    for name in _exceptions.__all__:
        assert getattr(_exceptions, name) is getattr(tacocore, name)
    assert issubclass(tacocore.TacoBackendError, tacocore.TacoError)
    legacy = tmp_path / "old.tortilla"
    legacy.write_bytes(b"#y" + bytes(100))
    # v1 files are read now (tests/legacy); a damaged one is a format error naming it.
    with pytest.raises(tacocore.TacoFormatError, match="old.tortilla: truncated: a legacy v1"):
        tacocore.load(legacy)
    zip_ds = tacocore.load(fixture_paths["reader-zip-flat"])
    folder_ds = tacocore.load(fixture_paths["reader-folder-flat"])
    with pytest.raises(tacocore.TacoSchemaError, match="different formats") as err:
        tacocore.concat([zip_ds, folder_ds])
    assert "cannot mix containers" in str(err.value)  # our own detail stays


def test_verbose_uses_the_logging_module(nested, caplog):
    logger = logging.getLogger("tacocore")
    try:
        tacocore.verbose("debug")
        assert logger.level == logging.DEBUG and not logger.propagate
        records = []
        handler = logging.Handler()
        handler.emit = records.append
        logger.addHandler(handler)
        tacocore.load(nested).sql("SELECT 1")
        logger.removeHandler(handler)
        assert any("sql: SELECT 1" in r.getMessage() for r in records)
        assert any(r.levelno == logging.INFO and r.getMessage().startswith("loaded '") for r in records)
        tacocore.verbose(False)
        assert not logger.isEnabledFor(logging.CRITICAL)
        with pytest.raises(ValueError, match="Invalid verbose level"):
            tacocore.verbose("loud")
    finally:
        logger.setLevel(logging.NOTSET)
        logger.propagate = True
        for h in [h for h in logger.handlers if getattr(h, "_tacocore_verbose", False)]:
            logger.removeHandler(h)


def test_tacotoolbox_logging_switches(nested):
    """tacotoolbox's setup_basic_logging(level, fmt) and disable_logging() drive the same logger."""
    logger = logging.getLogger("tacocore")
    try:
        tacocore.setup_basic_logging(logging.DEBUG, fmt="X %(message)s")
        assert logger.isEnabledFor(logging.DEBUG) and not logger.propagate
        ours = [h for h in logger.handlers if getattr(h, "_tacocore_verbose", False)]
        assert len(ours) == 1 and ours[0].formatter._fmt == "X %(message)s"
        tacocore.disable_logging()
        assert not logger.isEnabledFor(logging.CRITICAL)
    finally:
        logger.setLevel(logging.NOTSET)
        logger.propagate = True
        for h in [h for h in logger.handlers if getattr(h, "_tacocore_verbose", False)]:
            logger.removeHandler(h)


def test_clear_cache_drops_cached_results(nested):
    view = tacocore.load(nested).sql("SELECT id FROM data")
    first = view.to_native()
    assert view.to_native() is first
    tacocore.clear_cache()
    assert view.to_native() is not first and view.to_native().equals(first)


def test_close_and_context_manager(nested):
    with tacocore.load(nested) as ds:
        assert len(ds.data) == 3
    with pytest.raises(tacocore.TacoQueryError, match="closed"):
        ds.data
    ds.close()  # twice is fine


def test_repr_and_html(fixture_paths):
    ds = tacocore.load(fixture_paths["reader-zip-nested"])
    text = repr(ds)
    assert text.startswith(f"<TacoDataset '{ds.id}'>")
    assert "└── Level 0: 3 rows (RSUT: True)" in text
    temporal = [line for line in text.splitlines() if "Temporal Extent" in line]
    assert temporal and "T" not in temporal[0].split(":", 1)[1]  # "2023-01-01 → ...", no ISO 'T'
    page = ds._repr_html_()
    assert "<svg" in page and "&lt;TacoDataset&gt;" in page
    for child in ("item_0", "item_1", "item_2"):
        assert child in page
    assert "(3 samples, 2 levels)" in page


def test_rsut_check(nested, fixture_paths, make_taco, tmp_path):
    assert tacocore.load(nested).is_rsut() is True
    assert tacocore.load(fixture_paths["reader-zip-flat"]).verify_rsut() is True
    # A FOLDER dataset whose roots have different children, as foreign writers may produce:
    # tacocore's writer refuses it, so the level-1 table is edited into the FOLDER copy.
    import shutil

    import pyarrow.parquet as pq

    copy = tmp_path / "nested"
    shutil.copytree(fixture_paths["reader-folder-nested"], copy)
    level1 = copy / "METADATA" / "level1.parquet"
    table = pq.read_table(level1)
    ids = table["id"].to_pylist()
    ids[0] = "renamed"
    pq.write_table(table.set_column(table.column_names.index("id"), "id", pa.array(ids)), level1)
    ds = tacocore.load(copy)
    assert ds.is_rsut() is False and "(RSUT: False)" in repr(ds)
    assert ds.sql("SELECT * FROM data WHERE id <> 'europe'").verify_rsut() is True


def test_a_missing_path_is_caught_as_the_reference_raises_it(tmp_path):
    """tacoreader: TacoIOError for a missing .tacozip, TacoFormatError for a missing directory."""
    for missing in (tmp_path / "x.tacozip", tmp_path / "x"):
        for cls in (tacocore.TacoIOError, tacocore.TacoFormatError, tacocore.TacoPathNotFoundError):
            with pytest.raises(cls, match="no such file"):
                tacocore.load(missing)
    (tmp_path / "empty").mkdir()
    with pytest.raises(tacocore.TacoFormatError, match="COLLECTION.json not found") as err:
        tacocore.load(tmp_path / "empty")
    assert not isinstance(err.value, tacocore.TacoIOError)


def test_long_work_shows_a_tqdm_bar_only_when_verbose(fixture_paths, capsys):
    pair = [fixture_paths["toolbox-zip-nested_a"], fixture_paths["toolbox-zip-nested_b"]]
    tacocore.load(pair)
    assert capsys.readouterr().err == ""  # quiet by default
    logger = logging.getLogger("tacocore")
    try:
        tacocore.verbose(True)
        assert len(tacocore.load(pair).data) == 4
        assert "load: 100%" in capsys.readouterr().err
    finally:
        logger.setLevel(logging.NOTSET)
        logger.propagate = True
        for h in [h for h in logger.handlers if getattr(h, "_tacocore_verbose", False)]:
            logger.removeHandler(h)


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_a_frame_pickles_and_still_navigates(nested, backend):
    df = tacocore.load(nested, backend=backend).data
    again = pickle.loads(pickle.dumps(df))
    assert type(again) is type(df) and again.columns == df.columns and len(again) == 3
    assert again.read("asia").read_bytes("item_2") == df.read("asia").read_bytes("item_2")
    child = pickle.loads(pickle.dumps(df.read("europe")))
    assert child.level == 1 and child.read(0) == df.read("europe").read(0)


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_a_sql_view_prints_as_its_table(nested, backend):
    ds = tacocore.load(nested, backend=backend)
    view = ds.sql('SELECT "l0:id", "l1:id" FROM l1 ORDER BY 1, 2')
    assert repr(view) == repr(view.to_native())
    assert repr(ds).startswith("<TacoDataset")  # a loaded dataset shows its tree
    broken = ds.sql("SELECT nope FROM data")
    assert repr(broken).startswith("<TacoDataset") and "the view's query fails" in repr(broken)
    assert "<svg" in broken._repr_html_()
    if backend != "pyarrow":
        assert view._repr_html_() == view.to_native()._repr_html_()
    else:
        assert "<svg" in view._repr_html_()


def test_load_takes_tacoreaders_parameters_in_its_order(nested):
    ds = tacocore.load(nested, None, "polars", False)  # path, base_path, backend, cache
    assert isinstance(ds.data, tacocore.TacoDataFramePolars)
    assert len(tacocore.load([nested], cache=False).data) == 3
    # Deliberate difference (user guide, "Coming from tacoreader"): tacoreader ignores base_path
    # for a ZIP or FOLDER; tacocore says it cannot apply.
    with pytest.raises(tacocore.TacoFormatError, match="base_path applies to"):
        tacocore.load([nested], base_path="/elsewhere")


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_threads_share_a_dataset_and_a_frame(nested, backend):
    from concurrent.futures import ThreadPoolExecutor

    ds = tacocore.load(nested, backend=backend)
    df = ds.data
    derived = df[df["id"] != "americas"] if backend == "pandas" else df

    def work(i):
        key = ("europe", "americas", "asia")[i % 3]
        view = ds.sql(f"SELECT * FROM data WHERE id = '{key}'")
        return (len(view), len(view.flatten()), df.read(key).read_bytes(i % 3),
                derived.read("asia").read_bytes(0))

    expected = [work(i) for i in range(24)]
    with ThreadPoolExecutor(8) as pool:
        assert list(pool.map(work, range(24))) == expected


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_navigation_errors_use_the_reference_words(nested, backend):
    df = tacocore.load(nested, backend=backend).data
    derived = df[df["id"] != "x"] if backend == "pandas" else df
    for frame in (df, derived):
        with pytest.raises(tacocore.TacoNavigationError, match=r"Position 3 out of range \[0, 2\]"):
            frame.read(3)
        with pytest.raises(tacocore.TacoNavigationError, match=r"Position -1 out of range \[0, 2\]"):
            frame.read(-1)
        with pytest.raises(tacocore.TacoNavigationError, match="ID 'nope' not found"):
            frame.read("nope")


def test_a_selection_without_the_path_column_still_navigates(nested):
    pdf = tacocore.load(nested, backend="pandas").data
    only_ids = pdf[["id", "type"]]
    assert only_ids.read("asia").to_arrow() == pdf.read("asia").to_arrow()
