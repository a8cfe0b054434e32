"""benchmarks/compiled_parity.py: both walks extract the test pages alike, and a difference is named."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "benchmarks"))
import compiled_parity  # noqa: E402 - the benchmark script, imported from its folder


def test_a_differing_field_is_named_for_its_page():
    compiled = {"a.html": {"title": "T", "score": 0.5}, "b.html": {"title": "U"}}
    python = {"a.html": {"title": "T", "score": 0.50000001}, "c.html": {"title": "V"}}
    assert compiled_parity.differences(compiled, python) == {"a.html": ["score"], "b.html": ["title"],
                                                             "c.html": ["title"]}


@pytest.mark.needs_fastwalk
def test_the_test_pages_give_identical_results_with_both_walks():
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "compiled_parity.py"),
                           "--pages", str(REPO / "tests" / "pages")], capture_output=True, text=True, timeout=300)
    count = len(list((REPO / "tests" / "pages").glob("*/source.html")))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.endswith(f"{count} pages in {REPO / 'tests' / 'pages'}: {count} identical, 0 different\n")


def test_without_shared_data_it_says_so_and_passes(tmp_path):
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "compiled_parity.py"), "--shared",
                           str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, f"skipped: no evaluation pages at {tmp_path} "
                                                 f"(expected {tmp_path}/eval and {tmp_path}/meta)\n")
