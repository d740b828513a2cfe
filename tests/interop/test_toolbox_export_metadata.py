"""tacotoolbox's inspection calls on samples, tortillas and tacos run unchanged on tacocore's:
Sample.export_metadata(), Tortilla.export_metadata(deep) / metadata_table, Taco.export_metadata(),
Sample.validate_with(validator) and Sample.cleanup(). The tables equal tacotoolbox's for the same
tree (ids, types, paths, extension columns and their values, the internal ids of deep > 0)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

import tacocore

tacotoolbox = pytest.importorskip("tacotoolbox")


def tree(mod, root):
    """Two FOLDERs of two FILEs on disk, metadata at both levels, built with `mod`'s classes."""
    Sample, Tortilla = mod.datamodel.Sample, mod.datamodel.Tortilla
    folders = []
    for f in range(2):
        children = []
        for c in range(2):
            path = root / f"f{f}c{c}.bin"
            path.write_bytes(b"x" * (c + 1))
            s = Sample(id=f"c{c}", path=path)
            s.extend_with({"cloud": 1.5 * c, "tags": ["a", "b"][: c + 1], "when": dt.datetime(2024, 1, 1 + c)})
            children.append(s)
        folder = Sample(id=f"f{f}", path=Tortilla(children))
        folder.extend_with({"region": f"r{f}"})
        folders.append(folder)
    return Tortilla(folders)


def same_table(ours: pa.Table, ref: pa.Table) -> None:
    assert ours.column_names == ref.column_names
    for name in ref.column_names:
        # List element names differ (DuckDB's "l", pyarrow's "item"/"element"): types compared
        # without them, values exactly.
        o, r = ours.schema.field(name).type, ref.schema.field(name).type
        if pa.types.is_list(r):
            assert pa.types.is_list(o) and o.value_type == r.value_type, name
        else:
            assert o == r, name
        assert ours[name].to_pylist() == ref[name].to_pylist(), name


@pytest.fixture()
def both(tmp_path):
    return tree(tacocore, tmp_path), tree(tacotoolbox, tmp_path)


def test_sample_export_metadata_equals_tacotoolbox(both):
    ours, ref = both
    for i in range(2):
        same_table(ours.samples[i].export_metadata(), ref.samples[i].export_metadata())
        child_ours = ours.samples[i].path.samples[1]
        child_ref = ref.samples[i].path.samples[1]
        same_table(child_ours.export_metadata(), child_ref.export_metadata())


@pytest.mark.parametrize("deep", [0, 1])
def test_tortilla_export_metadata_equals_tacotoolbox(both, deep):
    ours, ref = both
    same_table(ours.export_metadata(deep=deep), ref.export_metadata(deep=deep))
    if deep == 0:
        same_table(ours.metadata_table, ref.metadata_table)


def test_bad_depths_are_value_errors(both):
    ours, _ = both
    for deep in (-1, 2, 6):
        with pytest.raises(ValueError, match="export_metadata"):
            ours.export_metadata(deep=deep)


def test_in_memory_bytes_have_no_path():
    table = tacocore.Sample("m", b"abc", v=1).export_metadata()
    assert table.to_pylist() == [{"id": "m", "type": "FILE", "path": None, "v": 1}]


def test_taco_export_metadata_is_the_collection_as_one_row(both):
    ours, _ = both
    taco = tacocore.Taco(ours, id="tree", dataset_version="1.0.0", description="d", licenses=["MIT"],
                         providers=[{"name": "x"}], tasks=["classification"])
    table = taco.export_metadata()
    assert table.num_rows == 1
    assert table["id"].to_pylist() == ["tree"]
    assert table["licenses"].to_pylist() == [["MIT"]]


def test_validate_with_runs_the_validator_and_cleanup_is_harmless():
    seen = []

    class Refuses:
        def validate(self, sample):
            seen.append(sample.id)
            raise ValueError(f"{sample.id}: not a TACOTIFF")

    s = tacocore.Sample("s", b"abc")
    with pytest.raises(ValueError, match="s: not a TACOTIFF"):
        s.validate_with(Refuses())
    assert seen == ["s"]
    s.cleanup()
    s.cleanup()
    assert s.size == 3  # the bytes are still there


def test_sample_pop_returns_the_column_as_tacotoolbox_does(tmp_path):
    """Sample.pop(field): the column as a 1-row table of its type, the field gone; a core field is a
    ValueError and an unknown one a KeyError, in both."""
    made = {}
    for name, mod in (("ours", tacocore), ("ref", tacotoolbox.datamodel)):
        path = tmp_path / f"{name}.bin"
        path.write_bytes(b"x")
        s = mod.Sample(id="s", path=path)
        s.extend_with({"cloud": 1.5, "tags": ["a", "b"]})
        made[name] = s
    for field in ("cloud", "tags"):
        same_table(made["ours"].pop(field), made["ref"].pop(field))
    for s in made.values():
        assert "cloud" not in s.export_metadata().column_names
        with pytest.raises(ValueError):
            s.pop("id")
        with pytest.raises(KeyError):
            s.pop("nope")
