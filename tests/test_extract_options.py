"""Options given to ``extract`` reach every step that reads them: the date search too."""
from __future__ import annotations

from newscrawl.extract import extract

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
