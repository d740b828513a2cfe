"""The public C++ headers (include/taco/) as a user's program includes them: each compiles on
its own, warnings-clean under -Wall -Wextra -Wpedantic, as C++17 and as C++20 (the library itself
is built as C++20, a user's program need not be), and the umbrella header taco/taco.hpp declares
every public header's API.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
INCLUDE = REPO_ROOT / "include"
HEADERS = sorted(p.name for p in (INCLUDE / "taco").glob("*.hpp"))
CXX = shutil.which("c++") or shutil.which("g++")
if CXX is None:  # make build needs one too: an error that says so, not a skip
    raise RuntimeError("no C++ compiler (c++ or g++) on PATH; scripts/setup.sh installs g++")


def compile_source(tmp_path: Path, source: str, std: str) -> subprocess.CompletedProcess:
    src = tmp_path / "use.cpp"
    src.write_text(source)
    return subprocess.run([CXX, f"-std={std}", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                           f"-I{INCLUDE}", str(src)], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("header", HEADERS)
def test_each_public_header_compiles_alone_as_cxx17(tmp_path, header):
    proc = compile_source(tmp_path, f"#include <taco/{header}>\nint main() {{ return 0; }}\n", "c++17")
    assert proc.returncode == 0, proc.stderr


def test_the_umbrella_header_holds_every_public_header(tmp_path):
    umbrella = (INCLUDE / "taco" / "taco.hpp").read_text()
    missing = [h for h in HEADERS if h != "taco.hpp" and f'#include "taco/{h}"' not in umbrella]
    assert missing == [], f"taco/taco.hpp does not include {missing}"
    proc = compile_source(tmp_path, "#include <taco/taco.hpp>\n"
                          "using taco::dataset_card;\nusing taco::export_stac;\nint main() { return 0; }\n",
                          "c++20")
    assert proc.returncode == 0, proc.stderr
