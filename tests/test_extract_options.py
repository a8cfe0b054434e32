"""Options given to ``extract`` reach every step that reads them: the date search too."""
from __future__ import annotations

import dataclasses

import pytest

from newscrawl.extract import ExtractOptions, extract

PROSE = ("The council met on a wet evening to hear the engineers explain the plan for the river wall, "
         "and the questions ran long into the night, as residents asked about cost, noise and delays. ")


def _page(head: str = "", tail: str = "") -> str:
    paragraphs = "".join(f"<p>{PROSE}</p>" for _ in range(12))
    return (f"<html><head><title>River wall plan agreed</title>{head}</head><body>"
            f"<h1>River wall plan agreed</h1>{paragraphs}{tail}</body></html>")


def test_date_bounds_follow_the_options():
    page = _page(head='<meta property="article:published_time" content="1999-05-06T10:00:00+01:00">')
    assert extract(page).published == "1999-05-06T10:00:00+01:00"
    assert extract(page, date_min_year=2000).published is None


def test_text_scan_reach_follows_the_options():
    page = _page(tail="<div class='note'>Published: 2019-03-04</div>")   # after ~2,300 chars of prose
    assert extract(page).published == "2019-03-04"
    assert extract(page, date_text_scan_chars=1_000).published is None


def test_one_headline_search_per_page_with_options_given(monkeypatch):
    """The title, date and author searches share the headline found with the caller's options."""
    from newscrawl.extract import title
    calls = []
    original = title.find_headline_element
    monkeypatch.setattr(title, "find_headline_element", lambda *a, **k: calls.append(1) or original(*a, **k))
    page = _page(tail="<p class='byline'>By Ann Lee, 4 March 2019</p>")
    result = extract(page, title_min_chars=5)
    assert result.title == "River wall plan agreed"
    assert len(calls) == 1


OLD_DATE_PAGE = _page(head='<meta property="article:published_time" content="1999-05-06T10:00:00+01:00">')


def test_an_options_object_is_used_as_given():
    options = ExtractOptions(date_min_year=2000)
    assert extract(OLD_DATE_PAGE, options=options).published is None
    assert extract(OLD_DATE_PAGE, options=ExtractOptions()).published == "1999-05-06T10:00:00+01:00"


def test_keyword_overrides_replace_single_options_of_the_object():
    strict = ExtractOptions(date_min_year=2000)
    assert extract(OLD_DATE_PAGE, options=strict, date_min_year=1990).published == "1999-05-06T10:00:00+01:00"
    assert strict.date_min_year == 2000   # the caller's object is not changed
    with pytest.raises(dataclasses.FrozenInstanceError):
        strict.date_min_year = 1990


def test_an_unknown_override_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="unknown extract option.*date_min_yaer"):
        extract(OLD_DATE_PAGE, options=ExtractOptions(), date_min_yaer=2000)


def test_options_that_are_not_an_options_object_are_a_type_error():
    with pytest.raises(TypeError, match="must be an ExtractOptions, not dict"):
        extract(OLD_DATE_PAGE, options={"date_min_year": 2000})
