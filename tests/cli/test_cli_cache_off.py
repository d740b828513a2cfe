"""`taco cache clear` / `taco cache dir` with the cache switched off (TACOCORE_CACHE_DIR=off)
say so, instead of naming a directory called "off"."""

from __future__ import annotations

import os
import subprocess

import pytest

from cli_support import TACO


@pytest.mark.parametrize("value", ["off", "0", "none"])
def test_cache_commands_say_the_cache_is_off(value):
    env = dict(os.environ, TACOCORE_CACHE_DIR=value)
    for sub, tail in (("clear", ": no cached entry to remove"), ("dir", "")):
        proc = subprocess.run([str(TACO), "cache", sub], capture_output=True, text=True, env=env, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == f"the cache is switched off (TACOCORE_CACHE_DIR={value}){tail}\n"


def test_cache_dir_names_the_directory_when_on(tmp_path):
    env = dict(os.environ, TACOCORE_CACHE_DIR=str(tmp_path / "c"))
    proc = subprocess.run([str(TACO), "cache", "dir"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.stdout == f"{tmp_path / 'c'}\n"
