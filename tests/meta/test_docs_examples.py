"""The C++ examples of the docs are the compiled ones: USER-GUIDE §3's code block must be,
line for line, the marked part of examples/cpp/user_guide.cpp, which `make test` builds and runs
(scripts/run_tests.sh). A guide example nobody compiled once set a column on the wrong level and
failed on its first statement."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _code_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#include")]


def test_user_guide_cpp_block_is_the_compiled_example():
    guide = (ROOT / "docs" / "USER-GUIDE.md").read_text()
    section = guide[guide.index("## 3. C++"):guide.index("## 4. Python")]
    block = re.search(r"```cpp\n(.*?)```", section, re.S).group(1)
    example = (ROOT / "examples" / "cpp" / "user_guide.cpp").read_text()
    marked = example[example.index("// --- USER-GUIDE §3 begin ---") + 31:
                     example.index("// --- USER-GUIDE §3 end ---")]
    assert _code_lines(block) == _code_lines(marked)
