"""concat and load([paths]): the same rows, paths, structure and navigation as tacoreader's
concat on the same files, plus the column modes, filtered inputs and every refusal."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tacocore

# Pairs tacoreader itself concatenates (same container, compatible trees).
PAIRS = [
    ("reader-zip-flat", "reader-zip-flat"),
    ("toolbox-zip-simple", "reader-zip-flat"),
    ("toolbox-zip-nested_a", "toolbox-zip-nested_b"),
    ("reader-zip-nested", "reader-zip-nested"),
    ("reader-folder-nested", "reader-folder-nested"),
    ("reader-folder-flat", "toolbox-folder-simple"),
]


def _copies(fixture_paths, tmp_path, names):
    """Private copies of fixtures for the reference: tacoreader's concat adds the other inputs'
    counts to the first input's collection *in its load cache*, so every later tacoreader.load
    of that path in the process reports the summed taco:pit_schema (tacoreader 2.4.21)."""
    out = []
    for i, name in enumerate(names):
        src = Path(fixture_paths[name])
        dst = tmp_path / f"{i}_{src.name}"
        shutil.copytree(src, dst) if src.is_dir() else shutil.copy2(src, dst)
        out.append(str(dst))
    return out


def _arrow(frame):
    return frame.to_arrow() if hasattr(frame, "to_arrow") else frame._data


@pytest.mark.parametrize("first,second", PAIRS)
def test_load_list_matches_tacoreader(first, second, fixture_paths, reference, tmp_path):
    paths = _copies(fixture_paths, tmp_path, [first, second])
    ours, theirs = tacocore.load(paths), reference.tacoreader.load(paths)
    o, t = _arrow(ours.data), _arrow(theirs.data)
    assert o.num_rows == t.num_rows
    # Same columns; tacoreader emits them sorted, tacocore keeps the first input's order.
    assert sorted(o.column_names) == sorted(t.column_names)
    for column in ("id", "type", "internal:gdal_vsi"):
        assert o.column(column).to_pylist() == t.column(column).to_pylist(), column
    assert ours.pit_schema.to_dict() == theirs.pit_schema.to_dict()
    assert ours.id == theirs.id
    # Navigation: the children of every FOLDER row, whichever file it lives in.
    for i, kind in enumerate(o.column("type").to_pylist()):
        if kind != "FOLDER":
            continue
        mine, ref = ours.data.read(i), theirs.data.read(i)
        assert _arrow(mine).column("internal:gdal_vsi").to_pylist() == [
            v for v, cid in zip(_arrow(ref).column("internal:gdal_vsi").to_pylist(),
                                _arrow(ref).column("id").to_pylist())
            if not cid.startswith("__TACOPAD__")]


def test_concat_function_and_bytes(fixture_paths):
    a = tacocore.load(fixture_paths["toolbox-zip-simple"])
    b = tacocore.load(fixture_paths["reader-zip-flat"])
    both = tacocore.concat([a, b])
    frame = both.data
    assert len(frame) == len(a.data) + len(b.data)
    assert frame.read_bytes(len(a.data)) == b.data.read_bytes(0)
    assert both.sources == [a.path, b.path]
    raw = both.data_raw.to_arrow()
    assert set(raw.column("internal:source_path").to_pylist()) == {
        str(__import__("pathlib").Path(p).resolve()) for p in both.sources}
    assert raw.column("internal:current_id").to_pylist() == list(range(len(frame)))


def test_filtered_inputs_and_chaining(fixture_paths):
    p = fixture_paths["reader-zip-flat"]
    some = tacocore.load(p).sql("SELECT * FROM data WHERE id IN ('sample_1', 'sample_3')")
    both = tacocore.concat([some, tacocore.load(p)])
    assert both.data.to_arrow().column("id").to_pylist()[:3] == ["sample_1", "sample_3", "sample_0"]
    again = both.sql("SELECT id FROM data WHERE id = 'sample_3'")
    assert len(again.data) == 2


def _write(make_taco, tmp_path, name, extra):
    samples = []
    for i in range(3):
        meta = {"cloud": float(i)}
        if extra:
            meta["quality"] = i * 10
        samples.append(tacocore.Sample(f"s{i}", f"{name} {i}".encode(), **meta))
    return str(tacocore.create(make_taco(samples, id=name), tmp_path / f"{name}.tacozip")[0])


def test_column_modes(make_taco, tmp_path, reference):
    plain = _write(make_taco, tmp_path, "plain", extra=False)
    extra = _write(make_taco, tmp_path, "extra", extra=True)
    a, b = tacocore.load(plain), tacocore.load(extra)
    assert "quality" not in tacocore.concat([a, b]).data.columns
    filled = tacocore.concat([a, b], column_mode="fill_missing").data.to_arrow()
    assert filled.column("quality").to_pylist() == [None, None, None, 0, 10, 20]
    with pytest.raises(tacocore.TacoSchemaError, match="only in some: quality"):
        tacocore.concat([a, b], column_mode="strict")
    with pytest.raises(tacocore.TacoQueryError, match="column_mode"):
        tacocore.concat([a, b], column_mode="union")
    # The reference keeps the same columns in each mode.
    ra, rb = reference.tacoreader.load(plain), reference.tacoreader.load(extra)
    theirs = reference.tacoreader.concat([ra, rb], column_mode="fill_missing")
    assert sorted(_arrow(theirs.data).column_names) == sorted(filled.column_names)


def test_refusals(fixture_paths):
    flat_zip = tacocore.load(fixture_paths["reader-zip-flat"])
    with pytest.raises(tacocore.TacoQueryError, match="at least 2"):
        tacocore.concat([flat_zip])
    with pytest.raises(tacocore.TacoSchemaError, match="cannot mix containers"):
        tacocore.concat([flat_zip, tacocore.load(fixture_paths["reader-folder-flat"])])
    with pytest.raises(tacocore.TacoSchemaError, match="tree structure"):
        tacocore.concat([flat_zip, tacocore.load(fixture_paths["reader-zip-nested"])])
    with pytest.raises(tacocore.TacoSchemaError, match="sql\\(\\) projection"):
        tacocore.concat([flat_zip, flat_zip.sql("SELECT id, type FROM data")])
    with pytest.raises(TypeError, match="TacoDataset"):
        tacocore.concat([flat_zip, fixture_paths["reader-zip-flat"]])


def test_concat_counts_what_filtered_inputs_keep(fixture_paths):
    # The pit counts of a filtered input are the samples it keeps (before: its whole dataset's,
    # so pit_schema and repr said 10 where data had 7 rows; tacoreader says 7).
    flat = fixture_paths["reader-zip-flat"]
    c = tacocore.concat([tacocore.load(flat).filter_datetime("2023-01-01/2023-01-31"),
                         tacocore.load(flat)])
    assert c.pit_schema.root["n"] == len(c.data) == 7
    assert "Level 0: 7 rows" in repr(c)
    nested = fixture_paths["reader-zip-nested"]
    c = tacocore.concat([tacocore.load(nested).filter_bbox(-180, -90, 0, 90), tacocore.load(nested)])
    pit = c.pit_schema.to_dict()
    assert pit["root"]["n"] == len(c.data) == 5
    assert sum(p["n"] for p in pit["hierarchy"]["1"]) == 15  # 3 children under each root
