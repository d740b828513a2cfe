"""tacocore.tacozip raises tacozip's codes on the same bad inputs, side by side with tacozip
itself (PyPI): handlers that switch on ``TacozipError.code`` behave the same."""

from __future__ import annotations

import zipfile

import pytest
import tacozip as ref  # the reference, from PyPI (scripts/setup_python.sh)

import tacocore.tacozip as ours


def code_of(fn, *args) -> int | str:
    try:
        fn(*args)
    except (ref.TacozipError, ours.TacozipError) as exc:
        return exc.code
    return "ok"


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.bin").write_bytes(b"A" * 100)
    ref.create("ok.zip", ["a.bin"], ["DATA/a"], [(0, 0)])
    (tmp_path / "trunc.zip").write_bytes((tmp_path / "ok.zip").read_bytes()[:100])
    (tmp_path / "empty.zip").write_bytes(b"")
    with zipfile.ZipFile(tmp_path / "plain.zip", "w") as z:
        z.writestr("x.txt", "x" * 300)
    (tmp_path / "srcdir").mkdir()
    return tmp_path


@pytest.mark.parametrize("fn, args, expected", [
    ("read_header", ("trunc.zip",), ref.TACOZ_ERR_IO),
    ("read_header", ("empty.zip",), ref.TACOZ_ERR_IO),
    ("update_header", ("plain.zip", [(1, 1)]), ref.TACOZ_ERR_NOT_FOUND),
    ("create", ("o.zip", ["srcdir"]), ref.TACOZ_ERR_LIBZIP),
    ("create", ("no_such_dir/sub/x.zip", ["a.bin"]), ref.TACOZ_ERR_LIBZIP),
])
def test_the_same_code_as_tacozip(inputs, fn, args, expected):
    assert code_of(getattr(ref, fn), *args) == expected
    assert code_of(getattr(ours, fn), *args) == expected
    assert not (inputs / "no_such_dir").exists() and not (inputs / "o.zip").exists()
