"""tacotoolbox's public surface under tacocore's name: every public module of tacotoolbox 0.26.9
imports as ``tacocore.<same path>`` and has the same public classes and functions, except the
few listed below with the reason. A tacotoolbox script whose imports change from ``tacotoolbox``
to ``tacocore`` finds every name it imports; and tacotoolbox's COLLECTION models
(Provider, Curator, Extent) are written as tacotoolbox writes them."""

from __future__ import annotations

import importlib
import inspect
import json
import pkgutil
import zipfile

import pytest

import tacocore

tacotoolbox = pytest.importorskip("tacotoolbox")

NOT_PROVIDED = {
    "tacotoolbox.sample.validators": "TacotiffValidator (tacotoolbox's own runs on tacocore samples)",
    "tacotoolbox.sample.validators.tacotiff": "TacotiffValidator (as above)",
    "tacotoolbox.tortilla.extensions.geoenrich": "GeoEnrich reads Google Earth Engine",
    "tacotoolbox.validator": "empty modules in tacotoolbox",
    "tacotoolbox.validator.sample": "empty",
    "tacotoolbox.validator.taco": "empty",
    "tacotoolbox.validator.tortilla": "empty",
}
# Names that tacotoolbox's modules hold but that are not part of what they offer: helpers
# imported from elsewhere, module constants, and the re-export of the not-provided ones above.
NOT_PROVIDED_NAMES = {"GeoEnrich", "TacoCatWriter", "normalize_coords", "morton_encode",
                      "compute_z_order", "raster_centroid", "geometry_centroid", "align_arrow_schemas"}


def public_modules():
    for info in pkgutil.walk_packages(tacotoolbox.__path__, "tacotoolbox."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            yield info.name


def offered_names(module) -> set:
    """The classes and functions a tacotoolbox module offers: those it defines and its __all__;
    for a module that only gathers names from others (tacotoolbox.datamodel.*), all it imports
    from tacotoolbox."""
    defined, gathered = set(), set()
    for name, value in vars(module).items():
        if name.startswith("_") or name in NOT_PROVIDED_NAMES:
            continue
        if (inspect.isclass(value) or inspect.isfunction(value)) and value.__module__.startswith("tacotoolbox"):
            (defined if value.__module__ == module.__name__ else gathered).add(name)
    if not defined:
        return gathered
    return defined | (set(getattr(module, "__all__", ())) - NOT_PROVIDED_NAMES)


@pytest.mark.parametrize("name", sorted(set(public_modules()) - set(NOT_PROVIDED)))
def test_module_and_its_names_exist_under_tacocore(name):
    theirs = importlib.import_module(name)
    ours = importlib.import_module("tacocore" + name[len("tacotoolbox"):])
    missing = sorted(n for n in offered_names(theirs) if not hasattr(ours, n))
    assert not missing, f"{ours.__name__} lacks {missing}"


def test_the_not_provided_list_is_current():
    assert set(NOT_PROVIDED) <= set(public_modules())


def test_create_is_a_function_and_a_module_as_in_tacotoolbox():
    from tacocore.create import create

    assert tacocore.create is create and inspect.isfunction(tacocore.create)


def test_submodules_are_attributes_as_in_tacotoolbox():
    assert tacocore.datamodel.taco.Provider is tacocore.taco.datamodel.Provider
    assert tacocore.datamodel.sample.STAC is tacocore.STAC
    assert tacocore.datamodel.tortilla.MajorTOM is tacocore.MajorTOM


def collection_of(mod, tmp_path, **fields):
    S, T, C = mod.datamodel.Sample, mod.datamodel.Tortilla, mod.datamodel.Taco
    taco = C(tortilla=T([S(id="a", path=b"x")]), id="models", dataset_version="1", description="d",
             licenses=["CC-BY-4.0"], tasks=["other"], **fields)
    out = tmp_path / f"{mod.__name__}.tacozip"
    mod.create(taco, str(out))
    with zipfile.ZipFile(out) as z:
        return json.loads(z.read("COLLECTION.json"))


def test_collection_models_are_written_as_tacotoolbox_writes_them(tmp_path):
    from tacotoolbox.datamodel import taco as theirs

    from tacocore.datamodel import taco as ours

    def fields(m):
        return {"providers": [m.Provider(name="p"), m.Provider(name="q", roles=["host"], url="https://q.org",
                                                               links=[{"href": "https://q.org/a", "rel": "about"}])],
                "curators": [m.Curator(name="c", email="c@x.org"), m.Curator(organization="o")]}

    ref, got = collection_of(tacotoolbox, tmp_path, **fields(theirs)), collection_of(tacocore, tmp_path, **fields(ours))
    assert got["providers"] == ref["providers"]
    assert got["curators"] == ref["curators"]
    assert ref["providers"][0] == {"name": "p", "roles": None, "url": None, "links": None}  # what is compared


@pytest.mark.parametrize("model,kwargs", [
    ("Provider", {"name": "p", "url": "ftp://x"}),
    ("Curator", {}),
    ("Curator", {"name": "c", "email": "no-at"}),
    ("Extent", {"spatial": [0, 0, 1]}),
    ("Extent", {"spatial": [0, 10, 1, 5]}),
    ("Extent", {"spatial": [-181, 0, 1, 1]}),
    ("Extent", {"spatial": [0, 0, 1, 1], "temporal": ["2024-01-02T00:00:00Z", "2024-01-01T00:00:00Z"]}),
    ("Extent", {"spatial": [0, 0, 1, 1], "temporal": ["yesterday", "today"]}),
])
def test_collection_models_refuse_what_tacotoolbox_refuses(model, kwargs):
    from tacotoolbox.datamodel import taco as theirs

    from tacocore.datamodel import taco as ours
    with pytest.raises(ValueError):
        getattr(theirs, model)(**kwargs)
    with pytest.raises(ValueError):
        getattr(ours, model)(**kwargs)


def test_an_extent_model_is_kept(tmp_path):
    from tacocore.datamodel.taco import Extent
    extent = Extent(spatial=[-10, 35, 5, 44], temporal=["2024-01-01T00:00:00Z", "2024-12-31T00:00:00Z"])
    assert extent.model_dump() == {"spatial": [-10.0, 35.0, 5.0, 44.0],
                                   "temporal": ["2024-01-01T00:00:00Z", "2024-12-31T00:00:00Z"]}
    assert collection_of(tacocore, tmp_path, providers=[{"name": "p"}], extent=extent)["extent"] == extent.model_dump()
