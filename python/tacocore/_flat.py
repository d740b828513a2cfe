"""The tacoreader 2.4.x surface around the flat views ``l0``..``lN``: ``flatten``, ``sort``,
``limit``, ``navigation_columns``, and the table face of a lazy ``sql()`` view.

The flat views themselves live in the native core (``src/query/flat_views.cpp``): view ``l{i}``
is level ``i`` joined to every ancestor along the parent ids, each column prefixed by its level.
After a filter (``sql()`` on level 0) they hold only the kept rows and their descendants.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

from . import _core
from ._backends import native_table

#: tacoreader's NAVIGATION_COLUMNS_BY_FORMAT and NAVIGATION_COLUMN_DESCRIPTIONS.
NAVIGATION_COLUMNS_BY_FORMAT = {
    "zip": frozenset({"id", "type", "internal:current_id", "internal:offset", "internal:size"}),
    "folder": frozenset({"id", "type", "internal:current_id"}),
    "tacocat": frozenset({"id", "type", "internal:current_id", "internal:offset", "internal:size",
                          "internal:source_file"}),
}
NAVIGATION_COLUMN_DESCRIPTIONS = {
    "id": "Unique sample identifier",
    "type": "Sample type (FILE or FOLDER)",
    "internal:current_id": "Row position (int64) for parent-child JOIN relationships",
    "internal:offset": "Byte offset in archive file",
    "internal:size": "Byte size of sample data",
    "internal:source_file": "Source ZIP filename within TacoCat",
}


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


class FlatMixin:
    """Methods of TacoDataset over the flat views (mixed into it; uses its ``_native``)."""

    # --- tacoreader 2.4.x: flatten / sort / limit ------------------------------------------------
    def flatten(self, level: Optional[int] = None) -> Any:
        """Every FILE row of ``level`` (default: the deepest) with the metadata of all its
        ancestors, as a table of the dataset's backend (pa.Table / pd.DataFrame / pl.DataFrame).

        Columns: ``"l{level}:..."`` then each ancestor's ``"l{k}:..."``, without internal
        columns, and ``gdal_vsi`` (the FILE's GDAL path) last. Follows the current view (only
        the descendants of the rows a filter kept) and :meth:`sort` / :meth:`limit`.
        Raises TacoQueryError for a level that does not exist.
        """
        self._check_open()
        depth = self.pit_schema.max_depth()
        if level is None:
            level = depth
        if isinstance(level, bool) or not isinstance(level, int):
            raise TypeError(f"flatten(): level must be an integer (or None for the deepest), not {level!r}")
        if not 0 <= level <= depth:
            raise _core.TacoQueryError(f"Level {level} does not exist.\nAvailable levels: 0 to {depth}")
        columns = [c for c in self._flat_columns(level)
                   if ":internal:" not in c and c != f"l{level}:internal:gdal_vsi"]
        select = ", ".join(_quote(c) for c in columns)
        select += (", " if select else "") + f'{_quote(f"l{level}:internal:gdal_vsi")} AS gdal_vsi'
        query = f'SELECT {select} FROM l{level} WHERE {_quote(f"l{level}:type")} = \'FILE\''
        if self._sort_by:
            query += f" ORDER BY {_quote(self._sort_by)} {'DESC' if self._sort_descending else 'ASC'}"
        if self._limit_n is not None:
            query += f" LIMIT {int(self._limit_n)}"
        return self.sql(query).to_native()

    def _flat_columns(self, level: int) -> List[str]:
        return list(self.sql(f"SELECT * FROM l{level} LIMIT 0").data_raw.columns)

    def sort(self, by: Optional[str], descending: bool = False) -> "FlatMixin":
        """Sort order of :meth:`flatten` by a flat-view column (``"l0:stac:time_start"``); returns
        this dataset (chainable, as tacoreader's). ``None`` drops the order, as in tacoreader."""
        if by is not None and not isinstance(by, str):
            raise TypeError(f"sort() takes a column name or None, not {type(by).__name__}")
        self._sort_by = by
        self._sort_descending = bool(descending)
        return self

    def limit(self, n: int) -> "FlatMixin":
        """At most ``n`` rows from :meth:`flatten`; returns this dataset (chainable)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise _core.TacoQueryError(f"limit() takes a non-negative integer, got {n!r}")
        self._limit_n = n
        return self

    def navigation_columns(self, describe: bool = False) -> Union[List[str], Dict[str, str]]:
        """The columns navigation and concat rely on for this dataset's container, sorted; with
        ``describe=True`` a dict {column: description}."""
        columns = NAVIGATION_COLUMNS_BY_FORMAT.get(self._frame_format() or self._native.format, frozenset())
        if describe:
            return {c: NAVIGATION_COLUMN_DESCRIPTIONS.get(c, "") for c in sorted(columns)}
        return sorted(columns)

    # --- RSUT: structural homogeneity of level 1 ----------------------------------------------------
    def is_rsut(self) -> bool:
        """Whether every root FOLDER of the current view has the same child ids (tacoreader's
        RSUT check; tacocore's writer enforces it, a foreign dataset may break it). Computed
        once per view; :meth:`verify_rsut` computes it again."""
        if getattr(self, "_rsut", None) is None:
            self._rsut = self.verify_rsut()
        return self._rsut

    def verify_rsut(self) -> bool:
        """Checks RSUT structural homogeneity of level 1 now (see :meth:`is_rsut`): every root
        of the current view has the same child ids, counting only the children the view keeps
        (a cascade ``filter_*(level=1)`` can keep different ones under each root, as
        tacoreader's check after a cascade finds)."""
        self._check_open()
        pit = self.pit_schema
        if pit.root.get("type") == "FILE" or pit.max_depth() == 0:
            self._rsut = True
            return True
        try:
            self._rsut = self._children_alike()
        except _core.TacoQueryError:  # level 1 without the join keys: no flat view to ask
            self._rsut = self._children_alike_unfiltered()
        return self._rsut

    def _children_alike(self) -> bool:
        """Over flat view ``l1`` of the current view (the kept roots' kept children): one
        signature (sorted child ids) per root, and no kept root without children unless none
        has any. Roots are told apart by their id and, in a concatenation or a collection, by
        the file they come from (ids may repeat across inputs)."""
        columns = set(self._flat_columns(1))
        root = [c for c in ("l0:id", "l0:internal:source_path", "l0:internal:source_file")
                if c in columns]
        keys = ", ".join(_quote(c) for c in root)
        table = self.sql(f"""
            WITH signatures AS (
                SELECT STRING_AGG("l1:id", '|' ORDER BY "l1:id") AS signature
                FROM l1 GROUP BY {keys})
            SELECT COUNT(DISTINCT signature) AS kinds, COUNT(*) AS parents FROM signatures
            """).data.to_arrow().to_pylist()[0]
        if table["parents"] == 0:
            return True  # no kept root has a kept child: all alike (empty)
        return table["kinds"] == 1 and table["parents"] == self._row_count()

    def _children_alike_unfiltered(self) -> bool:
        """The same test on the level tables themselves, for a dataset whose flat views cannot
        be built: a view that kept internal:current_id, else the whole of level 0."""
        query = """
            WITH parent_children AS (
                SELECT l0."internal:current_id" AS parent_id,
                       STRING_AGG(l1.id, '|' ORDER BY l1.id) AS children_sig
                FROM {root} l0
                LEFT JOIN level1 l1 ON l1."internal:parent_id" = l0."internal:current_id"
                GROUP BY l0."internal:current_id")
            SELECT COUNT(DISTINCT children_sig) <= 1 AS is_homogeneous FROM parent_children"""
        try:
            table = self.sql(query.format(root="data")).data.to_arrow()
        except _core.TacoQueryError:  # a view without internal:current_id: the whole level 0
            table = self.sql(query.format(root="level0")).data.to_arrow()
        return bool(table.column(0)[0].as_py()) if table.num_rows else True

    # --- the table face of a view (tacoreader 2.4.21's eager sql()) ------------------------------
    def to_native(self) -> Any:
        """The rows of the current view (every column) in the dataset's backend: a pyarrow Table,
        pandas or polars DataFrame, what tacoreader 2.4.21's ``sql()`` returns. Computed once."""
        self._check_open()
        if self._table is None:
            self._table = native_table(self.data_raw.to_arrow(), self._backend)
        return self._table

    def to_arrow(self):
        """The rows of the current view (every column) as a pyarrow Table."""
        return self.data_raw.to_arrow()

    def to_pandas(self):
        """The rows of the current view (every column) as a pandas DataFrame."""
        return self.data_raw.to_pandas()

    def to_polars(self):
        """The rows of the current view (every column) as a polars DataFrame."""
        return self.data_raw.to_polars()

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        return self.data_raw.__arrow_c_stream__(requested_schema)

    def __len__(self) -> int:
        return self._row_count()

    def __bool__(self) -> bool:
        # A dataset is truthy even when its view is empty (len() alone would make it falsy).
        return True

    def __getitem__(self, key: Any) -> Any:
        from ._native_errors import index_backend
        return index_backend(self.to_native(), key)

    def __iter__(self):
        # As the table would (pandas: column names; pyarrow/polars: their own iteration).
        return iter(self.to_native())

    def __contains__(self, item: Any) -> bool:
        return item in self.to_native()

    def __setattr__(self, name: str, value: Any) -> None:
        # The table a view answers as is computed, not stored: `view.columns = [...]` used to
        # set an attribute nobody reads (the rename silently lost). Only the dataset's own
        # attributes can be set; editing the table needs the table itself.
        if name.startswith("_") or hasattr(type(self), name):
            object.__setattr__(self, name, value)
            return
        raise TypeError(
            f"cannot set '{name}' on a TacoDataset: its table is computed from the view. Take "
            f"the table with .to_native() (a {self._backend} table) and change that")

    def __setitem__(self, key: Any, value: Any) -> None:
        raise TypeError(
            f"a TacoDataset does not support item assignment (view[{key!r}] = ...): take the "
            f"table with .to_native() (a {self._backend} table) and change that")

    def __delitem__(self, key: Any) -> None:
        raise TypeError(
            f"a TacoDataset does not support item deletion (del view[{key!r}]): take the table "
            f"with .to_native() (a {self._backend} table) and change that")

    def __getattr__(self, name: str) -> Any:
        # Only reached for names TacoDataset does not have: a 2.4.21 script treating the result
        # of sql() as its table (num_rows, column_names, shape, iterrows, ...).
        if name.startswith("_"):
            raise AttributeError(name)
        table = self.to_native()
        try:
            return getattr(table, name)
        except AttributeError:
            raise AttributeError(
                f"'TacoDataset' object has no attribute '{name}' (nor has its result table, a "
                f"{type(table).__module__}.{type(table).__name__})") from None
