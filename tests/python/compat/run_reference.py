"""Runs a reference-style script with the real tacotoolbox / tacoreader.

    python run_reference.py SCRIPT ARGS...

The script's text is not touched. One environment tweak, as in bench/common.py: tacoreader
runs `INSTALL spatial` on every load(), and offline DuckDB then waits ~0.55 s for the extension
server each time; an empty local extension repository fails at once with the same result (the
scripts do not use the spatial extension).
"""
import runpy
import sys

import duckdb

_connect = duckdb.connect


def offline_connect(*args, **kwargs):
    db = _connect(*args, **kwargs)
    db.execute("SET custom_extension_repository = '/nonexistent/tacocore-compat'")
    return db


duckdb.connect = offline_connect

if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")
