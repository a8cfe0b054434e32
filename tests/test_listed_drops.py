"""A page a link leads to first, that the site's feed lists too, is remembered when dropped as no article.

Two loopback sites, each with a home page linking a short notice at a URL of no article shape
(``/desk/notice.html``, too short to be an article) and an RSS feed, announced on the home page,
that lists the notice. The home page is read first, so the notice's request says "link" and the
feed's entry finds it seen. On ``drop-first`` the feed is answered only after the notice was
(the drop comes before the listing); on ``list-first`` the notice is answered only after the
feed (the listing comes first). Either way the notice is not fetched in the second run.
"""
from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest

from mockweb import crawl_stats, needs_loopback
from newscrawl.crawl.classify import UNKNOWN, classify_url
from newscrawl.demo import crawl, write_sites_file
from newscrawl.crawl.listed_links import ListedLinks

NOTICE = "/desk/notice.html"
ADDRESSES = ("127.0.7.2", "127.0.7.3")
WAIT_SECONDS = 10  # longest a held answer waits for the other request
SETTINGS = {"NEWSCRAWL_EXTRACT_WORKERS": "0"}


class Site:
    def __init__(self, name: str, held: str, after: str):
        self.name, self.held, self.after = name, held, after  # answer ``held`` once ``after`` was answered
        self.answered: dict[str, threading.Event] = {}
        self.requested: list[str] = []
        self.base = ""

    def page(self, path: str) -> tuple[str, bytes] | None:
        if path == "/":
            return "text/html; charset=utf-8", (
                '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Desk</title>'
                '<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>'
                f'<body><h1>Desk</h1><ul><li><a href="{NOTICE}">Notice</a></li></ul></body></html>').encode()
        if path == "/feed.xml":
            return "application/rss+xml", (
                '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Desk</title>'
                f"<link>{self.base}/</link><description>news</description>"
                f"<item><title>Notice</title><link>{self.base}{NOTICE}</link></item></channel></rss>").encode()
        if path == NOTICE:
            return "text/html; charset=utf-8", (
                '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Notice</title></head>'
                "<body><h1>Notice</h1><p>The desk is closed on Monday.</p></body></html>").encode()
        if path == "/robots.txt":
            return "text/plain", b"User-agent: *\nAllow: /\n"
        return None

    def event(self, path: str) -> threading.Event:
        return self.answered.setdefault(path, threading.Event())


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        site: Site = self.server.site  # type: ignore[attr-defined]
        site.requested.append(self.path)
        if self.path == site.held:
            site.event(site.after).wait(WAIT_SECONDS)
            time.sleep(0.5)  # the other answer is read, and the page judged, meanwhile
        found = site.page(self.path)
        content_type, body = found if found else ("text/plain", b"not found")
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        site.event(self.path).set()

    def log_message(self, format, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    sites = [Site("drop-first", held="/feed.xml", after=NOTICE), Site("list-first", held=NOTICE, after="/feed.xml")]
    servers = []
    for site, address in zip(sites, ADDRESSES):
        server = ThreadingHTTPServer((address, 0), _Handler)
        server.site, server.daemon_threads = site, True  # type: ignore[attr-defined]
        site.base = f"http://{address}:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    workdir = tmp_path_factory.mktemp("listed")
    try:
        sites_file = write_sites_file([{"name": s.name, "start_urls": [s.base + "/"], "max_depth": 1} for s in sites],
                                      workdir / "sites.yaml")
        requested, stats = [], []
        for run in (1, 2):
            for site in sites:
                site.requested.clear()
                site.answered.clear()
            done = crawl(sites_file, workdir / f"run{run}.jsonl", cwd=workdir, settings=SETTINGS)
            assert done.returncode == 0, done.stderr[-3000:]
            requested.append({site.name: list(site.requested) for site in sites})
            stats.append(crawl_stats(done.stderr, workdir))
        yield SimpleNamespace(requested=requested, stats=stats)
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def test_the_notice_is_no_article_at_a_url_of_no_article_shape():
    assert classify_url(f"http://{ADDRESSES[0]}:8000{NOTICE}") == UNKNOWN


@needs_loopback
@pytest.mark.parametrize("site", ["drop-first", "list-first"])
def test_a_dropped_page_a_link_found_first_and_a_feed_lists_is_not_fetched_again(runs, site):
    first, second = runs.requested
    assert first[site].count(NOTICE) == 1 and "/feed.xml" in first[site]
    assert runs.stats[0][f"newscrawl/site/{site}/dropped/too_short"] == 1
    assert runs.stats[0][f"newscrawl/site/{site}/discovered/link"] >= 1
    assert runs.stats[0][f"newscrawl/site/{site}/state/drops_remembered"] == 1
    assert NOTICE not in second[site]
    assert runs.stats[1][f"newscrawl/site/{site}/skipped/remembered_drop"] == 1


# --- the record of one run ------------------------------------------------------------------------

@pytest.mark.parametrize("drop_first", [True, False])
def test_a_drop_is_remembered_once_whichever_comes_first(drop_first):
    listed, remembered = ListedLinks(), []
    listed.link_requested("http://a.test/desk/notice.html")
    events = [lambda: listed.dropped("http://a.test/desk/notice.html", lambda: remembered.append("notice")),
              lambda: listed.listed_again("http://a.test/desk/notice.html")]
    for event in events if drop_first else events[::-1]:
        event()
    listed.listed_again("http://a.test/desk/notice.html")  # a second listing remembers nothing more
    assert remembered == ["notice"]
    assert not (listed.linked or listed.listed or listed.held)


def test_a_drop_no_listing_names_or_a_page_no_link_requested_is_not_remembered():
    listed, remembered = ListedLinks(), []
    listed.link_requested("http://a.test/desk/notice.html")
    listed.dropped("http://a.test/desk/notice.html", lambda: remembered.append("notice"))
    listed.listed_again("http://a.test/other.html")
    listed.dropped("http://a.test/never-linked.html", lambda: remembered.append("never linked"))
    listed.listed_again("http://a.test/never-linked.html")
    assert remembered == []
