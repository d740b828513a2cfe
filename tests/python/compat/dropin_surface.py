"""The tacoreader 2.4.21 public surface, exercised the way a user's script does, printed as JSON.

    python dropin_surface.py BACKEND --concat A B PATH...

Written against tacoreader only (public names: use, get_backend, load(backend=), verbose,
clear_cache, TacoDataFrame, .data/.data_raw, read, the flat views l0..lN through sql(),
flatten/sort/limit, navigation_columns, PITSchema from tacoreader.schema, the exceptions from
tacoreader._exceptions). test_dropin.py runs it with the reference and with tacocore
(compat/shim.py) and compares the output. Every value is normalised to JSON the same way on both
sides (dates to ISO text, bytes to hex, numpy values to Python).
"""

import datetime
import json
import math
import sys

import tacoreader
from tacoreader._exceptions import (
    TacoBackendError,
    TacoError,
    TacoNavigationError,
    TacoSchemaError,
)
from tacoreader.schema import PITSchema


def norm(v):
    """A JSON value for anything a backend returns (pyarrow, pandas, polars, numpy)."""
    if v is None:
        return None
    if hasattr(v, "tolist") and not isinstance(v, (str, bytes)):  # numpy arrays and scalars
        v = v.tolist()
    if isinstance(v, float):
        return None if math.isnan(v) else round(v, 6)
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, datetime.datetime):
        return v.replace(tzinfo=None).isoformat()
    if isinstance(v, datetime.date):
        return v.isoformat()
    if hasattr(v, "to_pydatetime"):  # pandas Timestamp
        return v.to_pydatetime().replace(tzinfo=None).isoformat()
    if isinstance(v, dict):
        return {str(k): norm(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    return str(v)


def rows(table):
    """Rows of a backend table as a list of dicts (pa.Table, pd.DataFrame or pl.DataFrame)."""
    if hasattr(table, "to_pylist"):
        out = table.to_pylist()
    elif hasattr(table, "to_dicts"):
        out = table.to_dicts()
    else:
        out = table.to_dict("records")
    return [norm(r) for r in out]


def error(fn):
    try:
        fn()
    except Exception as exc:  # the class name is what both sides must agree on
        return type(exc).__name__
    return None


def columns_of(table):
    cols = table.column_names if hasattr(table, "column_names") else table.columns
    return [str(c) for c in cols]


def frame(df):
    return {
        "class": type(df).__name__,
        "is_taco_dataframe": isinstance(df, tacoreader.TacoDataFrame),
        "len": len(df),
        "shape": list(df.shape),
        "columns": list(df.columns),
        "head": rows(df.head(2)),
        "tail": rows(df.tail(1)),
    }


def walk(df, depth=0):
    """Every FILE path under df, reading each FOLDER by position and by id."""
    out = []
    for i in range(len(df)):
        child = df.read(i)
        if isinstance(child, str):
            out.append(child.rsplit(",", 1)[0] if child.startswith("/vsisubfile/") else child[-30:])
        else:
            ids = [r["id"] for r in rows(child.head(len(child)))]
            out.append({"children": walk(child, depth + 1), "ids": ids, "level_len": len(child)})
    return out


def dataset_doc(path, backend):
    ds = tacoreader.load(path, backend=backend)
    doc = {"repr": repr(ds), "pit": ds.pit_schema.to_dict(), "pit_repr": repr(ds.pit_schema),
           "max_depth": ds.pit_schema.max_depth(),
           "pit_self_compatible": ds.pit_schema.is_compatible(ds.pit_schema),
           "pit_with_n": ds.pit_schema.with_n(0).to_dict(),
           "navigation_columns": ds.navigation_columns(),
           "navigation_described": ds.navigation_columns(describe=True)}
    df = ds.data
    doc["data"] = frame(df)
    doc["data_raw_columns"] = list(ds.data_raw.columns)
    doc["tree"] = walk(df)
    first_id = rows(df.head(1))[0]["id"]
    first = df.read(first_id)
    doc["read_by_id"] = first if isinstance(first, str) and not first.startswith("/vsisubfile/") else type(first).__name__
    doc["errors"] = {
        "position past the end": error(lambda: df.read(len(df))),
        "unknown id": error(lambda: df.read("no-such-sample")),
    }
    doc["is_taco_dataset"] = isinstance(ds, tacoreader.TacoDataset)
    doc["repr_data"] = repr(df).replace(path, "<path>")
    ids = df["id"]
    doc["column_id"] = norm(ids.to_pylist() if hasattr(ids, "to_pylist") else ids.to_list())
    via_dataset = ds.read(0)
    doc["dataset_read"] = (via_dataset.rsplit(",", 1)[0] if isinstance(via_dataset, str)
                           else [r["id"] for r in rows(via_dataset.head(10))])
    doc["sql_len"] = len(ds.sql("SELECT * FROM l0"))
    doc["sql_printed"] = str(ds.sql('SELECT "l0:id", "l0:type" FROM l0 ORDER BY 1'))
    doc["flat"] = {}
    for level in range(ds.pit_schema.max_depth() + 1):
        table = ds.sql(f'SELECT * FROM l{level} ORDER BY "l{level}:id"')
        doc["flat"][level] = {"columns": columns_of(table), "rows": rows(table)}
    doc["flat_filtered"] = rows(ds.sql(
        'SELECT "l0:id", count(*) AS n FROM l{0} GROUP BY "l0:id" ORDER BY "l0:id"'.format(
            ds.pit_schema.max_depth())))
    doc["flatten"] = rows(ds.flatten())
    doc["flatten_0"] = rows(ds.flatten(level=0))
    # Rows that tie on the sort key come in no defined order: only the keys are compared.
    doc["flatten_sorted"] = [r["l0:id"] for r in rows(ds.sort("l0:id", descending=True).limit(2).flatten())]
    return doc


def target(result):
    """What a read() gave: a FILE path (archive part dropped) or the ids of a FOLDER's children."""
    def short(vsi):
        return vsi.rsplit(",", 1)[0] if vsi.startswith("/vsisubfile/") else vsi[-30:]

    if isinstance(result, str):
        return short(result)
    return [[r["id"], short(r["internal:gdal_vsi"])] for r in rows(result.head(len(result)))]


def derived_frames(path, backend):
    """The backend's own operations on .data, then read() on the result (rows found again)."""
    df = tacoreader.load(path).data
    last = rows(df.tail(1))[0]["id"]
    out = {}
    if backend == "pandas":
        out["mask"] = target(df[df["id"] == last].read(0))
        out["query"] = target(df.query(f"id != '{last}'").read(0))
        out["sort_values"] = target(df.sort_values("id", ascending=False).read(0))
        out["assign"] = target(df.assign(extra=1).read(last))
        out["columns"] = target(df[["id", "type", "internal:gdal_vsi"]].read(0))
    else:
        import polars as pl

        out["filter"] = target(df.filter(pl.col("id") == last).read(0))
        out["sort"] = target(df.sort("id", descending=True).read(0))
        out["select"] = target(df.select(["id", "type", "internal:gdal_vsi"]).read(last))
        out["with_columns"] = target(df.with_columns(pl.lit(1).alias("extra")).read(0))
        out["limit"] = [len(df.limit(1)), target(df.limit(1).read(0))]
    return out


def main(argv):
    backend = argv[1]
    tacoreader.use(backend)
    out = {"backend": tacoreader.get_backend()}
    tacoreader.verbose(False)
    tacoreader.clear_cache()
    out["errors"] = {
        "use unknown backend": error(lambda: tacoreader.use("spark")),
        "backend error is a TacoError": issubclass(TacoBackendError, TacoError),
        "schema: bad root type": error(lambda: PITSchema({"root": {"n": 1, "type": "BLOB"}, "hierarchy": {}})),
        "schema: bad depth key": error(lambda: PITSchema({"root": {"n": 1, "type": "FOLDER"},
                                                          "hierarchy": {"one": []}})),
        "schema: type/id lengths": error(lambda: PITSchema({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {
            "1": [{"n": 1, "type": ["FILE"], "id": []}]}})),
        "schema: bad child type": error(lambda: PITSchema({"root": {"n": 1, "type": "FOLDER"}, "hierarchy": {
            "1": [{"n": 1, "type": ["LINK"], "id": ["a"]}]}})),
        "navigation error is a TacoError": issubclass(TacoNavigationError, TacoError),
        "schema error is a TacoError": issubclass(TacoSchemaError, TacoError),
    }
    out["get_backend_after_bad_use"] = tacoreader.get_backend()
    paths, concat = [], []
    i = 2
    while i < len(argv):
        if argv[i] == "--concat":
            concat.append((argv[i + 1], argv[i + 2]))
            i += 3
        else:
            paths.append(argv[i])
            i += 1
    for path in paths:
        out[path] = dataset_doc(path, backend)
    for a, b in concat:
        ds = tacoreader.concat([tacoreader.load(a), tacoreader.load(b)])
        out[f"concat {a} + {b}"] = {
            "len": len(ds.data),
            "class": type(ds.data).__name__,
            "flat_l1": rows(ds.sql('SELECT "l0:id", "l1:id", "l1:type" FROM l1 ORDER BY "l0:id", "l1:id"')),
            "flatten": [{k: v for k, v in r.items() if k != "gdal_vsi"} for r in rows(ds.flatten())],
        }
    if concat:
        both = tacoreader.load(list(concat[0]))
        out["load_list"] = {"len": len(both.data), "class": type(both.data).__name__,
                            "pit": both.pit_schema.to_dict()}
    if backend in ("pandas", "polars"):
        out["derived"] = {path: derived_frames(path, backend) for path in paths}
        df = tacoreader.load(paths[0]).data
        out["protected"] = {c: error(lambda c=c: df.__setitem__(c, ["x"] * len(df)))
                            for c in ("id", "type", "internal:gdal_vsi")}
        df["note"] = ["x"] * len(df)
        out["free_column"] = list(df.columns)[-1]
    print(json.dumps(out, indent=1, sort_keys=True, default=str))


if __name__ == "__main__":
    main(sys.argv)
