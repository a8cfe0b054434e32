"""End-to-end crawl of the mock web: ``scrapy crawl news`` in a subprocess, default output path.

The mock web (newscrawl/demo/web.py) has three sites on 127.0.0.x: English
with RSS, robots.txt, sitemap index (gzip + news), sections with endless
pagination, a calendar trap, 404/500/slow pages and a redirect loop; English
with a JSON Feed found on the home page and a print copy naming its canonical;
Chinese in GBK with Atom feed and sitemap.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from mockweb import BOILERPLATE, ITEM_KEYS, CrawlRun, needs_loopback, run_crawl
from newscrawl.demo import DemoServer
from newscrawl.extract import fastwalk

pytestmark = needs_loopback


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> CrawlRun:
    web = DemoServer().start()
    try:
        yield run_crawl(web, tmp_path_factory.mktemp("crawl"), output=None)
    finally:
        web.stop()


def _expected(run: CrawlRun) -> dict:
    return {url: (site.name, story) for site in run.web.sites for url, story in site.articles.items()}


def _by_canonical(run: CrawlRun) -> dict[str, dict]:
    return {item["canonical_url"]: item for item in run.items}


def _normalize(text: str) -> str:
    return " ".join(text.split())


def test_crawl_exits_cleanly_and_writes_default_output(run):
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.fullmatch(r"news-\d{8}T\d{6}Z\.jsonl", run.output.name)
    assert run.output.parent.name == "output"
    assert run.summary["close_reason"] == "finished"


def test_every_article_emitted_exactly_once(run):
    canonicals = [item["canonical_url"] for item in run.items]
    assert len(canonicals) == len(set(canonicals))
    assert set(canonicals) == set(_expected(run))


def test_items_have_the_schema(run):
    for item in run.items:
        assert list(item) == ITEM_KEYS
        assert item["discovered_via"] in ("feed", "sitemap", "link")
        assert item["fetched_at"].endswith("+00:00")
        assert isinstance(item["authors"], list)


def test_titles_dates_and_text_are_right(run):
    expected = _expected(run)
    for canonical, item in _by_canonical(run).items():
        site, story = expected[canonical]
        assert item["site"] == site
        assert item["title"] == story.title
        assert item["published"][:10] == story.date[:10], canonical
        text = _normalize(item["text"])
        for paragraph in story.paragraphs:
            assert _normalize(paragraph) in text, (canonical, paragraph[:40])
        for noise in BOILERPLATE:
            assert noise not in text and noise not in item["html"], (canonical, noise)


def test_gbk_site_comes_out_readable(run):
    chinese = [item for item in run.items if item["site"] == "jiangcheng-daily"]
    assert len(chinese) == 5
    assert all("\ufffd" not in item["text"] and "。" in item["text"] for item in chinese)
    raw = run.output.read_text(encoding="utf-8")
    assert "江城地铁五号线开通试运营" in raw  # UTF-8, not \u-escaped


def test_no_list_tag_about_or_calendar_page_emitted(run):
    for item in run.items:
        assert not re.search(r"/(tag|archive|about|channel|world|business|contact)\b", item["url"]), item["url"]
        assert item["url"].rstrip("/").count("/") > 2
    dropped = run.site_summary("harbor-times")["dropped"]
    assert sum(dropped.values()) >= 5


def test_calendar_trap_and_endless_pagination_end(run):
    requested = run.web.paths("harbor-times")
    calendar = [p for p in requested if p.startswith("/archive/")]
    pagination = [p for p in requested if p.startswith("/world/")]
    assert 0 < len(calendar) <= 60
    assert 0 < len(pagination) <= 40
    rejected = run.site_summary("harbor-times")["rejected"]
    assert rejected.get("max_depth", 0) + rejected.get("url_shape", 0) + rejected.get("query_variants", 0) > 0


def test_redirect_loop_ends(run):
    requested = run.web.paths("harbor-times")
    assert "/loop/a" in requested and "/loop/b" in requested
    assert requested.count("/loop/a") <= 3


def test_errors_are_counted_and_do_not_stop_the_crawl(run):
    errors = run.site_summary("harbor-times")["errors"]
    assert errors.get("http_404", 0) >= 1
    assert errors.get("http_500", 0) == 1
    assert errors.get("timeout", 0) == 1
    assert run.site_summary("harbor-times")["articles"] == 7


def test_feeds_and_sitemaps_all_discover(run):
    listings = {name: run.site_summary(name).get("listings", {}) for name in ("harbor-times", "valley-ledger",
                                                                              "jiangcheng-daily")}
    assert listings["harbor-times"].keys() >= {"feed_rss", "sitemap_sitemapindex", "sitemap_urlset", "sitemap_news"}
    assert "feed_jsonfeed" in listings["valley-ledger"]
    assert listings["jiangcheng-daily"].keys() >= {"feed_atom", "sitemap_urlset"}
    assert run.site_summary("harbor-times")["discovered"]["sitemap_from_robots"] == 1
    assert run.site_summary("valley-ledger")["discovered"]["feed_from_page"] == 1
    via = {item["title"]: item["discovered_via"] for item in run.items}
    # only in the gzip sitemap / only in the news sitemap / only in the JSON Feed
    assert via["Last lighthouse keeper on Gull Island retires after forty years"] == "sitemap"
    assert via["Harbour rowing club wins the regional final by half a length"] == "sitemap"
    assert via["School board delays vote on the bus contract"] == "feed"


def test_robots_disallow_is_obeyed(run):
    assert not [p for p in run.web.paths("harbor-times") if p.startswith("/private/")]


def test_tracking_parameters_are_not_fetched_and_duplicates_dropped(run):
    assert not [p for p in run.web.paths("harbor-times") if "utm_" in p]
    assert run.site_summary("valley-ledger")["dropped"].get("duplicate") == 1


def test_summary_is_written_next_to_the_output(run):
    sites = run.summary["sites"]
    assert set(sites) == {"harbor-times", "valley-ledger", "jiangcheng-daily"}
    assert all(site["stopped"] == "exhausted" for site in sites.values())
    assert run.summary["totals"]["articles"] == len(run.items)
    assert run.summary["output"].endswith(run.output.name)


def test_progress_is_logged(run):
    assert "Progress: " in run.stderr and " articles (" in run.stderr


def test_the_walks_in_use_are_logged_once_and_counted(run):
    """Compiled or pure Python (fastwalk.py): one log line and a 1/0 stat, nothing else printed about it."""
    stats = run.stats()
    assert stats["newscrawl/extract/compiled"] == (0 if fastwalk.compiled is None else 1)
    assert len([line for line in run.stderr.splitlines() if "walks" in line]) == 1
    assert f"INFO: extractor: {fastwalk.report.message}" in run.stderr


def test_pending_requests_wait_on_disk_and_the_queue_is_removed_at_the_end(run):
    """No JOBDIR here: the queue still goes to disk (memory stays flat on broad crawls)."""
    stats = run.stats()
    assert stats["scheduler/enqueued/disk"] == stats["scheduler/enqueued"] > 20
    assert "scheduler/enqueued/memory" not in stats
    spill_dir = re.search(r"Pending requests are queued on disk in (\S+)", run.stderr).group(1)
    assert not Path(spill_dir).exists()
