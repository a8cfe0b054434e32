"""robots.txt at scale: one request per site and run, conditional on the next run, still obeyed.

Two runs of the real crawl over five loopback sites (manysites_web.py) with one state: the first
downloads each robots.txt once (the spider's request; the robots middleware reads its rules from
that answer), the second asks with the stored ETag and gets 304, and the rules still hold.
"""
from __future__ import annotations

from collections import Counter

import pytest

from manysites_web import ManySitesWeb
from mockweb import crawl_stats, needs_loopback
from newscrawl.demo import crawl, write_sites_file

pytestmark = needs_loopback
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


def test_robots_txt_is_fetched_once_per_site(runs):
    (first, stats), _ = runs
    assert _robots_requests(first) == Counter({site: 1 for site in range(SITES)})
    assert stats["newscrawl/robots/shared"] == SITES


def test_the_rules_read_from_that_one_answer_are_obeyed(runs):
    for hits, stats in runs:
        assert not [hit for hit in hits if hit.path.startswith("/private/")]
        assert stats["newscrawl/rejected/robots"] == SITES  # each home page links one private page


def test_the_next_run_asks_conditionally_and_gets_304(runs):
    _, (second, stats) = runs
    robots = [hit for hit in second if hit.path == "/robots.txt"]
    assert _robots_requests(second) == Counter({site: 1 for site in range(SITES)})
    assert all(hit.conditional and hit.status == 304 for hit in robots)
    assert stats["newscrawl/conditional/not_modified"] >= SITES
