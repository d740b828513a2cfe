"""What ``TacoDataset.sql()`` returns: the specification's lazy, chainable view that also answers
as tacoreader 2.4.21's ``sql()`` result, a table of the dataset's backend.

A plain :class:`TacoDataset` hands a name it does not have to its table (``num_rows``,
``shape``...). That is not enough for a script written against tacoreader 2.4.21: some names
exist on both, and the dataset's meaning would silently win. Two examples:
- polars ``r.sort("x")`` would set the dataset's flatten order and return the rows unsorted;
- pandas ``r.id`` would give the dataset id instead of the ``id`` column.

On a sql() view the table therefore wins for every name it has. The exceptions are the
specification's chain (``sql``, ``filter_*``, ``data``, ``read``), the conversions, ``flatten``
and the lifetime methods: those stay the view's (:data:`VIEW_FIRST`). Internal code reads a
view's own fields through ``_native`` and the ``_``-named helpers, never through names a table
can take.
"""

from __future__ import annotations

import operator
from typing import Any, FrozenSet

from . import _core
from ._reader import TacoDataset

#: Names that stay the view's even where its table has them: the specification's chain, the
#: conversions (their table versions return the same rows), ``flatten`` (tacoreader 2.4's call on
#: a filtered dataset, more common than pyarrow's struct flattening) and the view's lifetime.
VIEW_FIRST: FrozenSet[str] = frozenset({
    "sql", "filter_bbox", "filter_datetime", "data", "data_raw", "read", "flatten", "export",
    "close", "interrupt", "to_native", "to_arrow", "to_pandas", "to_polars",
})

_TABLE_CLASS_NAMES: dict = {}


def _table_class_names(backend: str) -> FrozenSet[str]:
    """The attribute names of the backend's table type (its methods and properties), once."""
    names = _TABLE_CLASS_NAMES.get(backend)
    if names is None:
        if backend == "pandas":
            import pandas

            cls = pandas.DataFrame
        elif backend == "polars":
            import polars

            cls = polars.DataFrame
        else:
            import pyarrow

            cls = pyarrow.Table
        names = _TABLE_CLASS_NAMES[backend] = frozenset(n for n in dir(cls) if not n.startswith("_"))
    return names


class SqlView(TacoDataset):
    """A :class:`TacoDataset` made by ``sql()``: lazy and chainable, and wherever a name could be
    either, its result table's (module docstring)."""

    def __getattribute__(self, name: str) -> Any:
        if name[0] == "_" or name in VIEW_FIRST or name not in _VIEW_NAMES:
            return object.__getattribute__(self, name)
        backend = object.__getattribute__(self, "_backend")
        if name in _table_class_names(backend):
            return getattr(self.to_native(), name)
        if backend == "pandas":
            # pandas reads columns as attributes (df.id): a column named like one of the view's
            # attributes is the column. Finding out runs the query; if it fails, the view's
            # attribute stays readable (repr and error messages use them).
            try:
                table = self.to_native()
            except _core.TacoError:
                table = None
            if table is not None and name in table.columns:
                return getattr(table, name)
        return object.__getattribute__(self, name)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        # numpy would otherwise treat the view as a sequence of its column names (__iter__).
        import numpy

        return numpy.asarray(self.to_native(), dtype=dtype)

    def _unary(op):  # noqa: N805  (builds methods at class creation)
        return lambda self: op(self.to_native())

    def _binary(op, reflected=False):  # noqa: N805
        if reflected:
            return lambda self, other: op(other, self.to_native())
        return lambda self, other: op(self.to_native(), other)

    # Arithmetic and ordering as the table does them (pandas/polars `r * 2`, `r < 5`). Equality
    # stays identity: views are kept in sets and weak maps, and `r == r2` comparing tables
    # would make them unhashable.
    __add__, __radd__ = _binary(operator.add), _binary(operator.add, True)
    __sub__, __rsub__ = _binary(operator.sub), _binary(operator.sub, True)
    __mul__, __rmul__ = _binary(operator.mul), _binary(operator.mul, True)
    __truediv__, __rtruediv__ = _binary(operator.truediv), _binary(operator.truediv, True)
    __floordiv__, __rfloordiv__ = _binary(operator.floordiv), _binary(operator.floordiv, True)
    __mod__, __rmod__ = _binary(operator.mod), _binary(operator.mod, True)
    __pow__, __rpow__ = _binary(operator.pow), _binary(operator.pow, True)
    __and__, __rand__ = _binary(operator.and_), _binary(operator.and_, True)
    __or__, __ror__ = _binary(operator.or_), _binary(operator.or_, True)
    __xor__, __rxor__ = _binary(operator.xor), _binary(operator.xor, True)
    __lt__, __le__ = _binary(operator.lt), _binary(operator.le)
    __gt__, __ge__ = _binary(operator.gt), _binary(operator.ge)
    __neg__, __pos__ = _unary(operator.neg), _unary(operator.pos)
    __abs__, __invert__ = _unary(operator.abs), _unary(operator.invert)
    del _unary, _binary


#: The public names a view has itself (methods and properties of TacoDataset and its mixins).
_VIEW_NAMES: FrozenSet[str] = frozenset(n for n in dir(TacoDataset) if not n.startswith("_"))
