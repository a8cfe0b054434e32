"""A new way of writing a date is one entry of the date vocabulary (``dates/patterns.py``).

Each test adds the entry at run time, as a maintainer would add it to the module, and finds
the date on a page written for the test that gives it nowhere else; without the entry the
page has no date.
"""
import re
from datetime import datetime

import pytest

from newscrawl.extract import extract
from newscrawl.extract.dates import iter_text_dates, parse_date
from newscrawl.extract.dates import patterns

FETCHED = datetime(2024, 5, 1, 12, 0)


def byline_page(byline: str) -> str:
    return ("<html><head><title>Harbour ferry returns after winter</title></head><body>"
            "<h1>Harbour ferry returns after winter</h1>"
            f"<p class='byline'>{byline}</p>"
            "<p>" + "The ferry crossed the harbour again on Monday after four months in the yard. " * 8 + "</p>"
            "</body></html>")


def published(byline: str) -> str | None:
    return extract(byline_page(byline), "https://news.example/harbour-ferry", fetched_at=FETCHED).published


@pytest.fixture
def own_tables(monkeypatch):
    """Copies of the module's tables, so what a test adds is gone after it."""
    monkeypatch.setattr(patterns, "TEXT_DATE_FORMATS", dict(patterns.TEXT_DATE_FORMATS))
    monkeypatch.setattr(patterns, "MONTH_NAMES", dict(patterns.MONTH_NAMES))


@pytest.mark.usefixtures("own_tables")
def test_a_new_layout_is_one_entry_of_the_text_formats():
    byline = "Posted Sep-02-2018 at 10:40"
    assert published(byline) is None
    patterns.TEXT_DATE_FORMATS["monthname_day_year_hyphenated"] = patterns.TextDateFormat(re.compile(
        r"(?<![\w])(?P<monthname>" + patterns.MONTH_NAME + r")-(?P<day>3[01]|[12]\d|0?[1-9])"
        r"-(?P<year>(?:19|20)\d{2})(?!\d)" + patterns.CLOCK_TIME, re.I))
    assert published(byline) == "2018-09-02T10:40:00"
    assert parse_date("Sep-02-2018") is not None


@pytest.mark.usefixtures("own_tables")
def test_a_new_month_name_language_is_one_call_of_add_month_names():
    byline = "Julkaistu 2. syyskuuta 2018"  # Finnish
    assert published(byline) is None
    patterns.add_month_names("tammikuuta", "helmikuuta", "maaliskuuta", "huhtikuuta", "toukokuuta", "kesäkuuta",
                             "heinäkuuta", "elokuuta", "syyskuuta", "lokakuuta", "marraskuuta", "joulukuuta")
    assert published(byline) == "2018-09-02"


@pytest.mark.usefixtures("own_tables")
def test_a_format_needing_a_character_is_skipped_on_texts_without_it():
    """``needs_one_of`` spares the regex on texts that cannot hold the date; it never finds more."""
    text = "Dated 2018 Q3 day 14"
    pattern = re.compile(r"(?P<year>(?:19|20)\d{2}) Q(?P<month>[1-4]) day (?P<day>[12]\d)")
    patterns.TEXT_DATE_FORMATS["quarter"] = patterns.TextDateFormat(pattern, needs_one_of="§")
    assert iter_text_dates(text) == []
    patterns.TEXT_DATE_FORMATS["quarter"] = patterns.TextDateFormat(pattern, needs_one_of="Q")
    assert [date.iso() for _, _, date in iter_text_dates(text)] == ["2018-03-14"]

