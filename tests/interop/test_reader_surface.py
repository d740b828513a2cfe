"""tacoreader 2.4.21's public module layout under tacocore's name: a script that imports from
`tacoreader.dataset`, `tacoreader.dataframe.pandas`, `tacoreader.schema`, `tacoreader.v1` ... works
with `tacocore.` in their place. Walks every public tacoreader module and fails on a name it
defines that tacocore lacks, unless listed below with the reason."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import tacocore

import tacoreader  # the reference reader; make setup installs it (scripts/python-requirements.txt)

FLAT = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "reference" / "tacoreader" / "folder" / "flat"

# tacoreader's own machinery, public by name only: tacocore's core does this work natively.
NOT_PROVIDED_MODULES = {
    "tacoreader.storage": "its storage backends over fsspec/obstore; tacocore's core reads the containers",
    "tacoreader.sql": "execute_sql/execute_flatten over its DuckDB connection; ds.sql() and ds.flatten() are the API",
    "tacoreader.nav.filters": "the SQL builders behind apply_*_filter; tacocore.nav has the two functions",
}
NOT_PROVIDED_NAMES = {
    "BackendFactory": "tacoreader's frame factory over its DuckDB connection",
    "register_backend": "same: tacocore's frames come from load() and TacoDataFrame.from_arrow",
    "create_dataframe": "same",
    "DatasetOrigin": "tacoreader's internal state of a dataset",
    "QueryState": "same",
    "TacoPath": "tacoreader's internal path parser",
    "get_logger": "tacoreader's logger factory; tacocore logs to logging.getLogger('tacocore')",
    "is_legacy_format": "tacocore.is_legacy_v1 (v1 files load in tacocore instead of failing)",
    "raise_legacy_error": "same",
    # tacoreader.v1's private helpers, public by module name only
    "parallel_compile": "tacoreader.v1.compile's helper",
    "tortilla_message": "same (random progress-bar texts)",
    "transform_from_gdal_vfs": "tacoreader.v1's path helper",
    "transform_to_gdal_vfs": "same",
    "load_tacofoundation_datasets": "tacoreader.v1's catalog fetch; tacocore.v1.load('tacofoundation:NAME') works",
    "file2metadata": "tacoreader.v1.load_metadata's helpers",
    "files2metadata": "same",
    "process_entry": "tacoreader.v1.sanity_check's helpers",
    "sanity_check_batch": "same",
    "sort_columns_add_geometry": "tacoreader.v1.TortillaDataFrame's helpers",
    "parse_wkt_bulk": "same",
    "partial_load_file": "same",
}


def public_modules():
    import tacoreader.v1  # noqa: F401  (not imported by tacoreader itself)

    names = ["tacoreader"] + [m.name for m in pkgutil.walk_packages(tacoreader.__path__, "tacoreader.")]
    return [n for n in names if not any(p.startswith("_") for p in n.split(".")[1:])]


def test_every_public_tacoreader_module_has_its_twin():
    missing = []
    for name in public_modules():
        if any(name == m or name.startswith(m + ".") for m in NOT_PROVIDED_MODULES):
            continue
        ref = importlib.import_module(name)
        twin_name = "tacocore" + name[len("tacoreader"):]
        if twin_name.startswith("tacocore.v1."):  # tacoreader.v1's files; its names are in tacocore.v1
            twin_name = "tacocore.v1"
        try:
            twin = importlib.import_module(twin_name)
        except ImportError as exc:
            missing.append(f"{twin_name}: {exc}")
            continue
        for attr in getattr(ref, "__all__", None) or [a for a in dir(ref) if not a.startswith("_")]:
            obj = getattr(ref, attr, None)
            if inspect.ismodule(obj) or not (getattr(obj, "__module__", "") or "").startswith("tacoreader"):
                continue
            if attr not in NOT_PROVIDED_NAMES and not hasattr(twin, attr):
                missing.append(f"{twin_name}.{attr}")
    assert not missing, missing


def test_the_twins_are_the_working_objects():
    import tacocore.dataframe.pandas
    import tacocore.dataset
    import tacocore.loader
    from tacocore.concat import concat

    assert concat is tacocore.concat and callable(tacocore.concat)
    assert tacocore.dataset.TacoDataset is tacocore.TacoDataset
    assert tacocore.loader.load is tacocore.load
    assert tacocore.dataframe.pandas.TacoDataFramePandas is tacocore.TacoDataFramePandas
    assert tacocore.DEFAULT_DATAFRAME_BACKEND == tacoreader.DEFAULT_DATAFRAME_BACKEND
    assert tacocore.DataFrameBackend == tacoreader.DataFrameBackend
    assert set(tacocore.dataframe.get_available_backends()) == set(tacoreader.dataframe.get_available_backends())
    from tacocore.schema import VALID_SAMPLE_TYPES, PITSchemaDict

    assert VALID_SAMPLE_TYPES == tacoreader.schema.VALID_SAMPLE_TYPES
    assert PITSchemaDict.__annotations__.keys() == tacoreader.schema.PITSchemaDict.__annotations__.keys()


def test_nav_functions_filter_as_tacoreaders(duckdb_spatial_offline):
    from tacoreader.nav import apply_bbox_filter as ref_bbox
    from tacoreader.nav import apply_datetime_filter as ref_time

    from tacocore.nav import apply_bbox_filter, apply_datetime_filter

    ours, ref = tacocore.load(str(FLAT)), tacoreader.load(str(FLAT))
    for box in [(-180, -90, 180, 90), (0, 0, 1, 1), (-10, 35, 5, 45)]:
        a = ref_bbox(ref, *box, geometry_col="auto", level=0).data
        b = apply_bbox_filter(ours, *box)
        assert sorted(b.data.to_arrow()["id"].to_pylist()) == sorted(list(a.to_arrow()["id"].to_pylist()))
    for rng in ["2020-01-01/2030-01-01", "1990-01-01/1991-01-01", "2023-01-15/2023-03-15"]:
        a = ref_time(ref, rng, time_col="auto", level=0).data
        b = apply_datetime_filter(ours, rng)
        assert sorted(b.data.to_arrow()["id"].to_pylist()) == sorted(list(a.to_arrow()["id"].to_pylist()))
