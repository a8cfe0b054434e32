"""Connections reset mid-body fail at once, every time: none of them waits for the download timeout.

A real crawl (``scrapy crawl news`` in a subprocess, the shipped reactor and event loop) of a site whose
every article is cut by a TCP reset after 4,000 of its promised 100,000 bytes. Each reset must end its
request as data loss within moments. A connection whose reset the event loop never reports waits out
the download timeout (60 s here) and is counted as a timeout: none may be. Twisted's reactor on uvloop's
loop lost the reset of 15 of these 120 connections, the reason the crawl runs on Python's own loop.
"""
from __future__ import annotations

from faultweb import ResetSite, free_loopback_host
from mockweb import crawl_stats, needs_loopback
from newscrawl.demo import crawl, write_sites_file

pytestmark = needs_loopback
PAGES = 120
TIMEOUT_SECONDS = 60


def test_every_reset_fails_at_once_and_is_counted(tmp_path):
    site = ResetSite(PAGES)
    site.bind(free_loopback_host(70))
    try:
        sites = write_sites_file([{"name": "cut-short", "start_urls": [f"{site.base}/"]}], tmp_path / "sites.yaml")
        result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, timeout=240,
                       settings={"DOWNLOAD_TIMEOUT": str(TIMEOUT_SECONDS), "RETRY_TIMES": "0",
                                 "NEWSCRAWL_EXTRACT_WORKERS": "0", "LOG_LEVEL": "INFO"})
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert result.returncode == 0, result.stderr[-3000:]
    stats = crawl_stats(result.stderr, tmp_path)
    assert sorted(set(site.hits.paths) - {"/", "/robots.txt"}) == sorted(site.pages)
    assert stats.get("newscrawl/site/cut-short/errors/responsedatalosserror", 0) == PAGES
    assert stats.get("newscrawl/errors/timeout", 0) == 0
