"""The examples in README.md and docs/*.md run and print what they say.

Plain ``python`` blocks are executed in order, then the file's ``>>>`` examples are checked as
doctests in the same namespace (so a block can define a game that the examples use).
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
FENCE = re.compile(r"^```.*$", re.M)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda path: path.name)
def test_examples_run(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"docs_{path.stem}"}
    for block in PYTHON_BLOCK.findall(text):
        exec(compile(block, str(path), "exec"), namespace)
    parser = doctest.DocTestParser()
    # A closing fence would read as expected output: blank the fence lines out.
    examples = FENCE.sub("", text)
    test = parser.get_doctest(examples, namespace, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} example(s) in {path.name} failed"
