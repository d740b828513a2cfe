"""Runs a reference-style script with tacocore standing in for tacotoolbox and tacoreader.

    python shim.py SCRIPT ARGS...

The script's text is not touched: `import tacotoolbox`, `from tacotoolbox.datamodel import
Sample, Taco, Tortilla` and `import tacoreader` resolve to tacocore through sys.modules before it
runs. `tacoreader._exceptions` and `tacoreader.schema` resolve to the tacocore modules of the same
name. The only difference of layout: tacotoolbox keeps its classes in the sub-module
`tacotoolbox.datamodel`, tacocore has them at the top level and in `tacocore.datamodel`, so with
a plain `import tacocore as tacotoolbox` the spelling `tacotoolbox.datamodel.Sample` works too.
After the script, reports on stderr which real reference modules were imported (none may be).
"""
import runpy
import sys

import tacocore
import tacocore._exceptions
import tacocore.datamodel
import tacocore.schema

sys.modules["tacotoolbox"] = tacocore
sys.modules["tacotoolbox.datamodel"] = tacocore.datamodel
sys.modules["tacoreader"] = tacocore
# tacoreader's public sub-modules with the same layout in tacocore.
sys.modules["tacoreader._exceptions"] = tacocore._exceptions
sys.modules["tacoreader.schema"] = tacocore.schema

if __name__ == "__main__":
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        leaked = sorted(m for m in sys.modules
                        if m.split(".")[0] in ("tacotoolbox", "tacoreader", "tacozip", "duckdb")
                        and sys.modules[m] not in (tacocore, tacocore.datamodel, tacocore._exceptions,
                                                   tacocore.schema))
        print(f"shim: tacocore {tacocore.__file__}; reference modules imported: {leaked}", file=sys.stderr)
