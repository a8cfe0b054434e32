"""A test marked needs_redis / needs_browser / needs_fastwalk skips when its tool is missing, and
fails instead where the tool's switch is 1 (CI sets the switches for what it installs; conftest.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TOOLS

pytest_plugins = ("pytester",)

CONFTEST = Path(__file__).with_name("conftest.py").read_text(encoding="utf-8")
# The real conftest, with every tool reported missing.
EVERY_TOOL_MISSING = CONFTEST + (
    "\nimport dataclasses\n"
    "TOOLS = {name: dataclasses.replace(tool, present=lambda: False) for name, tool in TOOLS.items()}\n")


@pytest.mark.parametrize("marker", sorted(TOOLS))
def test_a_missing_tool_skips_and_with_its_switch_fails(pytester, monkeypatch, marker):
    switch = TOOLS[marker].switch
    pytester.makeconftest(EVERY_TOOL_MISSING)
    pytester.makepyfile(test_needs=f"import pytest\n\n@pytest.mark.{marker}\ndef test_it():\n    pass\n")
    monkeypatch.delenv(switch, raising=False)
    skipped = pytester.runpytest_subprocess("-rs", "-p", "no:cacheprovider")
    skipped.assert_outcomes(skipped=1)
    assert f"set {switch}=1 to fail instead" in skipped.stdout.str()
    monkeypatch.setenv(switch, "1")
    failed = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    failed.assert_outcomes(errors=1)
    assert f"and {switch}=1 requires it" in failed.stdout.str()
    assert failed.ret != 0


def test_the_switches_are_the_ones_ci_sets():
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text(encoding="utf-8")
    exported = {word for line in ci.splitlines() if line.startswith("export ") for word in line.split()[1:]}
    for tool in TOOLS.values():
        assert f"{tool.switch}=1" in exported, tool.switch
