"""Pathological pages finish in bounded time: a result, or no article with reason ``too_large``.

Bounds come from ExtractOptions (max_input_chars, max_elements, max_attributes_per_element,
max_seconds). Times are asserted loosely (CI machines are noisy); each case takes well under
a few seconds here.
"""
from __future__ import annotations

import time

import pytest

from newscrawl.extract import extract
from newscrawl.extract.limits import too_many_attributes

BOUND_SECONDS = 60
ARTICLE = ("<html><head><title>Bridge reopens</title></head><body><article><h1>Bridge reopens</h1>"
           + "<p>The old bridge over the river reopened on Monday after two years of repairs, the council said, "
             "and the first buses crossed it at dawn.</p>" * 6 + "</article></body></html>")


def _timed(html, **options):
    started = time.monotonic()
    result = extract(html, **options)
    return result, time.monotonic() - started


def _million_elements() -> str:
    return "<html><body>" + "<b>a</b>" * 1_000_000 + "</body></html>"


def _deep_nesting() -> str:
    return "<html><body>" + "<div>" * 100_000 + "deep text. " * 20 + "</div>" * 100_000 + "</body></html>"


def _twenty_mb_text_node() -> str:
    return "<html><body><p>" + "word, " * 3_500_000 + "</p></body></html>"


def _million_attributes() -> str:
    return "<html><body><div " + " ".join(f"a{i}=x" for i in range(1_000_000)) + ">hi</div></body></html>"


@pytest.mark.parametrize("build", [_million_elements, _deep_nesting, _twenty_mb_text_node, _million_attributes],
                         ids=["1M elements", "100k deep", "20 MB text node", "1M attributes"])
def test_pathological_page_finishes_in_bounded_time(build):
    result, elapsed = _timed(build())
    assert elapsed < BOUND_SECONDS, f"{elapsed:.1f} s"
    assert result.is_article or result.reason in ("too_large", "no_body", "too_short", "not_article")
    assert result.reason == "too_large" or build is _deep_nesting


def test_twenty_mb_text_node_under_a_raised_size_cap_still_finishes():
    result, elapsed = _timed(_twenty_mb_text_node(), max_input_chars=30_000_000)
    assert elapsed < BOUND_SECONDS, f"{elapsed:.1f} s"
    assert isinstance(result.reason, (str, type(None)))


def test_element_limit_is_checked_right_after_parsing():
    html = "<html><body>" + "<p>x.</p>" * 5_000 + "</body></html>"
    result, elapsed = _timed(html, max_elements=1_000)
    assert result.reason == "too_large" and elapsed < BOUND_SECONDS


def test_time_budget_gives_too_large():
    assert extract(ARTICLE).is_article
    assert extract(ARTICLE, max_seconds=0.0).reason == "too_large"


def test_attribute_limit_is_an_option():
    tag = "<div " + " ".join(f"a{i}=x" for i in range(3_000)) + ">"
    assert too_many_attributes(tag, 2_000)
    assert not too_many_attributes(tag, 5_000)
    # a long tag made of one big data: URI is not many attributes
    assert not too_many_attributes('<img src="data:image/png;base64,' + "QUJD" * 5_000 + '==">', 2_000)
    assert too_many_attributes("<p " + 'a="1" ' * 3_000, 2_000)   # a tag cut off by the end of the page
    assert not too_many_attributes("<p>" + "a=1 " * 3_000, 2_000)   # text, not a tag
    assert extract(f"<html><body>{tag}{ARTICLE}</body></html>").reason == "too_large"
