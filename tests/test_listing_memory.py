"""Memory of the listing walks: what a walked page leaves behind once its links are read."""
from __future__ import annotations

import gc

import pytest

from newscrawl.discovery import page_links


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
