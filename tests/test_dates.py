"""Publish-date heuristics: sources in order, zones kept, bad dates rejected."""
import re
from datetime import datetime

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newscrawl.extract import extract
from newscrawl.extract.dates import FoundDate, find_published, iter_text_dates, parse_date
from newscrawl.extract.dates import patterns as date_patterns
from newscrawl.extract.dates.candidates import _shown_machine_date
from newscrawl.extract.dates.parse import has_year, holds_year, year_matches
from newscrawl.extract.dom import parse_html
from newscrawl.extract.metadata import read_page_meta

FETCHED = datetime(2024, 5, 1, 12, 0)


def published(html: str, url: str | None = None, fetched_at: datetime = FETCHED) -> str | None:
    root = parse_html(html)
    return find_published(root, read_page_meta(root), url, fetched_at)


def page(head: str = "", body: str = "") -> str:
    return f"<html><head><title>Bridge reopens after repairs</title>{head}</head><body>{body}</body></html>"


def test_jsonld_date_published_first_with_zone_kept():
    html = page(
        '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2018-09-02T10:40:00+08:00",'
        ' "dateModified": "2018-09-03T08:00:00+08:00"}</script>'
        '<meta property="article:published_time" content="2018-09-01T09:00:00+08:00">')
    assert published(html) == "2018-09-02T10:40:00+08:00"


def test_article_meta_tag():
    html = page('<meta property="article:published_time" content="2018-09-02T10:40:00+08:00">')
    assert published(html) == "2018-09-02T10:40:00+08:00"


@pytest.mark.parametrize("key", ["pubdate", "PubDate", "publishdate", "firstpublishedtime", "dc.date",
                                 "sailthru.date", "parsely-pub-date"])
def test_named_meta_tags(key):
    html = page(f'<meta name="{key}" content="2018-09-02 10:40:00">')
    assert published(html) == "2018-09-02T10:40:00"


def test_itemprop_and_time_element():
    html = page(body='<h1>Bridge reopens after repairs</h1>'
                     '<span itemprop="datePublished" content="2018-09-02">Sept 2</span>')
    assert published(html) == "2018-09-02"
    html = page(body='<h1>Bridge reopens after repairs</h1><time datetime="2018-09-02T10:40:00Z">Sunday</time>')
    assert published(html) == "2018-09-02T10:40:00+00:00"


@pytest.mark.parametrize("attribute", ["data-ptime", "DATA-PTime", "data-publishtime", "Data-PubTime"])
def test_marked_date_attribute_in_any_case(attribute):
    body = f'<h1>Bridge reopens after repairs</h1><p>Text</p><span {attribute}="2018-09-02 10:40">today</span>'
    assert published(page(body=body)) == "2018-09-02T10:40:00"
    root = lxml.html.document_fromstring(page(body=body))   # not parse_html's: its source is unknown
    assert find_published(root, read_page_meta(root), None, FETCHED) == "2018-09-02T10:40:00"


def test_marked_date_names_written_elsewhere_only():
    body = ('<h1>Bridge reopens after repairs</h1><p>data-ptime and data-pubtime are words here.</p>'
            '<span class="x-ptime">3 May 2017</span>')
    assert published(page(body=body)) == "2017-05-03"


@pytest.mark.parametrize("byline, expected", [
    ("发布时间：2018-09-02 10:40", "2018-09-02T10:40:00"),
    ("2018年09月02日 10:40:22 来源：新华社", "2018-09-02T10:40:22"),
    ("By Jane Doe | Sep 2, 2018", "2018-09-02"),
    ("2 September 2018", "2018-09-02"),
    ("Publié le 2 septembre 2018 à 10h40", "2018-09-02T10:40:00"),
    ("Publicado el 2 de septiembre de 2018", "2018-09-02"),
    ("2 de setembro de 2018", "2018-09-02"),
    ("2 сентября 2018 г., 10:40", "2018-09-02T10:40:00"),
    ("2018年9月2日 10時40分", "2018-09-02T10:40:00"),
    ("نشر في 2 سبتمبر 2018", "2018-09-02"),
    ("02.09.2018 10:40", "2018-09-02T10:40:00"),
])
def test_byline_text_near_the_headline(byline, expected):
    html = page(body=f'<div class="nav"><a href="/">Home</a></div><h1>Bridge reopens after repairs</h1>'
                     f'<div>{byline}</div><p>The bridge reopened on Monday after two years of work.</p>')
    assert published(html) == expected


def test_url_date_is_a_late_fallback():
    html = page(body="<h1>Bridge reopens after repairs</h1><p>No date in the text.</p>")
    assert published(html, "https://example.com/news/2018/09/02/bridge.html") == "2018-09-02"
    assert published(html, "https://example.com/a/20180902/n123.shtml") == "2018-09-02"
    assert published(html, "https://example.com/2018-09-02/bridge") == "2018-09-02"


def test_meta_before_byline_before_url():
    html = page('<meta name="pubdate" content="2018-09-02">',
                "<h1>Bridge reopens after repairs</h1><div>2018-08-30</div>")
    assert published(html, "https://example.com/2018/08/01/x") == "2018-09-02"
    html = page(body="<h1>Bridge reopens after repairs</h1><div>2018-08-30</div>")
    assert published(html, "https://example.com/2018/08/01/x") == "2018-08-30"


def test_published_preferred_over_modified():
    html = page('<meta property="article:modified_time" content="2018-09-05T10:00:00+00:00">'
                '<meta property="article:published_time" content="2018-09-02T10:00:00+00:00">')
    assert published(html) == "2018-09-02T10:00:00+00:00"


def test_modified_used_when_nothing_else():
    html = page('<meta property="article:modified_time" content="2018-09-05T10:00:00+01:00">')
    assert published(html) == "2018-09-05T10:00:00+01:00"


def test_updated_label_is_not_the_publish_date():
    html = page(body="<h1>Bridge reopens after repairs</h1>"
                     "<div>Updated: 2018-09-05</div><div>Published: 2018-09-02</div>")
    assert published(html) == "2018-09-02"


def test_future_dates_rejected():
    html = page('<meta property="article:published_time" content="2030-01-01T00:00:00">')
    assert published(html, "https://example.com/2018/09/02/x") == "2018-09-02"


def test_dates_before_1995_rejected():
    html = page('<meta name="pubdate" content="1970-01-01">')
    assert published(html) is None


def test_copyright_and_footer_years_ignored():
    html = page(body="<h1>Bridge reopens after repairs</h1><p>Text of the story without a date.</p>"
                     "<div>© 2018-09-02 Example Corp. All rights reserved.</div>")
    assert published(html) is None


def test_two_digit_year_is_not_2008():
    html = page(body="<h1>Bridge reopens after repairs</h1><div>18-03-08 10:40</div>")
    assert published(html) != "2008-03-18"
    assert not any(found.year == 2008 for _, _, found in iter_text_dates("18-03-08"))
    assert parse_date("18-03-08") is None


def test_cjk_two_digit_year_maps_to_20xx():
    assert parse_date("18年3月8日").iso() == "2018-03-08"


def test_utc_meta_read_as_the_local_day_the_page_shows():
    html = page('<meta property="article:published_time" content="2020-02-18T02:18:11+00:00">',
                "<h1>Bridge reopens after repairs</h1><div>Por Agencia | 17 de febrero 2020</div>")
    assert published(html) == "2020-02-17"


def test_utc_meta_and_a_marked_date_of_another_day_the_page_shows():
    html = page('<meta property="article:published_time" content="2020-02-18T02:18:11+00:00">',
                '<h1>Bridge reopens after repairs</h1><div>Por Agencia | 10 de febrero 2020</div>'
                '<span itemprop="datePublished" content="2020-02-10T09:00:00-03:00"></span>')
    assert published(html) == "2020-02-10T09:00:00-03:00"


def test_later_machine_dates_are_read_only_when_the_shown_day_is_not_the_first_ones():
    first, other = FoundDate(2020, 2, 18, 2, 18, 11, "+00:00"), FoundDate(2020, 2, 10)

    def unread():
        raise AssertionError("the later machine dates were read")
        yield

    assert _shown_machine_date(first, unread(), None) is None
    assert _shown_machine_date(first, unread(), FoundDate(2020, 2, 18)) is first
    assert _shown_machine_date(first, iter([other]), FoundDate(2020, 2, 10, 9)) is other
    assert _shown_machine_date(first, iter([other]), FoundDate(2020, 2, 11)) is None


def test_script_variable_and_epoch():
    html = page(body='<h1>Bridge reopens after repairs</h1><script>var ct = "1567821600";</script>')
    assert published(html).startswith("2019-09-07")


@pytest.mark.parametrize("lang, expected", [
    ("en", "2020-07-11T16:25:02+00:00"),
    ("zh-CN", "2020-07-12T00:25:02+08:00"),
    ("ja", "2020-07-12T01:25:02+09:00"),
    (None, "2020-07-12T00:25:02+08:00"),
])
def test_timestamp_read_in_the_zone_of_the_page_language(lang, expected):
    html = page(body='<h1>Bridge reopens after repairs</h1><span class="timestamp" data-time="1594484702">Jul 11</span>')
    if lang:
        html = html.replace("<html>", f'<html lang="{lang}">')
    assert published(html) == expected


def test_numeric_order_day_first_outside_us():
    assert parse_date("02/09/2018", "fr").iso() == "2018-09-02"
    assert parse_date("09/02/2018", "en").iso() == "2018-09-02"
    assert parse_date("25/12/2018", "en").iso() == "2018-12-25"


def test_rfc2822_and_compact_forms():
    assert parse_date("Sun, 02 Sep 2018 10:40:00 +0800").iso() == "2018-09-02T10:40:00+08:00"
    assert parse_date("20180902").iso() == "2018-09-02"


def test_no_page():
    assert find_published(None, read_page_meta(parse_html("<p>x</p>")), None) is None


# --- bounded searches: the fast paths find what the plain regex passes find

@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 19 20 年\n\t\u3000a-/.Sep٢", max_size=60))
def test_year_places_match_the_year_regex(text):
    assert year_matches(text) == [m.span() for m in date_patterns.HAS_YEAR_RE.finditer(text)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789 19 20 年\n\t\u3000a-/.Sep٢", max_size=60))
def test_year_tests_agree_with_the_year_regexes(text):
    assert holds_year(text) == bool(re.search(r"(?:19|20)\d{2}", text))
    assert has_year(text) == bool(date_patterns.HAS_YEAR_RE.search(text))


@pytest.mark.parametrize("body, expected", [
    ("<p>No year shown here</p><a href='/x'>Old story</a>", None),
    ("<p>Opened on ٢٠١٨-٠٩-٠٢ after repairs</p>", "2018-09-02"),
    ("<p>Opened on 2018-09-02 after repairs</p>", "2018-09-02"),
    ("<p>Opened on 18</p><a href='/x'>link</a><p>年9月2日</p>", "2018-09-02"),
])
def test_first_text_date_when_the_visible_text_shows_a_year_or_none(body, expected):
    assert published(page(body=body)) == expected


def test_long_text_searched_around_its_years_finds_every_date():
    filler = "No date here at all, only words and numbers like 42 and 7.\n" * 40
    text = f"{filler}Posted 2 September 2018\n{filler}2019-03-04 10:40\n{filler}2020年5月6日"
    assert len(text) > 3000
    assert [found.iso() for _, _, found in iter_text_dates(text)] == [
        "2018-09-02", "2019-03-04T10:40:00", "2020-05-06"]


def test_labelled_date_far_down_the_page_beats_an_earlier_plain_one():
    filler = "".join(f"<p>Paragraph {i} of the story, long enough to count as prose text.</p>"
                     for i in range(60))
    html = page(body=f"<div>Archive 2017-01-05</div>{filler}<div>Published: 2018-09-02</div>")
    assert published(html) == "2018-09-02"


def test_first_text_date_outside_links_and_comment_blocks():
    body = ('<div><a href="/old">Old story 2016-04-04</a></div>'
            '<div class="comment-list"><p>Reader wrote on 2017-05-05</p></div>'
            "<p>Opened to traffic 2018-09-02 after repairs.</p>")
    assert published(page(body=body)) == "2018-09-02"
    # page-wide classes of <body> do not make the whole page a foreign block
    html = page(body=body).replace("<body>", '<body class="no-sidebars">')
    assert published(html) == "2018-09-02"


def test_date_box_named_by_class_read_from_its_start():
    long_text = "Words of the article body. " * 200
    html = page(body=f'<h1>Other headline</h1><div class="post-date">2018-09-02 {long_text}</div>')
    assert published(html) == "2018-09-02"


def test_page_wide_body_class_is_not_a_foreign_block_for_time_elements():
    html = page(body='<h1>Bridge reopens after repairs</h1><time datetime="2018-09-02">Sunday</time>')
    html = html.replace("<body>", '<body class="single-post has-sidebar">')
    assert published(html) == "2018-09-02"


def test_byline_in_a_list_styled_box_is_read_but_a_list_of_links_is_skipped():
    # a byline <ul> styled "inline-list": one date and one link, not a link list
    html = page(body='<h1>Bridge reopens after repairs</h1>'
                     '<p class="standfirst">The city reopened its oldest bridge after two years of work.</p>'
                     '<ul class="inline-list meta-row"><li><span>March 4, 2019</span></li>'
                     '<a href="#comments">Comments (12)</a></ul>'
                     '<p>Work on the bridge began on January 10, 2017, and ran late.</p>')
    assert published(html) == "2019-03-04"
    # the same names on a list of other stories' links: their dates are not the page's
    links = "".join(f'<li><a href="/s{i}">Another story headline number {i}</a> <span>May {i}, 2018</span></li>'
                    for i in range(1, 4))
    html = page(body=f'<h1>Bridge reopens after repairs</h1><ul class="inline-list">{links}</ul>'
                     '<div>By Ann Lee, January 10, 2017</div>')
    assert published(html) == "2017-01-10"


def test_a_wrapper_holding_the_headline_is_not_a_foreign_block():
    # layout classes name the sidebar beside the story ("has-sidebar"): the block holding
    # the headline is the story's, so its <time> counts
    html = page(body='<div class="layout layout--has-sidebar"><article><h1>Bridge reopens after repairs</h1>'
                     '<time datetime="2019-03-04T10:00:00">Monday</time>'
                     '<p>The city reopened its oldest bridge after two years of work.</p></article>'
                     '<div class="widget">Weather</div></div>')
    assert published(html) == "2019-03-04T10:00:00"
    # a sidebar beside the headline is still foreign
    html = page(body='<h1>Bridge reopens after repairs</h1>'
                     '<div class="sidebar"><time datetime="2017-01-10T08:00:00">Tuesday</time></div>'
                     '<p>The city reopened its oldest bridge after two years of work.</p>')
    assert published(html) is None


def test_byline_in_a_card_footer_is_read_but_a_page_footer_of_links_is_skipped():
    # a component's footer ("card-footer") under the headline holds its byline
    html = page(body='<div class="story-header"><h1>Bridge reopens after repairs</h1></div>'
                     '<div class="card-footer byline-row"><span>By <a href="/staff/ann">Ann Lee</a></span>'
                     '<span class="stamp">Aug 17, 2020 at 5:00 AM</span></div>'
                     '<p>The city reopened its oldest bridge after two years of work.</p>')
    assert published(html) == "2020-08-17T05:00:00"
    # the page footer's links and dates are not the story's
    html = page(body='<h1>Bridge reopens after repairs</h1>'
                     '<p>The city reopened its oldest bridge after two years of work.</p>'
                     '<div class="site-footer"><a href="/about">About us</a> <a href="/contact">Contact</a>'
                     ' <a href="/privacy">Privacy policy</a> <span>2019-01-01</span></div>')
    assert published(html) is None


def test_shown_updated_date_is_the_last_resort():
    # nothing names the publish date: the byline's "Updated" date is kept, as dateModified is
    html = page(body="<h1>Bridge reopens after repairs</h1>"
                     '<div>City desk | Updated: Jan 23, 2020, 10:45 AM IST <a href="#c">0 Comments</a></div>'
                     "<p>The city reopened its oldest bridge after two years of work.</p>")
    assert published(html) == "2020-01-23T10:45:00"
    # any publish source still comes first, even the URL
    assert published(html, "https://example.com/2020/01/20/bridge") == "2020-01-20"
    # a copyright year line is no update label
    html = page(body="<h1>Bridge reopens after repairs</h1><p>Words of the story.</p>"
                     "<div>Copyright 2020-01-23 The Daily</div>")
    assert published(html) is None


@pytest.mark.parametrize("byline, expected", [
    ("الثلاثاء ١ / ١٢ / ٢٠٢٠", "2020-12-01"),           # Arabic-Indic digits, day first
    ("نشر في ٢٤ أغسطس ٢٠٢٠ - ١٠:٣٠", "2020-08-24T10:30:00"),  # month name between them
    ("۱۲ مارس ۲۰۲۱", "2021-03-12"),                        # Persian digits
])
def test_byline_with_eastern_arabic_digits(byline, expected):
    html = page(body=f'<h1>Bridge reopens after repairs</h1><div class="byline">{byline}</div>'
                     '<p>The bridge over the river reopened to traffic this morning.</p>')
    assert published(html.replace("<html>", '<html lang="ar">')) == expected


def test_meta_date_with_eastern_arabic_digits():
    html = page('<meta name="pubdate" content="٢٠٢٠-٠٨-٢٤">')
    assert published(html) == "2020-08-24"


def test_tooltip_over_an_inner_machine_date_is_not_read():
    # the link's tooltip renders the span's epoch (06:25 UTC on 11 Jul) in the reader's zone
    stamp = ('<small class="time"><a href="/status/1" class="post-timestamp" title="11:25 PM - 10 Jul 2020">'
             '<span class="timestamp-short" data-time="1594448702">Jul 10</span></a></small>')
    assert published(page(body="<h1>Bridge reopens after repairs</h1>" + stamp)).startswith("2020-07-11")
    # with no machine date inside, the tooltip is the box's date
    alone = '<a href="/status/1" class="post-timestamp" title="11:25 PM - 10 Jul 2020">Jul 10</a>'
    assert published(page(body="<h1>Bridge reopens after repairs</h1>" + alone)) == "2020-07-10"


# --- a UTC machine date shown nowhere: the zone of the page's other times

STORY = "<h1>Bridge reopens after repairs</h1><p>The bridge reopened after two years of work.</p>"
UTC_LATE = '<meta property="article:published_time" content="2021-03-04T03:40:12Z">'


def schedule(*starts: str) -> str:
    return "<script>var state = {" + ",".join(f'"start{i}": "{s}"' for i, s in enumerate(starts)) + "};</script>"


def test_utc_meta_shown_nowhere_read_in_the_zone_of_the_pages_other_times():
    html = page(UTC_LATE, STORY + schedule("Wed, 03 Mar 2021 22:00:00 -0500"))
    assert published(html) == "2021-03-03T22:40:12-05:00"
    html = page(UTC_LATE, STORY + '<time datetime="2021-03-04T09:10:00+05:30"></time>')
    assert published(html) == "2021-03-04T09:10:12+05:30"


def test_page_zone_needs_one_offset_near_the_moment():
    two_zones = schedule("Wed, 03 Mar 2021 22:00:00 -0500", "2021-03-04T04:00:00+01:00")
    assert published(page(UTC_LATE, STORY + two_zones)) == "2021-03-04T03:40:12+00:00"
    days_away = schedule("2021-02-20T22:00:00-05:00")
    assert published(page(UTC_LATE, STORY + days_away)) == "2021-03-04T03:40:12+00:00"
    utc_too = schedule("2021-03-04T03:00:00+00:00")
    assert published(page(UTC_LATE, STORY + utc_too)) == "2021-03-04T03:40:12+00:00"


def test_a_shown_date_beats_the_page_zone():
    html = page(UTC_LATE, "<h1>Bridge reopens after repairs</h1><div>March 4, 2021</div>"
                          + schedule("Wed, 03 Mar 2021 22:00:00 -0500"))
    assert published(html) == "2021-03-04T03:40:12+00:00"


# --- wiki pages: dated by the revision shown

WIKI = '<meta name="generator" content="MediaWiki 1.35.1">'
WIKI_JSONLD = ('<script type="application/ld+json">{"@type": "Article", "datePublished": "2009-05-12T10:04:51Z",'
               ' "dateModified": "2021-11-03T08:15:40Z"}</script>')


def test_wiki_page_dated_by_its_latest_revision():
    assert published(page(WIKI + WIKI_JSONLD, STORY)) == "2021-11-03T08:15:40+00:00"
    footer = '<ul><li id="footer-info-lastmod">This page was last edited on 3 November 2021, at 08:15.</li></ul>'
    assert published(page(WIKI, STORY + footer)) == "2021-11-03"


def test_other_pages_keep_date_published_over_date_modified():
    assert published(page(WIKI_JSONLD, STORY)) == "2009-05-12T10:04:51+00:00"


# --- pages whose body is not read: the head still dates and titles them

HEAD = ('<head><title>Ferry timetable changes for the winter | Harbour News</title>'
        '<meta property="og:title" content="Ferry timetable changes for the winter">'
        '<meta property="article:published_time" content="2024-10-02T06:15:00+01:00"></head>')


def test_a_page_too_large_to_read_keeps_its_head_date_and_title():
    crowded = "<p " + " ".join(f"data-x{i}='1'" for i in range(3_000)) + ">Timetable</p>"
    result = extract(f"<html>{HEAD}<body>{crowded}</body></html>", "https://news.example.test/ferry")
    assert result.reason == "too_large"
    assert result.published == "2024-10-02T06:15:00+01:00"
    assert result.title == "Ferry timetable changes for the winter"


def test_a_page_over_the_size_limit_keeps_its_head_date():
    body = "<p>" + "The ferry leaves at nine. " * 2_000 + "</p>"
    html = f"<html>{HEAD}<body>{body}</body></html>".encode()
    result = extract(html, "https://news.example.test/ferry", max_input_chars=len(html) - 1)
    assert result.reason == "too_large"
    assert result.published == "2024-10-02T06:15:00+01:00"


def test_a_head_that_is_itself_hostile_is_not_read():
    crowded_head = HEAD.replace("<title>", "<meta " + " ".join(f"n{i}='1'" for i in range(3_000)) + "><title>")
    result = extract(f"<html>{crowded_head}<body><p>x</p></body></html>", "https://news.example.test/2024/10/01/ferry")
    assert result.reason == "too_large"
    assert result.published == "2024-10-01"   # the URL's date only
    assert result.title is None


# --- a two-digit year in the byline, with its clock time

def test_byline_with_two_digit_year_and_time():
    byline = "<h1>Bridge reopens after repairs</h1><p>Do 25.04.24 | 14:07 Uhr | Von Eva Berg</p>"
    assert published(page("", byline + "<p>The bridge reopened after two years of work.</p>")) == \
        "2024-04-25T14:07:00"


def test_two_digit_year_without_time_is_not_a_date():
    byline = "<h1>Bridge reopens after repairs</h1><p>Version 25.04.24 of the plan</p>"
    assert published(page("", byline + "<p>The bridge reopened after two years of work.</p>")) is None


def test_an_update_stamp_with_its_time_before_the_day_is_not_the_shown_publish_day():
    head = '<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2024-08-04T13:23:00Z"}</script>'
    byline = ('<h1>Bridge reopens after repairs</h1><div class="byline">By Lucy Hart'
              '<ul><li>Updated20:49, 5 Aug 2024</li></ul></div>')
    html = page(head, byline + "<p>The bridge reopened after two years of work.</p>")
    assert published(html, fetched_at=datetime(2024, 8, 6)) == "2024-08-04T13:23:00+00:00"
