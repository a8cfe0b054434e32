"""robots.txt at scale: one request per site and run, conditional on the next run, still obeyed.

Two runs of the real crawl over five loopback sites (manysites_web.py) with one state: the first
downloads each robots.txt once (the robots middleware's download answers the spider's request and
gives the rules), the second asks with the stored ETag and gets 304, and the rules still hold.
"""
from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from manysites_web import ManySitesWeb
from mockweb import crawl_stats, needs_loopback
from newscrawl.demo import crawl, write_sites_file
from newscrawl.crawl.robots import Awaited

SITES = 5
SETTINGS = {"NEWSCRAWL_EXTRACT_WORKERS": "0"}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(hits, stats) of two runs over the same state."""
    web = ManySitesWeb(SITES).start()
    workdir = tmp_path_factory.mktemp("robots")
    try:
        sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")
        results = []
        for run in (1, 2):
            done = crawl(sites, workdir / f"run{run}.jsonl", cwd=workdir, settings=SETTINGS)
            assert done.returncode == 0, done.stderr[-3000:]
            results.append((list(web.hits), crawl_stats(done.stderr, workdir)))
            web.clear()
        yield results
    finally:
        web.stop()


def _robots_requests(hits) -> Counter:
    return Counter(hit.site for hit in hits if hit.path == "/robots.txt")


@needs_loopback
def test_robots_txt_is_fetched_once_per_site(runs):
    (first, stats), _ = runs
    assert _robots_requests(first) == Counter({site: 1 for site in range(SITES)})
    assert stats["newscrawl/robots/shared"] == SITES


@needs_loopback
def test_the_rules_read_from_that_one_answer_are_obeyed(runs):
    for hits, stats in runs:
        assert not [hit for hit in hits if hit.path.startswith("/private/")]
        assert stats["newscrawl/rejected/robots"] == SITES  # each home page links one private page


@needs_loopback
def test_the_next_run_asks_conditionally_and_gets_304(runs):
    _, (second, stats) = runs
    robots = [hit for hit in second if hit.path == "/robots.txt"]
    assert _robots_requests(second) == Counter({site: 1 for site in range(SITES)})
    assert all(hit.conditional and hit.status == 304 for hit in robots)
    assert stats["newscrawl/conditional/not_modified"] >= SITES


@needs_loopback
def test_a_moved_robots_txt_is_followed_while_many_requests_wait_for_it(tmp_path):
    """robots.txt redirects, and each site's two start pages wait for its rules with only two
    requests downloading at a time: the redirect is followed all the same (the download does not
    queue behind the requests waiting for it), and every waiting request gets the rules (the
    private start page is refused, not only the first request that waited)."""
    web = ManySitesWeb(SITES, robots_moved=True).start()
    try:
        sites = write_sites_file(web.sites_config(start_paths=("/", "/private/draft.html")), tmp_path / "sites.yaml")
        done = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, timeout=120,
                     settings={**SETTINGS, "CONCURRENT_REQUESTS": "2"})
        assert done.returncode == 0, done.stderr[-3000:]
        assert not [hit for hit in web.hits if hit.path.startswith("/private/")]
        assert _robots_requests(web.hits) == Counter({site: 1 for site in range(SITES)})
        assert len(web.requested("/files/robots.txt")) == SITES
        stats = crawl_stats(done.stderr, tmp_path)
        assert stats["newscrawl/rejected/robots"] == SITES  # the private start page (the home page links it too)
        assert stats["newscrawl/articles"] == SITES
    finally:
        web.stop()


def test_every_request_waiting_for_a_hosts_rules_gets_them():
    """A Deferred awaited by several coroutines gives its result to the first only (the others got
    None, "allow all", in Scrapy's middleware); the rules' Awaited gives it to each."""
    async def wait_four():
        rules = Awaited()
        waiting = [asyncio.ensure_future(rules.wait()) for _ in range(4)]
        await asyncio.sleep(0)
        rules.settle("the rules")
        return await asyncio.gather(*waiting)

    assert asyncio.run(wait_four()) == ["the rules"] * 4
