"""Feed, sitemap and robots.txt parsing; URL canonical form; article-vs-list; the per-site frontier."""
from __future__ import annotations

import gzip
import json
import re
import time

import pytest

from newscrawl.crawl.classify import ARTICLE, LIST, UNKNOWN, classify_url, judge_page
from newscrawl.crawl.discovery import maybe_gunzip, normalize_date, parse_feed, parse_sitemap, sitemaps_from_robots
from newscrawl.extract.result import ExtractResult
from newscrawl.crawl.frontier import FrontierLimits, SiteFrontier
from newscrawl.config.sites import parse_sites
from newscrawl.crawl.urls import canonicalize

BASE = "http://news.test/"

RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
<item><title>One</title><link>http://news.test/2024/05/14/one.html</link>
<pubDate>Tue, 14 May 2024 08:30:00 +0000</pubDate></item>
<item><title>Two</title><guid>http://news.test/two-123456</guid></item>
<item><title>No link</title><guid isPermaLink="false">abc</guid></item></channel></rss>"""
ATOM = b"""<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>A</title>
<link rel="self" href="/self"/><link href="/a/100231.shtml"/><published>2024-05-14T08:30:00+08:00</published>
</entry></feed>"""
RDF = b"""<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
xmlns:dc="http://purl.org/dc/elements/1.1/"><item><title>R</title><link>http://news.test/r-12345</link>
<dc:date>2024-05-10</dc:date></item></rdf:RDF>"""
JSON_FEED = json.dumps({"version": "https://jsonfeed.org/version/1.1", "items": [
    {"id": "1", "url": "/stories/1-x", "title": "J", "date_published": "2024-05-12T20:00:00-05:00"},
    {"id": "2", "external_url": "http://news.test/ext"}, "junk"]}).encode()
BOMB = b"""<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">
<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
<!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
<!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
<!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
<!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
<!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://news.test/a-12345&lol9;&xxe;</loc></url>
</urlset>"""
NEWS_SITEMAP = b"""<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>http://news.test/n-12345</loc>
<news:news><news:publication_date>2024-05-14T08:30:00Z</news:publication_date><news:title>N</news:title></news:news>
</url></urlset>"""
INDEX = b"""<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>/s1.xml.gz</loc>
<lastmod>2024-05-14</lastmod></sitemap><sitemap><loc>http://news.test/s2.xml</loc></sitemap></sitemapindex>"""


def test_rss_entries_with_dates_and_guid_links():
    listing = parse_feed(RSS, BASE)
    assert listing.kind == "rss"
    assert [(e.url, e.published, e.title) for e in listing.entries] == [
        ("http://news.test/2024/05/14/one.html", "2024-05-14T08:30:00+00:00", "One"),
        ("http://news.test/two-123456", None, "Two")]


def test_atom_rdf_and_json_feed():
    [atom] = parse_feed(ATOM, BASE).entries
    assert atom.url == "http://news.test/a/100231.shtml" and atom.published == "2024-05-14T08:30:00+08:00"
    rdf = parse_feed(RDF, BASE)
    assert rdf.kind == "rdf" and list(rdf.entries)[0].published == "2024-05-10"
    listing = parse_feed(JSON_FEED, BASE)
    assert listing.kind == "jsonfeed"
    assert [e.url for e in listing.entries] == ["http://news.test/stories/1-x", "http://news.test/ext"]


@pytest.mark.parametrize("body", [b"", b"<html><body>not a feed</body></html>", b"{not json", b"\x00\x01\x02",
                                  b'{"items": 3}'])
def test_malformed_feeds_give_no_entries(body):
    listing = parse_feed(body, BASE)
    assert listing.kind == "malformed" and listing.entries == []


def test_sitemap_index_news_and_text():
    index = parse_sitemap(INDEX, BASE)
    assert index.is_index and [e.url for e in index.entries] == ["http://news.test/s1.xml.gz", "http://news.test/s2.xml"]
    news = parse_sitemap(NEWS_SITEMAP, BASE)
    [first] = news.entries
    assert news.news and first.published == "2024-05-14T08:30:00+00:00" and first.title == "N"
    text = parse_sitemap(b"http://news.test/a-12345\nhttp://news.test/b-12345\n\n", BASE)
    assert text.kind == "text" and len(list(text.entries)) == 2
    assert parse_sitemap(b"<html/>", BASE).kind == "malformed"


def test_entity_bomb_and_external_entity_do_not_expand():
    started = time.monotonic()
    listing = parse_sitemap(BOMB, BASE)
    assert time.monotonic() - started < 1.0
    for entry in listing.entries:
        assert len(entry.url) < 200 and "root:" not in entry.url


def test_gzip_sitemap_and_size_limit():
    body = gzip.compress(NEWS_SITEMAP)
    assert maybe_gunzip(body, 1_000_000) == NEWS_SITEMAP
    assert maybe_gunzip(NEWS_SITEMAP, 10) == NEWS_SITEMAP  # not gzip: untouched
    bomb = gzip.compress(b"<" + b" " * 5_000_000)
    with pytest.raises(ValueError):
        maybe_gunzip(bomb, 1_000_000)
    with pytest.raises(ValueError):
        maybe_gunzip(b"\x1f\x8b\x08garbage", 1_000_000)


def test_sitemaps_from_robots():
    robots = "User-agent: *\nDisallow: /private/\nSitemap: /sitemap_index.xml\nsitemap:http://cdn.test/s.xml\n"
    assert sitemaps_from_robots(robots, "http://news.test/robots.txt") == [
        "http://news.test/sitemap_index.xml", "http://cdn.test/s.xml"]


@pytest.mark.parametrize("value, iso", [
    ("Tue, 14 May 2024 08:30:00 GMT", "2024-05-14T08:30:00+00:00"),
    ("2024-05-14", "2024-05-14"),
    ("2024-05-14T08:30:00Z", "2024-05-14T08:30:00+00:00"),
    ("yesterday", None),
    ("", None),
])
def test_normalize_date(value, iso):
    assert normalize_date(value) == iso


def test_canonicalize_removes_tracking_and_fragments():
    assert canonicalize("HTTP://News.Test:80/a/?utm_source=x&b=2&fbclid=z&a=1#c") == "http://news.test/a/?a=1&b=2"
    assert canonicalize("https://news.test/a?from=timeline&id=7") == "https://news.test/a?id=7"


@pytest.mark.parametrize("url, kind", [
    ("https://news.test/2024/05/14/harbour-cranes-return.html", ARTICLE),
    ("https://news.test/news/20240514/100231.shtml", ARTICLE),
    ("https://news.test/stories/48100-river-festival", ARTICLE),
    ("https://news.test/world/a-long-headline-with-many-words", ARTICLE),
    ("https://news.test/c/2024-05-14/12.html", ARTICLE),
    ("https://news.test/", LIST),
    ("https://news.test/tag/ports", LIST),
    ("https://news.test/about", LIST),
    ("https://news.test/archive/2024/05/14/", LIST),
    ("https://news.test/archives/2012/10/time-to-begin-again.php", ARTICLE),
    ("https://news.test/2012/09/25/help-students-help-themselves/", ARTICLE),
    ("https://news.test/2024/05/page-2", LIST),
    ("https://news.test/world/?page=3", LIST),
    ("https://news.test/world/?p=3", LIST),
    ("https://blog.test/?p=15500", UNKNOWN),
    ("https://news.test/news/20240514", UNKNOWN),
    ("https://news.test/politics/", UNKNOWN),
])
def test_classify_url(url, kind):
    assert classify_url(url) == kind


def test_site_article_patterns_are_authoritative():
    patterns = (re.compile(r"/doc-\w+\.shtml$"),)
    assert classify_url("https://news.test/2024-05-14/doc-abc.shtml", patterns) == ARTICLE
    assert classify_url("https://news.test/2024/05/14/slug-like-an-article-url", patterns) == LIST


def _result(**changes) -> ExtractResult:
    base = ExtractResult(url="u", title="t", published="2024-05-14", text="x" * 400, html="<p/>", lang="en",
                         score=1.0)
    return ExtractResult(**{**base.__dict__, **changes})


@pytest.mark.parametrize("result, url_kind, reason", [
    (_result(), ARTICLE, None),
    (_result(reason="too_short"), ARTICLE, "too_short"),
    (_result(og_type="article"), LIST, None),
    (_result(schema_types=("NewsArticle",)), UNKNOWN, None),
    (_result(), LIST, "list_page"),
    (_result(og_type="website"), LIST, "list_page"),
    (_result(og_type="website"), ARTICLE, None),
    (_result(og_type="website", published=None, score=0.5), ARTICLE, "not_article"),
    (_result(schema_types=("CollectionPage",)), ARTICLE, "list_page"),
    (_result(link_density=0.8), ARTICLE, "link_dense"),
    (_result(), UNKNOWN, None),
    (_result(published=None, score=0.5), UNKNOWN, "not_article"),
    (_result(published=None, score=0.8), UNKNOWN, None),
    (_result(text="short text", score=0.3), UNKNOWN, "not_article"),
    (_result(text="港口重新开放" * 20, score=0.3), UNKNOWN, None),  # 120 CJK chars weigh 360
])
def test_judge_page(result, url_kind, reason):
    assert judge_page(result, url_kind) == reason


def _frontier(**site_keys) -> SiteFrontier:
    yaml = "sites:\n- name: s\n  start_urls: ['http://news.test/']\n" + "".join(
        f"  {k}: {v}\n" for k, v in site_keys.items())
    [site] = parse_sites(yaml)
    return SiteFrontier.for_site(site, FrontierLimits(max_pages=10, max_depth=2, max_query_variants=3,
                                                      max_per_shape=4))


def test_frontier_bounds_depth_pages_and_hosts():
    frontier = _frontier(deny_patterns="['/video/']")
    assert frontier.check("http://news.test/a-12345", "news.test", 1, ARTICLE) is None
    assert frontier.check("http://news.test/a-12345", "news.test", 1, ARTICLE) == "seen"
    assert frontier.check("http://evil.test/x", "evil.test", 1, ARTICLE) == "offsite"
    assert frontier.check("http://news.test/video/1-abcde", "news.test", 1, ARTICLE) == "denied"
    assert frontier.check("http://news.test/deep-12345", "news.test", 3, ARTICLE) == "max_depth"
    for n in range(9):
        assert frontier.check(f"http://news.test/p-{10000 + n}", "news.test", 1, ARTICLE) is None
    assert frontier.check("http://news.test/p-99999", "news.test", 1, ARTICLE) == "max_pages"
    assert frontier.stop_reason() == "max_pages"


def test_frontier_cuts_calendars_and_query_explosions():
    frontier = _frontier(max_pages=1000)
    months = [frontier.check(f"http://news.test/archive/2024/{m:02d}/", "news.test", 1, LIST) for m in range(1, 13)]
    assert months[:4] == [None] * 4 and set(months[4:]) == {"url_shape"}
    queries = [frontier.check(f"http://news.test/s?page={n}", "news.test", 1, LIST) for n in range(6)]
    assert queries[:3] == [None] * 3 and set(queries[3:]) == {"query_variants"}
    # article URLs sharing one shape are not cut
    assert all(frontier.check(f"http://news.test/a/{n}.html", "news.test", 1, ARTICLE) is None
               for n in range(100000, 100010))
    assert frontier.stop_reason() == "exhausted"


def test_page_kind_is_the_requests_unless_redirected():
    from scrapy import Request
    from scrapy.http import HtmlResponse

    from newscrawl.config.sites import SiteConfig
    from newscrawl.spiders.news import NewsSpider

    site = SiteConfig(name="harbor", start_urls=("http://127.0.0.1/",))
    asked = "http://127.0.0.1/2024/05/14/harbour-reopens.html"
    request = Request(asked, meta={"newscrawl_url_kind": (asked, LIST)})  # what the request was classified as
    assert NewsSpider._url_kind(site, HtmlResponse(asked, request=request, body=b"")) == LIST  # not classified again
    moved = "http://127.0.0.1/2024/06/01/other-story.html"
    redirected = request.replace(url=moved)  # the redirect middleware keeps the meta
    assert NewsSpider._url_kind(site, HtmlResponse(moved, request=redirected, body=b"")) == ARTICLE
    plain = Request(asked)
    assert NewsSpider._url_kind(site, HtmlResponse(asked, request=plain, body=b"")) == ARTICLE


def test_page_links_read_anchors_and_announced_feeds_in_page_order():
    from newscrawl.crawl.discovery import PageLink, page_links
    body = (b'<html><head><link rel="alternate" type="application/rss+xml" href="/rss.xml">'
            b'<link rel="stylesheet" href="/s.css"></head><body><a href="/a-12345">a</a>'
            b'<a href="mailto:x@y">m</a><a href="/file.pdf">f</a><a href="/' + b"x" * 100 + b'">long</a>'
            b'<map><area href="/b-12345"></map><a href="/a-12345">again</a></body></html>')
    assert list(page_links(body, "utf-8", "http://news.test/", 50)) == [
        PageLink("http://news.test/rss.xml", feed=True), PageLink("http://news.test/a-12345"), None,
        PageLink("http://news.test/b-12345")]
