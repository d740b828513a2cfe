"""The package itself: public names, docstrings, type stubs, py.typed, the exception hierarchy."""

from __future__ import annotations

import ast
import inspect
import pathlib
import re

import pytest

import tacocore
from tacocore import _core

PUBLIC = [n for n in tacocore.__all__ if n != "__version__"]
EXCEPTIONS = ["TacoError", "TacoFormatError", "TacoSchemaError", "TacoPitError", "TacoQueryError",
              "TacoIOError", "TacoNavigationError"]


def test_public_names_exist():
    for name in tacocore.__all__:
        assert hasattr(tacocore, name), name
    expected = {"load", "TacoDataset", "TacoDataFrame", "Sample", "Tortilla", "Taco", "create", *EXCEPTIONS}
    assert expected <= set(tacocore.__all__)
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", tacocore.__version__)


def test_version_matches_distribution():
    import importlib.metadata

    assert importlib.metadata.version("tacocore") == tacocore.__version__


def test_exception_hierarchy():
    base = tacocore.TacoError
    assert issubclass(base, Exception)
    for name in EXCEPTIONS[1:]:
        cls = getattr(tacocore, name)
        assert issubclass(cls, base), name
        assert cls.__module__ == "tacocore"
        assert cls is getattr(_core, name)
    assert issubclass(tacocore.TacoPitError, tacocore.TacoSchemaError)
    # all distinct classes
    assert len({getattr(tacocore, n) for n in EXCEPTIONS}) == len(EXCEPTIONS)


def test_exceptions_pickle_by_their_public_name():
    """Errors cross process boundaries (multiprocessing, DataLoader workers) by name."""
    import pickle

    for name in EXCEPTIONS:
        exc = getattr(tacocore, name)("message")
        assert repr(exc) == f"{name}('message')"
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc) and str(back) == "message"


def test_exceptions_can_be_raised_and_caught_from_python():
    with pytest.raises(tacocore.TacoError, match="boom"):
        raise tacocore.TacoNavigationError("boom")


def test_datamodel_namespace_matches_tacotoolbox_layout():
    import tacocore.datamodel as dm

    assert dm.Sample is tacocore.Sample
    assert dm.Tortilla is tacocore.Tortilla
    assert dm.Taco is tacocore.Taco
    assert tacocore.datamodel is dm


def _doc(obj) -> str:
    if isinstance(obj, property):
        return obj.__doc__ or (obj.fget.__doc__ if obj.fget else "") or ""
    return getattr(obj, "__doc__", None) or ""


def _nanobind_doc(obj) -> str:
    """A nanobind function's __doc__ starts with its signature(s); keep only the prose."""
    doc = _doc(obj)
    lines = [ln for ln in doc.splitlines()
             if ln.strip() and not re.match(r"^\s*(\d+\. )?`*\w*\(.*\)( -> .*)?`*$", ln)
             and ln.strip() != "Overloaded function."]
    return "\n".join(lines)


def _members(cls):
    """Public members plus the dunders users call; constructors are documented by the class."""
    for name, value in vars(cls).items():
        if name.startswith("_") and name not in ("__arrow_c_stream__", "__len__", "__getitem__"):
            continue
        yield name, value


def test_every_public_name_has_a_docstring():
    missing = []
    assert (tacocore.__doc__ or "").strip()
    for name in PUBLIC:
        obj = getattr(tacocore, name)
        if not _doc(obj).strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, value in _members(obj):
                if not _doc(value).strip():
                    missing.append(f"{name}.{member}")
    # PITSchema is returned by TacoDataset.pit_schema: public too.
    from tacocore._reader import PITSchema

    for member, value in _members(PITSchema):
        if not _doc(value).strip():
            missing.append(f"PITSchema.{member}")
    assert not missing, f"public names without a docstring: {missing}"


def test_every_extension_name_has_a_docstring():
    """The native module is private, but its names show in the stubs and in help()."""
    missing = []
    assert (_core.__doc__ or "").strip()
    for name in dir(_core):
        if name.startswith("_"):
            continue
        obj = getattr(_core, name)
        if not _nanobind_doc(obj).strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for member, value in _members(obj):
                if not _nanobind_doc(value).strip():
                    missing.append(f"{name}.{member}")
    assert not missing, f"tacocore._core names without a docstring: {missing}"


def test_stub_and_py_typed_are_installed():
    pkg = pathlib.Path(tacocore.__file__).parent
    stub = pkg / "_core.pyi"
    assert stub.is_file(), "nanobind_add_stub output must be installed next to the extension"
    assert (pkg / "py.typed").is_file(), "py.typed marks the package as typed (PEP 561)"
    text = stub.read_text()
    for name in ("class Dataset", "class DataFrame", "class Sample", "class Tortilla", "class Taco",
                 "def load(", "def create(", "def read_array(", "def read_arrays(", "def validate("):
        assert name in text, name
    # the stub is valid Python and names exactly the module's public names
    tree = ast.parse(text, str(stub))
    defined = {node.name for node in tree.body if hasattr(node, "name")}
    defined |= {t.id for node in tree.body if isinstance(node, ast.Assign) for t in node.targets
                if isinstance(t, ast.Name)}
    public = {n for n in dir(_core) if not n.startswith("_")}
    assert public <= defined, public - defined
    for name in EXCEPTIONS:  # the exception classes are in the stub, with their bases
        assert re.search(rf"^class {name}\((Exception|Taco\w*Error)(, \w+Error)?\):", text, re.M), name


def test_repr_of_native_objects_does_not_crash(demo_datasets):
    ds = tacocore.load(demo_datasets["zip"])
    assert "demo" in repr(ds)
    assert "TacoDataFrame" in repr(ds.data)
    sample = tacocore.Sample("a", b"xyz", v=1)
    assert "Sample(id='a'" in repr(sample)
    assert "Tortilla(1 samples" in repr(tacocore.Tortilla([sample]))


def test_pydantic_is_needed_only_for_the_extension_base_classes():
    """tacocore does not depend on pydantic: without it the package, the tacotoolbox module
    layout and its COLLECTION models import, and only the base classes for a user's own
    extensions (tacotoolbox's are pydantic models) say what to install."""
    import subprocess
    import sys
    script = """
import sys
sys.modules["pydantic"] = None  # as if it were not installed
import tacocore
from tacocore.datamodel.taco import Provider, Curator, Extent, OpticalData
from tacocore.datamodel.sample import STAC
from tacocore.tortilla.extensions.majortom import MajorTOM
assert Provider(name="p").model_dump() == {"name": "p", "roles": None, "url": None, "links": None}
try:
    from tacocore.sample.datamodel import SampleExtension
except ImportError as e:
    print("refused:", e)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "refused: tacocore's SampleExtension / TortillaExtension / TacoExtension base classes are pydantic " \
           "models, as tacotoolbox's: pip install pydantic" in out.stdout
