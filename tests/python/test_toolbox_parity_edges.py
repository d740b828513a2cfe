"""Where tacocore's tacotoolbox surface wrote or refused differently from tacotoolbox 0.26.9 on the
same script (found by a parity hunt, 2026-11-29); each test runs both writers.

- taco:field_schema type strings are lower-cased as tacotoolbox writes them, so parts of either
  writer make one collection (and parts written before the fix still do);
- a FOLDER asked for as "x.tacozip" is written as "x";
- a list value of mixed types names its sample and field;
- a NaN / Infinity dataset-level value is written and read as Python's json does;
- a dataset-level value JSON cannot hold names its key;
- split_size / group_by with a FOLDER output are ignored with a warning, as tacotoolbox ignores
  them (tacocore refused them; 2026-12-02);
- a Taco field set or edited after the Taco was made is what create() writes (tacocore wrote the
  old value without a word; 2026-12-02);
- what tacotoolbox raises as ValueError (bad id, missing file, bad key, schema mismatch, duplicate
  ids) is caught by `except ValueError` with tacocore too (2026-12-02);
- copy.copy of a Sample or Tortilla is independent of the original, as tacotoolbox's Tortilla
  copy is (tacocore's shared the fields: extending the copy changed the original), and a sample
  taken from `tortilla.samples` and extended leaves the tortilla as it was, as in tacotoolbox
  (tacocore changed that one sample inside the tortilla, behind its schema; 2026-12-03).
"""

from __future__ import annotations

import copy
import datetime
import json
import math
import zipfile

import pytest

import tacocore
import tacotoolbox  # the reference writer; make setup installs it
import tacotoolbox.datamodel as toolbox_model
import tacoreader

from conftest import COLLECTION_DEFAULTS


def build(model, samples=None, **extra):
    samples = samples or [model.Sample(id=f"s{i}", path=bytes([65 + i]) * 16, **extra) for i in range(2)]
    return model.Taco(tortilla=model.Tortilla(samples), **COLLECTION_DEFAULTS)


def field_schema(path) -> list:
    doc = json.loads(zipfile.ZipFile(path).read("COLLECTION.json"))
    return doc["taco:field_schema"]["level0"]


def test_field_schema_types_are_lower_cased_as_tacotoolbox_writes_them(tmp_path):
    extra = dict(st={"Name": "x", "CamelCase": 1},
                 t=datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc))
    tacotoolbox.create(build(toolbox_model, **extra), str(tmp_path / "ref.tacozip"))
    tacocore.create(build(tacocore, **extra), str(tmp_path / "core.tacozip"))
    assert field_schema(tmp_path / "core.tacozip") == field_schema(tmp_path / "ref.tacozip")
    types = dict((name, kind) for name, kind, _ in field_schema(tmp_path / "core.tacozip"))
    assert types["t"] == "timestamp[us, tz=utc]"
    assert types["st"] == "struct<name: string, camelcase: int64>"
    # one collection from a part of each writer, with either tool
    parts = [tmp_path / "ref.tacozip", tmp_path / "core.tacozip"]
    tacocore.create_tacocat(parts, tmp_path)
    assert len(tacocore.load(str(tmp_path)).data) == 4


def test_parts_whose_field_schema_differs_only_in_case_still_make_a_collection(tmp_path):
    """A part written by tacocore before the fix spelt `tz=UTC`: the same schema."""
    extra = dict(t=datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc))
    for name in ("a", "b"):
        tacocore.create(build(tacocore, **extra), str(tmp_path / f"{name}.tacozip"))
    # rewrite b's COLLECTION.json the old way, keeping every other byte of the document
    old = tmp_path / "b.tacozip"
    with zipfile.ZipFile(old) as z:
        text = z.read("COLLECTION.json").decode()
    assert "tz=utc" in text
    import tacocore.tacozip as tz
    entries = []
    with zipfile.ZipFile(old) as z:
        for info in z.infolist()[1:]:
            data = z.read(info.filename)
            if info.filename == "COLLECTION.json":
                data = text.replace("tz=utc", "tz=UTC").encode()
            src = tmp_path / "src" / info.filename
            src.parent.mkdir(parents=True, exist_ok=True)
            src.write_bytes(data)
            entries.append((str(src), info.filename))
    rebuilt = tmp_path / "rebuilt" / "b.tacozip"
    rebuilt.parent.mkdir()
    tz.create(str(rebuilt), [e[0] for e in entries], [e[1] for e in entries])
    header = tz.read_header(str(rebuilt))  # placeholder header: give it the real slots
    assert header == []
    with zipfile.ZipFile(rebuilt) as z:
        slots = []
        for name in sorted(n for n in z.namelist() if n.startswith("METADATA/")) + ["COLLECTION.json"]:
            info = z.getinfo(name)
            with open(rebuilt, "rb") as f:
                f.seek(info.header_offset + 26)
                name_len, extra_len = int.from_bytes(f.read(2), "little"), int.from_bytes(f.read(2), "little")
            slots.append((info.header_offset + 30 + name_len + extra_len, info.file_size))
    tz.update_header(str(rebuilt), slots)
    (tmp_path / "a.tacozip").rename(rebuilt.parent / "a.tacozip")
    tacocore.create_tacocat([rebuilt.parent / "a.tacozip", rebuilt], rebuilt.parent)
    assert len(tacocore.load(str(rebuilt.parent)).data) == 4


def test_a_folder_named_like_a_zip_is_written_without_the_suffix(tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "core").mkdir()
    ref = tacotoolbox.create(build(toolbox_model), str(tmp_path / "ref" / "x.tacozip"), output_format="folder")
    got = tacocore.create(build(tacocore), str(tmp_path / "core" / "x.tacozip"), output_format="folder")
    assert [p.name for p in got] == [p.name for p in ref] == ["x"]
    assert sorted(p.name for p in (tmp_path / "core").iterdir()) == ["x"]
    assert len(tacoreader.load(str(got[0])).data) == len(tacocore.load(str(got[0])).data) == 2


@pytest.mark.parametrize("options", [dict(split_size="4GB"), dict(split_size="1B"),
                                     dict(group_by="region"), dict(split_size=10, group_by=["region"])])
def test_split_size_and_group_by_are_ignored_for_a_folder_as_tacotoolbox_does(tmp_path, options):
    outputs = {}
    for name, model, writer in (("ref", toolbox_model, tacotoolbox), ("core", tacocore, tacocore)):
        samples = [model.Sample(id=f"s{i}", path=bytes([65 + i]) * 16) for i in range(3)]
        for i, s in enumerate(samples):
            s.extend_with({"region": "east" if i % 2 else "west"})
        taco = model.Taco(tortilla=model.Tortilla(samples), **COLLECTION_DEFAULTS)
        if name == "core":
            with pytest.warns(UserWarning, match="ignored: .* is a FOLDER output, written whole"):
                outputs[name] = writer.create(taco, str(tmp_path / name), "folder", **options)
        else:
            outputs[name] = writer.create(taco, str(tmp_path / name), "folder", **options)
    assert [p.name for p in outputs["core"]] == ["core"] and [p.name for p in outputs["ref"]] == ["ref"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["core", "ref"]
    ref = tacoreader.load(str(outputs["ref"][0])).data.to_arrow()
    got = tacoreader.load(str(outputs["core"][0])).data.to_arrow()
    assert got["id"].to_pylist() == ref["id"].to_pylist() == ["s0", "s1", "s2"]
    assert got["region"].to_pylist() == ref["region"].to_pylist()


@pytest.mark.parametrize("key,value,named", [("flags", [True, 1], "field 'flags'"),
                                              ("meta", {"vals": [1, "a"]}, "field 'meta'.vals")])
def test_a_mixed_list_names_its_sample_and_field(key, value, named):
    with pytest.raises(tacocore.TacoSchemaError) as info:
        tacocore.Sample(id="s0", path=b"x", **{key: value})
    assert f"sample 's0' {named}: " in str(info.value)
    assert "list element 1 has type" in str(info.value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_non_finite_collection_values_round_trip_as_python_writes_them(tmp_path, value, caplog):
    ref_taco = build(toolbox_model)
    ref_taco.extend_with({"bench:score": value, "bench:list": [1.5, value]})
    tacotoolbox.create(ref_taco, str(tmp_path / "ref.tacozip"))
    ours = build(tacocore).extend_with({"bench:score": value, "bench:list": [1.5, value]})
    with caplog.at_level("WARNING"):
        tacocore.create(ours, str(tmp_path / "core.tacozip"))
    # tacocore reads tacotoolbox's file, and writes the same document
    for name in ("ref", "core"):
        got = tacocore.load(str(tmp_path / f"{name}.tacozip")).collection["bench:score"]
        assert (math.isnan(got) if math.isnan(value) else got == value), name
        again = tacoreader.load(str(tmp_path / f"{name}.tacozip")).collection["bench:list"]
        assert again[0] == 1.5
    texts = [zipfile.ZipFile(tmp_path / f"{n}.tacozip").read("COLLECTION.json").decode() for n in ("ref", "core")]
    token = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    assert f'"bench:score": {token}' in texts[0] and f'"bench:score": {token}' in texts[1]
    # re-written by a conversion: the value stays
    tacocore.convert(str(tmp_path / "ref.tacozip"), str(tmp_path / "ref_folder"))
    assert f'"bench:score": {token}' in (tmp_path / "ref_folder" / "COLLECTION.json").read_text()


def test_a_collection_value_json_cannot_hold_names_its_key():
    taco = build(tacocore)
    with pytest.raises(TypeError, match=r"COLLECTION field 'x:when': .*datetime"):
        taco.extend_with({"x:ok": 1, "x:when": datetime.datetime(2020, 1, 1)})
    with pytest.raises(TypeError, match=r"COLLECTION field 'x:blob'"):
        tacocore.Taco(tacocore.Tortilla([tacocore.Sample(id="a", path=b"a")]),
                      **COLLECTION_DEFAULTS, **{"x:blob": b"raw"})


def test_export_metadata_types_an_aware_datetime_as_tacotoolbox_does():
    # Its DuckDB session kept the machine's zone: timestamp[us, tz=Etc/UTC], which pyarrow
    # compares unequal to tacotoolbox's (and the written Parquet's) tz=UTC.
    when = datetime.datetime(2023, 1, 1, tzinfo=datetime.timezone.utc)
    ours = tacocore.Sample("a", b"x", whenz=when).export_metadata().schema.field("whenz").type
    theirs = toolbox_model.Sample(id="a", path=b"x", whenz=when).export_metadata().schema.field("whenz").type
    assert ours == theirs and str(ours) == "timestamp[us, tz=UTC]", (ours, theirs)


def test_taco_fields_changed_after_construction_are_written(tmp_path):
    written = {}
    for name, model, writer in (("ref", toolbox_model, tacotoolbox), ("core", tacocore, tacocore)):
        taco = model.Taco(tortilla=model.Tortilla([model.Sample(id=f"s{i}", path=bytes([65 + i]) * 8)
                                                   for i in range(2)]),
                          **{**COLLECTION_DEFAULTS, "keywords": ["a"]})
        taco.title = "New title"
        taco.description = "changed"
        taco.keywords.append("b")  # in place: no assignment at all
        taco.licenses = ["MIT"]
        assert taco.title == "New title"
        assert taco.extent.spatial == [-180.0, -90.0, 180.0, 90.0] and taco.providers[0].name
        out = tmp_path / f"{name}.tacozip"
        writer.create(taco, str(out))
        doc = json.loads(zipfile.ZipFile(out).read("COLLECTION.json"))
        written[name] = {k: doc[k] for k in ("title", "description", "keywords", "licenses")}
    assert written["core"] == written["ref"] == {"title": "New title", "description": "changed",
                                                 "keywords": ["a", "b"], "licenses": ["MIT"]}
    # a value the Taco refuses leaves it as it was
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("s0", b"x")]), **COLLECTION_DEFAULTS)
    with pytest.raises(tacocore.TacoSchemaError):
        taco.licenses = "MIT"  # a string, not a list
    assert taco.licenses == COLLECTION_DEFAULTS["licenses"]


@pytest.mark.parametrize("case", ["bad id", "missing file", "bad key", "schema mismatch", "duplicate ids"])
def test_what_tacotoolbox_raises_as_value_error_is_a_value_error(tmp_path, case):
    for model in (toolbox_model, tacocore):
        with pytest.raises(ValueError):
            if case == "bad id":
                model.Sample(id="a/b", path=b"x")
            elif case == "missing file":
                model.Sample(id="a", path=tmp_path / "missing.tif")
            elif case == "bad key":
                model.Sample(id="a", path=b"x").extend_with({"bad key!": 1})
            elif case == "schema mismatch":
                model.Tortilla([model.Sample(id="a", path=b"x", k=1), model.Sample(id="b", path=b"x", j="s")])
            else:
                model.Tortilla([model.Sample(id="a", path=b"x"), model.Sample(id="a", path=b"y")])
    assert issubclass(tacocore.TacoSchemaError, tacocore.TacoError)
    assert issubclass(tacocore.TacoSampleFileError, tacocore.TacoIOError)


def test_tortilla_takes_strict_schema_second_as_tacotoolbox():
    """tacotoolbox's Tortilla(samples, strict_schema): tacocore's second positional was pad_to,
    so Tortilla(samples, False) was 'pad_to must be an int or None'."""
    for model in (toolbox_model, tacocore):
        mixed = [model.Sample(id="a", path=b"x", k=1), model.Sample(id="b", path=b"x", j="s")]
        tortilla = model.Tortilla(mixed, False)
        assert len(tortilla.samples) == 2
    padded = tacocore.Tortilla([tacocore.Sample(id="a", path=b"x")], pad_to=3)
    assert len(padded.samples) == 3
    with pytest.raises(TypeError):
        tacocore.Tortilla([tacocore.Sample(id="a", path=b"x")], True, 3)  # pad_to is keyword-only


@pytest.mark.parametrize("kw", [dict(scale_factor=[1e-4] * 3, scale_offset=-0.1),
                                dict(scale_factor=[0.5, 2.0], scale_offset=[1.0])])
def test_scaling_with_one_offset_for_every_band_is_written_as_tacotoolbox(kw):
    """Refused before ('has 1 values but scale_factor has 3')."""
    from tacotoolbox.sample.extensions.scaling import Scaling as ToolboxScaling

    from tacocore.sample.extensions.scaling import Scaling

    rows = []
    for model, scaling in ((toolbox_model, ToolboxScaling), (tacocore, Scaling)):
        s = model.Sample(id="a", path=b"x")
        s.extend_with(scaling(**kw))
        rows.append(s.export_metadata().select(["scaling:scale_factor", "scaling:scale_offset"]).to_pylist())
    assert rows[0] == rows[1]


def test_extension_fields_read_as_attributes_and_model_dump(tmp_path):
    (tmp_path / "f.bin").write_bytes(b"x" * 11)
    dumps = []
    for model in (toolbox_model, tacocore):
        s = model.Sample(id="a", path=tmp_path / "f.bin", cloud=1.5, tags=["x", "y"])
        s.extend_with({"cc": 3})
        assert (s.cloud, s.tags, s.cc, getattr(s, "cc")) == (1.5, ["x", "y"], 3, 3)
        assert not hasattr(s, "nope")
        dumps.append(s.model_dump())
    assert dumps[0] == dumps[1]


def test_tortilla_private_depth_and_size_as_tacotoolbox():
    values = []
    for model in (toolbox_model, tacocore):
        inner = model.Tortilla([model.Sample(id=f"c{i}", path=bytes([65 + i]) * (i + 3)) for i in range(2)])
        outer = model.Tortilla([model.Sample(id="f", path=inner)])
        values.append((inner._current_depth, outer._current_depth, inner._size_bytes, outer._size_bytes))
    assert values[0] == values[1] == (0, 1, 7, 7)


def test_taco_extend_with_replaces_a_core_field_as_tacotoolbox(tmp_path):
    """Refused before ('is a core COLLECTION field'); tacotoolbox's only way to force an extent."""
    written = []
    for name, model, writer in (("ref", toolbox_model, tacotoolbox), ("core", tacocore, tacocore)):
        taco = build(model)
        taco.extend_with({"description": "overridden", "extent": {"spatial": [0.0, 0.0, 1.0, 1.0], "temporal": None}})
        writer.create(taco, str(tmp_path / f"{name}.tacozip"))
        doc = json.loads(zipfile.ZipFile(tmp_path / f"{name}.tacozip").read("COLLECTION.json"))
        written.append((doc["description"], doc["extent"]))
    assert written[0] == written[1] == ("overridden", {"spatial": [0.0, 0.0, 1.0, 1.0], "temporal": None})


@pytest.mark.parametrize("model", [tacotoolbox.datamodel, tacocore], ids=["tacotoolbox", "tacocore"])
def test_tortilla_copy_extended_leaves_the_original_as_it_was(model):
    import pyarrow as pa
    tortilla = model.Tortilla(samples=[model.Sample(id=f"s{i}", path=b"x" * 4) for i in range(3)])
    shallow, deep = copy.copy(tortilla), copy.deepcopy(tortilla)
    shallow.extend_with(lambda _t: pa.table({"v": [1, 2, 3]}))
    deep.extend_with(lambda _t: pa.table({"w": [1, 2, 3]}))
    assert tortilla.export_metadata().column_names == ["id", "type", "path"]
    assert shallow.export_metadata().column_names == ["id", "type", "path", "v"]
    assert deep.export_metadata().column_names == ["id", "type", "path", "w"]


def test_sample_copy_has_its_own_fields():
    kids = tacocore.Tortilla([tacocore.Sample(id="k", path=b"1", v=1)])
    for original in (tacocore.Sample(id="a", path=b"x", x=1), tacocore.Sample(id="f", path=kids)):
        for twin in (copy.copy(original), copy.deepcopy(original), original.model_copy()):
            twin.extend_with({"extra": True})
            assert "extra" not in original.metadata and twin.metadata["extra"] is True
            assert twin.id == original.id and twin.type == original.type
    updated = tacocore.Sample(id="a", path=b"x", x=1).model_copy(update={"x": 2, "y": "z"})
    assert updated.metadata == {"x": 2, "y": "z"}
    with pytest.raises(tacocore.TacoSchemaError, match="reserved core field"):
        tacocore.Sample(id="a", path=b"x").model_copy(update={"id": "b"})


@pytest.mark.parametrize("model", [tacotoolbox.datamodel, tacocore], ids=["tacotoolbox", "tacocore"])
def test_a_sample_taken_from_a_tortilla_and_extended_leaves_the_tortilla_as_it_was(model, tmp_path):
    tortilla = model.Tortilla(samples=[model.Sample(id=f"s{i}", path=b"x" * 4) for i in range(3)])
    tortilla.samples[0].extend_with({"x": 1})
    assert tortilla.export_metadata().column_names == ["id", "type", "path"]
    out = tmp_path / "out.tacozip"
    model_create = tacotoolbox.create if model is tacotoolbox.datamodel else tacocore.create
    model_create(model.Taco(tortilla=tortilla, **COLLECTION_DEFAULTS), str(out))
    assert list(tacoreader.load(str(out)).data.columns) == ["id", "type", "internal:gdal_vsi"]
