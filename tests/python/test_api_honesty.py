"""The Python API where a demanding user found it wrong (session 25's hunt): pickles that open
other files, arguments that leaked nanobind's text, tacotoolbox's positional order, Ctrl-C in
read_arrays, tacoreader.v1's exception types, and interrupt() from another thread."""

from __future__ import annotations

import inspect
import math
import os
import pickle
import shutil
import signal
import threading
import time

import pytest

import tacocore
from conftest import FIXTURES

FLAT = FIXTURES / "tacoreader/zip/flat/flat.tacozip"
NESTED = FIXTURES / "tacoreader/zip/nested/nested.tacozip"
SIMPLE = FIXTURES / "tacotoolbox/zip/simple/simple.tacozip"


def test_a_dataset_loaded_by_a_relative_path_unpickles_to_the_same_files(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(FLAT, tmp_path / "a" / "ds.tacozip")
    shutil.copy(NESTED, tmp_path / "b" / "ds.tacozip")  # the same relative name, other data
    monkeypatch.chdir(tmp_path / "a")
    ds = tacocore.load("ds.tacozip")
    ids = ds.data["id"].to_pylist()
    blob = pickle.dumps(ds)
    monkeypatch.chdir(tmp_path / "b")
    assert pickle.loads(blob).data["id"].to_pylist() == ids


def test_a_frame_whose_paths_name_this_process_descriptors_refuses_to_pickle(tmp_path):
    # A directory whose name is not UTF-8 is reached through /proc/self/fd/N (USER-GUIDE §8):
    # another process's descriptor N is another file, so such rows must not travel.
    odd = os.fsencode(tmp_path) + b"/nu\xff"
    os.makedirs(odd)
    shutil.copy(FLAT, odd + b"/flat.tacozip")
    ds = tacocore.load(odd + b"/flat.tacozip")
    assert "/proc/self/fd/" in ds.data["internal:gdal_vsi"].to_pylist()[0]
    with pytest.raises(TypeError, match="/proc/self/fd/"):
        pickle.dumps(ds.data)
    assert pickle.loads(pickle.dumps(ds)).data.read_bytes(0) == ds.data.read_bytes(0)


@pytest.mark.parametrize("kwargs, error, needle", [
    ({"pad_to": 1.5}, TypeError, "pad_to must be an int or None, not float"),
    ({"pad_to": "4"}, TypeError, "pad_to must be an int or None, not str"),
    ({"pad_to": True}, TypeError, "pad_to must be an int or None, not bool"),
    ({"pad_to": -1}, tacocore.TacoSchemaError, "pad_to must be at least 1, not -1"),
    ({"strict_schema": 1}, TypeError, "strict_schema must be True or False, not int"),
])
def test_tortilla_arguments_are_checked_in_python_words(kwargs, error, needle):
    s = tacocore.Sample(id="a", path=b"x")
    with pytest.raises(error, match=needle) as info:
        tacocore.Tortilla([s], **kwargs)
    assert "nanobind" not in str(info.value) and "incompatible function arguments" not in str(info.value)


def test_create_takes_tacotoolboxs_positional_order_and_a_taco_only(tmp_path):
    import tacotoolbox
    ours = list(inspect.signature(tacocore.create).parameters)
    theirs = list(inspect.signature(tacotoolbox.create).parameters)
    positional = [p for p in theirs if p not in ("kwargs",)]
    assert ours[:len(positional)] == positional
    with pytest.raises(TypeError, match="takes a tacocore.Taco as its first argument, not str"):
        tacocore.create("not a taco", tmp_path / "x.tacozip")


@pytest.mark.parametrize("timeout", [-1, math.nan, math.inf, "10"])
def test_a_timeout_no_query_could_have_is_a_value_error(timeout):
    with pytest.raises(ValueError, match="timeout must be a number of seconds >= 0"):
        tacocore.load(str(FLAT), timeout=timeout)


def test_a_memory_limit_duckdb_cannot_read_names_the_option():
    with pytest.raises(tacocore.TacoQueryError, match="memory_limit 'lots' is not a size"):
        tacocore.load(str(FLAT), memory_limit="lots")


def test_interrupt_from_another_thread_is_public():
    ds = tacocore.load(str(FLAT))
    ds.interrupt()  # nothing running: harmless
    assert len(ds.data) == 5


def test_ctrl_c_stops_read_arrays_as_a_keyboard_interrupt():
    ds = tacocore.load(str(SIMPLE))
    keys = [0, 1, 2, 3] * 3000  # ~10 s of decoding on one core
    # Python's own handler, whatever an earlier test in this worker process installed (one run
    # of the whole suite saw the signal raise nothing).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            ds.data.read_arrays(keys, threads=2)
        assert time.monotonic() - start < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_v1_missing_files_raise_what_tacoreader_v1_raises(tmp_path):
    from tacocore import v1

    missing = str(tmp_path / "nope.taco")
    for call in (v1.load, v1.load_metadata):
        with pytest.raises(FileNotFoundError) as info:
            call(missing)
        # tacoreader.v1.load raises ValueError there, load_metadata FileNotFoundError: both catch it,
        # and so do tacocore's own handlers.
        assert isinstance(info.value, ValueError) and isinstance(info.value, tacocore.TacoIOError)
        assert info.value.filename == missing
