"""One parametrized test over the page cases in tests/pages/<case>/.

Each case is ``source.html`` (raw bytes: UTF-8, GBK or GB2312, as a server
would send them) and ``expected.json``::

    {"title": exact, "published": exact ISO 8601 string or null,
     "is_article": bool, "must_contain": [...], "must_not_contain": [...]}

The expectations are what a reader of the page sees (headline, the date next
to it, the article paragraphs), never a copy of the extractor's output.
GBK pages are written in UTF-8 and converted, e.g.
``iconv -f utf-8 -t gbk page.html > tests/pages/<case>/source.html``.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from newscrawl.extract import extract

PAGES_DIR = Path(__file__).resolve().parent / "pages"
CASES = sorted(p.name for p in PAGES_DIR.iterdir() if (p / "expected.json").is_file())
_WS = re.compile(r"\s+")


def _squash(text: str) -> str:
    return _WS.sub(" ", text)


def test_there_are_enough_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("case", CASES)
def test_page_case(case: str):
    folder = PAGES_DIR / case
    expected = json.loads((folder / "expected.json").read_text(encoding="utf-8"))
    result = extract((folder / "source.html").read_bytes(), url=expected.get("url"))

    problems = []
    if result.title != expected["title"]:
        problems.append(f"title {result.title!r} != {expected['title']!r}")
    if result.published != expected["published"]:
        problems.append(f"published {result.published!r} != {expected['published']!r}")
    if result.is_article is not expected["is_article"]:
        problems.append(f"is_article {result.is_article} (reason={result.reason!r}, score={result.score})")
    text = _squash(result.text)
    missing = [s for s in expected["must_contain"] if _squash(s) not in text]
    if missing:
        problems.append(f"missing from text: {missing}")
    leaked = [s for s in expected["must_not_contain"] if _squash(s) in text]
    if leaked:
        problems.append(f"boilerplate in text: {leaked}")
    assert not problems, "\n".join(problems)
