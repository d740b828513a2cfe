"""A sql() view answers as tacoreader 2.4.21's sql() result (a table of the backend) wherever a
name could be either: each test runs the same calls on tacoreader's table and on tacocore's view.

Before: the view's own sort/limit/count/flatten and its metadata properties (id, format, path)
won, so polars `r.sort(...)` came back unsorted, `len(r.limit(2))` was the whole result, pandas
`r.id` was the dataset id instead of the column, np.asarray(r) gave the column names and `r * 2`
raised TypeError.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import tacocore
import tacoreader  # the reference reader; make setup installs it

QUERY = 'SELECT "l1:id" AS id, "l0:id" AS path, \'x\' AS format FROM l1 ORDER BY "l0:id", "l1:id"'


@pytest.fixture
def nested(fixture_paths):
    return fixture_paths["reader-zip-nested"]


def both(path, backend, query=QUERY):
    return (tacoreader.load(path, backend=backend).sql(query),
            tacocore.load(path, backend=backend).sql(query))


def rows(table) -> list:
    """The rows of any backend's table, for comparing."""
    if hasattr(table, "to_pylist"):
        return table.to_pylist()
    if hasattr(table, "to_dicts"):
        return table.to_dicts()
    return table.to_dict("records")


def test_polars_sort_limit_and_count_are_the_tables(nested):
    ref, got = both(nested, "polars")
    assert rows(got.sort("id", descending=True)) == rows(ref.sort("id", descending=True))
    assert rows(got.sort("id"))[0]["id"] == "item_0"
    assert len(got.limit(2)) == len(ref.limit(2)) == 2
    assert rows(got.count()) == rows(ref.count())
    # the specification's chain is still the view's
    assert isinstance(got.sql("SELECT * FROM data WHERE id = 'item_1'"), tacocore.TacoDataset)
    assert len(got.sql("SELECT * FROM data WHERE id = 'item_1'")) == 3


def test_pandas_columns_named_like_view_attributes_are_the_columns(nested):
    ref, got = both(nested, "pandas")
    for name in ("id", "path", "format"):
        assert list(getattr(got, name)) == list(getattr(ref, name)), name
    assert rows(got.count().to_frame()) == rows(ref.count().to_frame())
    # a name without such a column stays the view's
    assert got.description == tacocore.load(nested).description
    assert got.pit_schema.root["n"] == 9 and len(got) == 9


def test_pyarrow_keeps_the_views_names_the_table_lacks(nested):
    ref, got = both(nested, "pyarrow")
    assert got.id == tacocore.load(nested).id  # pa.Table has no .id: the dataset's
    assert got.count() == ref.num_rows == 9
    assert got.to_pandas().equals(ref.to_pandas())


@pytest.mark.parametrize("backend", ["pyarrow", "pandas", "polars"])
def test_numpy_sees_the_table(nested, backend):
    ref, got = both(nested, backend)
    assert np.asarray(got).tolist() == np.asarray(ref).tolist()
    assert np.asarray(got).shape == (9, 3)


@pytest.mark.parametrize("backend", ["pandas", "polars"])
def test_arithmetic_and_ordering_are_the_tables(nested, backend):
    query = 'SELECT "internal:offset" AS o, "internal:size" AS s FROM level1 ORDER BY 1'
    ref, got = both(nested, backend, query)
    ops = [lambda t: t * 2, lambda t: 1 + t, lambda t: t - 1, lambda t: t % 7, lambda t: t // 3]
    if backend == "pandas":
        ops += [lambda t: -t, lambda t: abs(t)]
    for op in ops:
        assert rows(op(got)) == rows(op(ref))
    assert rows(got > 100) == rows(ref > 100)
    assert got == got and len({got}) == 1  # equality stays identity: views stay hashable


def test_a_filter_view_stays_a_dataset(nested):
    """filter_* return datasets in tacoreader too: their sort/limit/flatten are the dataset's."""
    ds = tacocore.load(nested, backend="polars").filter_datetime("2020-01-01/2030-01-01")
    assert ds.sort("l1:id", descending=True).limit(1).flatten()["l1:id"].to_list() == ["item_2"]


def test_a_pickled_sql_view_is_still_a_sql_view(nested):
    view = tacocore.load(nested, backend="polars").sql(QUERY)
    again = pickle.loads(pickle.dumps(view))
    assert rows(again.sort("id", descending=True)) == rows(view.sort("id", descending=True))
    assert rows(again.limit(1)) == rows(view.to_native().limit(1))


def test_internal_reads_of_a_view_ignore_shadowing_columns(nested):
    view = tacocore.load(nested, backend="pandas").sql(QUERY)
    assert repr(view) == repr(view.to_native())
    assert tacocore.load(nested, backend="pandas").sql("SELECT nope FROM data").__repr__().startswith(
        "<TacoDataset 'test_dataset'>")
    view.close()
    with pytest.raises(tacocore.TacoQueryError, match="is closed"):
        view.to_native()
