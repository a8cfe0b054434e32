"""The examples in the package's docstrings run and give what they show.

Every module of newscrawl/ whose source holds a ``>>>`` example is found by reading the files (a new
example is run without being listed here) and run with doctest.
"""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "newscrawl"


def _modules_with_examples() -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
            found.append(".".join(parts).removesuffix(".__init__"))
    return found


MODULES = _modules_with_examples()


def test_the_package_has_examples():
    assert {"newscrawl.extract", "newscrawl.extract.options"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_pass(name):
    results = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False,
                              report=False)
    assert results.attempted > 0, f"{name}: no example was run"
    assert results.failed == 0, f"{name}: {results.failed} of {results.attempted} examples failed (run " \
                                f"python -m doctest -v on its file to see which)"
