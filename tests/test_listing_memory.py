"""Memory of the listing walks: what a walked page leaves behind, and JSON Feeds read one item at a time."""
from __future__ import annotations

import gc
import json
import tracemalloc

import pytest

from hostileweb import links_page, start_site
from mockweb import needs_loopback
from newscrawl.crawl.discovery import page_links, parse_feed
from test_crawl_hostile import run


@pytest.fixture
def saved_garbage():
    """The objects the cyclic collector finds unreachable during the test (kept for inspection)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.collect()


def test_a_walked_page_leaves_no_reference_cycle(saved_garbage):
    """Refcounting alone frees the page's parser: a cycle would keep its tree and input buffer (C memory,
    as large as the page) until a full collection, which a crawl with a raised gc threshold rarely runs."""
    body = ('<html><head><link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>'
            f'<a href="/{"h" * 100_000}">long</a><a href="/p/1">next</a><area href="/map"></body></html>').encode()
    links = list(page_links(body, "utf-8", "http://news.example/", 2048))
    assert [link and link.url for link in links] == [
        "http://news.example/feed.xml", None, "http://news.example/p/1", "http://news.example/map"]
    gc.collect()
    left = sorted({type(obj).__module__ + "." + type(obj).__qualname__ for obj in saved_garbage})
    assert not [name for name in left if name.startswith("lxml.")], left


def test_a_walk_stopped_early_leaves_no_reference_cycle(saved_garbage):
    body = b"<html><body>" + b"".join(b'<a href="/n/%d">x</a>' % i for i in range(20_000)) + b"</body></html>"
    links = page_links(body, "utf-8", "http://news.example/", 2048)
    assert next(links).url == "http://news.example/n/0"
    links.close()  # the caller's budget is spent
    del links
    gc.collect()
    left = sorted({type(obj).__module__ + "." + type(obj).__qualname__ for obj in saved_garbage})
    assert not [name for name in left if name.startswith("lxml.")], left


def json_feed(items: list, **extra) -> bytes:
    return json.dumps({"version": "https://jsonfeed.org/version/1.1", "title": "F", **extra, "items": items}).encode()


def test_a_json_feed_is_read_one_item_at_a_time():
    """Reading the first entries of a 200,000-item feed costs about the size of the document, not the
    dicts of every item (a whole-document parse: ~8 times the document)."""
    body = json_feed([{"id": str(i), "url": f"/f/{i}", "title": "t"} for i in range(200_000)])
    tracemalloc.start()
    try:
        listing = parse_feed(body, "http://news.example/")
        entries = iter(listing.entries)
        first = [next(entries).url for _ in range(3)]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert listing.kind == "jsonfeed"
    assert first == ["http://news.example/f/0", "http://news.example/f/1", "http://news.example/f/2"]
    assert peak < 2 * len(body), (peak, len(body))
    assert sum(1 for _ in entries) == 200_000 - 3


def test_a_damaged_json_feed_keeps_the_items_before_the_damage():
    body = json_feed([{"url": "/a"}, {"url": "/b", "date_published": "2024-05-01T10:00:00Z"}, {"url": "/c"}],
                     description={"nested": ["items", {"items": 1}]})
    listing = parse_feed(body[:body.rindex(b'{"url": "/c"')] + b'{"url": "/c', "http://news.example/")
    assert not listing.damaged
    assert [(entry.url, entry.published) for entry in listing.entries] == [
        ("http://news.example/a", None), ("http://news.example/b", "2024-05-01T10:00:00+00:00")]
    assert listing.damaged


def test_a_whole_json_feed_is_not_damaged():
    listing = parse_feed(json_feed([{"url": "/a"}, {"url": "/b"}], home_page_url="/"), "http://news.example/")
    assert [entry.url for entry in listing.entries] == ["http://news.example/a", "http://news.example/b"]
    assert not listing.damaged


@pytest.mark.parametrize("body", [b'{"title": "F"}', b'{"title": "F", "items": {"url": "/a"}}', b"[1, 2]",
                                  b'{"title": "F" "items": []}', b'{"title": [1, 2, "items": []}'])
def test_json_feeds_without_an_items_array_are_malformed(body):
    assert parse_feed(body, "http://news.example/").kind == "malformed"


@needs_loopback
def test_a_crawl_follows_the_items_before_a_json_feed_is_cut_short(tmp_path):
    site = start_site(190)
    try:
        paths = [f"/news/2024/05/0{day}/story-{day}.html" for day in (1, 2, 3)]
        for day, path in enumerate(paths, 1):
            site.add_article(path, f"Story {day}", day)
        body = json_feed([{"id": str(i), "url": path} for i, path in enumerate(paths)])
        site.add_page("/feed.json", body[:body.index(paths[2].encode()) + 9], "application/feed+json")
        site.add_page("/", links_page([]))
        code, stderr, stats, articles = run(tmp_path, [{"name": "cut-gazette", "start_urls": [f"{site.base}/"],
                                                        "feeds": [f"{site.base}/feed.json"]}])
        requested = site.paths()
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert code == 0, stderr[-3000:]
    assert stats["newscrawl/site/cut-gazette/errors/malformed_feed"] == 1
    assert [path for path in paths if path in requested] == paths[:2]
    assert sorted(article["title"] for article in articles) == ["Story 1", "Story 2"]
