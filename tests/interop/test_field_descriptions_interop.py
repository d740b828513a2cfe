"""Column descriptions in COLLECTION.json's taco:field_schema come from the extensions that added
the columns, as tacotoolbox's writer collects them: a user's own SampleExtension and
TortillaExtension (their get_field_descriptions()), at every level, a popped column's text gone
with it, and the texts of columns given as a dict or a table left empty. The same script written
by tacotoolbox and by tacocore gives the same taco:field_schema."""

from __future__ import annotations

import json
import pickle
import zipfile

import pyarrow as pa
import pytest

import tacocore

tacotoolbox = pytest.importorskip("tacotoolbox")
from tacotoolbox.sample.datamodel import SampleExtension as ToolboxSampleExtension  # noqa: E402
from tacotoolbox.taco.datamodel import TacoExtension as ToolboxTacoExtension  # noqa: E402
from tacotoolbox.tortilla.datamodel import TortillaExtension as ToolboxTortillaExtension  # noqa: E402

from tacocore.sample.datamodel import SampleExtension  # noqa: E402
from tacocore.taco.datamodel import TacoExtension  # noqa: E402
from tacocore.tortilla.datamodel import TortillaExtension  # noqa: E402


def extension_classes(sample_base, tortilla_base, taco_base):
    """A user's extensions, written as tacotoolbox's documentation shows, over the given bases."""

    class CloudCover(sample_base):
        percent: float = 0.0

        def get_schema(self) -> pa.Schema:
            return pa.schema([pa.field("cloud:cover", pa.float32()), pa.field("cloud:flag", pa.bool_())])

        def get_field_descriptions(self) -> dict[str, str]:
            return {"cloud:cover": "Cloudy pixels (%)", "cloud:flag": "True when cloudier than 50 %"}

        def _compute(self, sample) -> pa.Table:
            return pa.Table.from_pydict({"cloud:cover": [self.percent], "cloud:flag": [self.percent > 50]},
                                        schema=self.get_schema())

    class Rank(tortilla_base):
        def get_schema(self) -> pa.Schema:
            return pa.schema([pa.field("rank", pa.int64())])

        def get_field_descriptions(self) -> dict[str, str]:
            return {"rank": "Position of the sample in its tortilla"}

        def _compute(self, tortilla) -> pa.Table:
            return pa.table({"rank": list(range(tortilla._metadata_table.num_rows))})

    class Score(taco_base):
        level: int = 3

        def get_schema(self) -> pa.Schema:
            return pa.schema([pa.field("mine:score", pa.int64())])

        def get_field_descriptions(self) -> dict[str, str]:
            return {"mine:score": "A score"}

        def _compute(self, taco) -> pa.Table:
            return pa.table({"mine:score": [self.level * 10]})

    return CloudCover, Rank, Score


TOOLBOX_BASES = extension_classes(ToolboxSampleExtension, ToolboxTortillaExtension, ToolboxTacoExtension)


def build(mod, classes=TOOLBOX_BASES, *, pop_flag=False):
    CloudCover, Rank, Score = classes
    Sample, Tortilla, Taco = mod.datamodel.Sample, mod.datamodel.Tortilla, mod.datamodel.Taco
    folders = []
    for f in range(2):
        children = []
        for c in range(2):
            s = Sample(id=f"c{c}", path=b"x" * (c + 1))
            s.extend_with(CloudCover(percent=30.0 * c))
            if pop_flag:  # popped and given again from a dict: its description went with the pop
                s.pop("cloud:flag")
                s.extend_with({"cloud:flag": c > 0})
            s.extend_with({"plain": c})  # a dict: no description
            children.append(s)
        folder = Sample(id=f"f{f}", path=Tortilla(children))
        folder.extend_with(pa.table({"region": [f"r{f}"]}))  # a table: no description
        folders.append(folder)
    root = Tortilla(folders)
    root.extend_with(Rank())
    taco = Taco(tortilla=root, id="described", dataset_version="1.0.0", description="d",
                licenses=["CC-BY-4.0"], providers=[{"name": "p"}], tasks=["classification"])
    taco.extend_with(Score(level=4))
    return taco


def collection(path):
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("COLLECTION.json"))


@pytest.mark.parametrize("bases", ["tacotoolbox", "tacocore"])
@pytest.mark.parametrize("pop_flag", [False, True])
def test_field_schema_equals_tacotoolbox(tmp_path, pop_flag, bases):
    """tacocore writes tacotoolbox's texts, with the user's extensions subclassing tacotoolbox's
    base classes or tacocore's (the same script after the change of package name)."""
    ours_classes = TOOLBOX_BASES if bases == "tacotoolbox" else extension_classes(
        SampleExtension, TortillaExtension, TacoExtension)
    tacotoolbox.create(build(tacotoolbox, pop_flag=pop_flag), str(tmp_path / "ref.tacozip"))
    tacocore.create(build(tacocore, ours_classes, pop_flag=pop_flag), str(tmp_path / "ours.tacozip"))
    ref, ours = collection(tmp_path / "ref.tacozip"), collection(tmp_path / "ours.tacozip")
    assert ours["taco:field_schema"] == ref["taco:field_schema"]
    texts = {name: text for level in ref["taco:field_schema"].values() for name, _, text in level}
    assert texts["cloud:cover"] == "Cloudy pixels (%)" and texts["rank"]  # what is compared
    assert texts["plain"] == "" and texts["region"] == ""
    assert texts["cloud:flag"] == ("" if pop_flag else "True when cloudier than 50 %")
    assert ref["mine:score"] == ours["mine:score"] == 40  # the TacoExtension computed, not dumped
    assert "level" not in ours


def test_schema_only_gives_typed_nulls_as_tacotoolbox():
    CloudCover, _, _ = extension_classes(SampleExtension, TortillaExtension, TacoExtension)
    ours = tacocore.Sample("s", b"x")
    ours.extend_with(CloudCover(return_none=True))
    ref = tacotoolbox.datamodel.Sample(id="s", path=b"x")
    ref.extend_with(TOOLBOX_BASES[0](return_none=True))
    assert ours.export_metadata().select(["cloud:cover", "cloud:flag"]).to_pylist() == [
        {"cloud:cover": None, "cloud:flag": None}]
    assert ours.export_metadata().schema.field("cloud:cover").type == pa.float32()
    assert ref.export_metadata().select(["cloud:cover", "cloud:flag"]).to_pylist() == [
        {"cloud:cover": None, "cloud:flag": None}]


def test_descriptions_survive_pickling(tmp_path):
    taco = pickle.loads(pickle.dumps(build(tacocore)))
    tacocore.create(taco, str(tmp_path / "ours.tacozip"))
    texts = {name: text for level in collection(tmp_path / "ours.tacozip")["taco:field_schema"].values()
             for name, _, text in level}
    assert texts["cloud:cover"] == "Cloudy pixels (%)" and texts["rank"] == "Position of the sample in its tortilla"
    sample = tacocore.Sample("s", b"x")
    sample.extend_with(TOOLBOX_BASES[0](percent=1.0))
    again = pickle.loads(pickle.dumps(sample))
    assert again._descriptions == {"cloud:cover": "Cloudy pixels (%)", "cloud:flag": "True when cloudier than 50 %"}
