"""Error mapping: each taco::Error subclass raised in C++ arrives as the matching exception class
of tacocore (DESIGN.md §5), with the C++ message, and is catchable as TacoError."""

from __future__ import annotations

import pytest

import tacocore
from conftest import COLLECTION_DEFAULTS


def folder(name, ids):
    return tacocore.Sample(name, tacocore.Tortilla([tacocore.Sample(i, b"1") for i in ids]))


@pytest.fixture(scope="module")
def small_zip(tmp_path_factory):
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"x", v=1.0), tacocore.Sample("b", b"yy", v=2.0)]),
                         **COLLECTION_DEFAULTS)
    return str(tacocore.create(taco, tmp_path_factory.mktemp("err") / "small.tacozip")[0])


def scenarios(tmp_path, small_zip):
    junk = tmp_path / "junk.tacozip"
    junk.write_bytes(b"PK" + b"\0" * 300)
    bad_collection = tmp_path / "badcoll"
    (bad_collection / "METADATA").mkdir(parents=True)
    (bad_collection / "COLLECTION.json").write_text("{not json")
    old_v1 = tmp_path / "old.tortilla"
    old_v1.write_bytes(b"#y" + bytes(100))  # shorter than a v1 header
    existing = tmp_path / "exists.tacozip"
    existing.write_bytes(b"x")
    taco = tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"1")]), **COLLECTION_DEFAULTS)
    return [
        # IoError
        # (a TacoIOError that is also a TacoFormatError, as tacoreader raises for a missing directory)
        ("load a missing file", tacocore.TacoPathNotFoundError, lambda: tacocore.load(tmp_path / "missing.tacozip"),
         "missing.tacozip"),
        # (a TacoIOError that is also a ValueError, as tacotoolbox raises)
        ("sample from a missing file", tacocore.TacoSampleFileError, lambda: tacocore.Sample("a", tmp_path / "nofile"),
         "nofile"),
        ("create over an existing output", tacocore.TacoIOError, lambda: tacocore.create(taco, existing),
         "exists"),
        ("decode a non-raster", tacocore.TacoIOError, lambda: tacocore.load(small_zip).data.read_array("a"),
         "GDAL"),
        # FormatError
        ("load a directory without COLLECTION.json", tacocore.TacoFormatError, lambda: tacocore.load(tmp_path),
         "COLLECTION.json"),
        ("load a corrupt ZIP", tacocore.TacoFormatError, lambda: tacocore.load(junk), "junk.tacozip"),
        ("load malformed COLLECTION.json", tacocore.TacoFormatError, lambda: tacocore.load(bad_collection),
         "COLLECTION.json"),
        ("load a damaged legacy v1 file", tacocore.TacoFormatError, lambda: tacocore.load(old_v1),
         "legacy v1"),
        # SchemaError
        ("invalid sample id", tacocore.TacoSchemaError, lambda: tacocore.Sample("a/b", b"1"), "a/b"),
        ("invalid metadata key", tacocore.TacoSchemaError, lambda: tacocore.Sample("a", b"1", **{"x-y": 1}),
         "x-y"),
        ("unsupported value", tacocore.TacoSchemaError, lambda: tacocore.Sample("a", b"1", v=set()), "set"),
        ("duplicate ids", tacocore.TacoSchemaError,
         lambda: tacocore.Tortilla([tacocore.Sample("a", b"1"), tacocore.Sample("a", b"2")]), "'a'"),
        ("schema mismatch", tacocore.TacoSchemaError,
         lambda: tacocore.Tortilla([tacocore.Sample("a", b"1", v=1), tacocore.Sample("b", b"2", v="x")]), "'v'"),
        ("bad collection field", tacocore.TacoSchemaError,
         lambda: tacocore.Taco(tacocore.Tortilla([tacocore.Sample("a", b"1")]),
                               **{**COLLECTION_DEFAULTS, "licenses": "MIT"}), "licenses"),
        # PitError
        ("PIT-1 children differ", tacocore.TacoPitError,
         lambda: tacocore.Taco(tacocore.Tortilla([folder("f1", ["x", "y"]), folder("f2", ["x", "z"])]),
                               **COLLECTION_DEFAULTS), "f2"),
        ("PIT mixed root types", tacocore.TacoPitError,
         lambda: tacocore.Taco(tacocore.Tortilla([folder("f1", ["x"]), tacocore.Sample("f2", b"1")]),
                               **COLLECTION_DEFAULTS), "f2"),
        # QueryError
        ("unknown column", tacocore.TacoQueryError,
         lambda: tacocore.load(small_zip).sql("SELECT nope FROM data").data, "nope"),
        ("syntax error", tacocore.TacoQueryError, lambda: tacocore.load(small_zip).sql("SELEKT 1").data, "SELEKT"),
        ("count of a bad view", tacocore.TacoQueryError,
         lambda: tacocore.load(small_zip).sql("SELECT * FROM nowhere").count(), "nowhere"),
        # NavigationError
        ("position out of range", tacocore.TacoNavigationError, lambda: tacocore.load(small_zip).data.read(2), "2"),
        ("unknown id", tacocore.TacoNavigationError, lambda: tacocore.load(small_zip).data.read("zz"), "zz"),
        ("bytes of a position out of range", tacocore.TacoNavigationError,
         lambda: tacocore.load(small_zip).data.read_bytes(7), "7"),
    ]


def test_each_core_error_maps_to_its_python_class(tmp_path, small_zip):
    for what, cls, call, needle in scenarios(tmp_path, small_zip):
        with pytest.raises(tacocore.TacoError) as info:
            call()
            pytest.fail(f"{what}: no error")
        assert type(info.value) is cls, f"{what}: got {type(info.value).__name__}: {info.value}"
        assert needle in str(info.value), f"{what}: message does not name {needle!r}: {info.value}"
        assert str(info.value).strip()


def test_every_class_is_reached(tmp_path, small_zip):
    reached = {cls for _, cls, _, _ in scenarios(tmp_path, small_zip)}
    assert reached == {tacocore.TacoIOError, tacocore.TacoFormatError, tacocore.TacoSchemaError,
                       tacocore.TacoPitError, tacocore.TacoQueryError, tacocore.TacoNavigationError,
                       tacocore.TacoPathNotFoundError, tacocore.TacoSampleFileError}


def test_catching_by_base_class(small_zip):
    try:
        tacocore.load(small_zip).data.read(99)
    except tacocore.TacoError as exc:
        assert isinstance(exc, tacocore.TacoNavigationError)
    else:
        pytest.fail("no error")
    with pytest.raises(tacocore.TacoSchemaError):  # PitError is a SchemaError
        tacocore.Taco(tacocore.Tortilla([folder("f1", ["x"]), folder("f2", ["y"])]), **COLLECTION_DEFAULTS)


def test_python_side_errors_use_the_same_classes():
    with pytest.raises(tacocore.TacoQueryError):
        tacocore.load([])
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Sample("a", 12)
    with pytest.raises(tacocore.TacoSchemaError):
        tacocore.Tortilla([object()])


def test_errors_are_not_swallowed_by_background_threads(small_zip):
    """An error raised while the GIL is released still arrives as the right class."""
    import threading

    errors = []

    def worker():
        try:
            tacocore.load(small_zip).data.read("missing")
        except tacocore.TacoError as exc:
            errors.append(type(exc))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [tacocore.TacoNavigationError] * 4
