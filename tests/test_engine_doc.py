"""The worked examples of docs/engine.md run as doctests, so the page says what the
code does."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

ENGINE_MD = Path(__file__).resolve().parents[1] / "docs" / "engine.md"


def test_the_examples_in_docs_engine_md_run() -> None:
    # the code fences would read as expected output: take them out, keep the lines
    text = re.sub(r"^```.*$", "", ENGINE_MD.read_text(encoding="utf-8"), flags=re.MULTILINE)
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/engine.md", str(ENGINE_MD), 0)
    assert len(test.examples) >= 30, "the page lost its examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
