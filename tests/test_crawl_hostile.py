"""Real crawls (``scrapy crawl news`` in a subprocess) against hostile servers on loopback (tests/hostileweb.py).

Names that resolve to private addresses, endless response headers, huge listings beside a calm
site, and SIGTERM during a heavy crawl. Host names come from the test's own resolver
(tests/hostnames.py), never from the machine's.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hostileweb import drip_route, flood_headers, host_of, json_feed, links_page, port_of, slow_page, start_site
from hostnames import HOSTS_SETTING, hosts_setting
from mockweb import crawl_stats, needs_loopback, read_jsonl
from newscrawl.demo import crawl, write_sites_file
from newscrawl.demo.run import LOOPBACK_SETTINGS, PROJECT_ROOT

pytestmark = needs_loopback
TESTS_DIR = Path(__file__).resolve().parent
SETTINGS = {"NEWSCRAWL_EXTRACT_WORKERS": "0", "LOG_LEVEL": "INFO", "ROBOTSTXT_OBEY": "0",
            "TWISTED_DNS_RESOLVER": "hostnames.MappedNamesResolver"}


def run_raw(workdir: Path, sites: list[dict], settings: dict | None = None, timeout: float = 180):
    """The crawl's (returncode, stderr), with tests/ importable for the test resolver."""
    path = write_sites_file(sites, workdir / "sites.yaml")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS_DIR), os.environ.get("PYTHONPATH")])))
        result = crawl(path, workdir / "out.jsonl", cwd=workdir, timeout=timeout,
                       settings={**SETTINGS, **(settings or {})})
    return result.returncode, result.stderr


def run(workdir: Path, sites: list[dict], settings: dict | None = None, timeout: float = 180):
    """The crawl's (returncode, stderr, stats, items)."""
    code, stderr = run_raw(workdir, sites, settings, timeout)
    out = workdir / "out.jsonl"
    return code, stderr, crawl_stats(stderr, workdir), read_jsonl(out) if out.exists() else []


def test_names_resolving_to_private_addresses_are_refused(tmp_path):
    """evil.test (an allowed domain) and own.test (a site's own host) resolve to the site's loopback
    address: neither is fetched; the site configured by its loopback address itself is crawled."""
    site = start_site()
    try:
        ip, port = host_of(site), port_of(site)
        site.add_page("/", (f'<a href="/news/2024/05/01/good-story.html">a</a>'
                            f'<a href="http://evil.test:{port}/news/2024/05/02/secret-story.html">b</a>').join(
                               ["<html><body>", "</body></html>"]).encode())
        site.add_article("/news/2024/05/01/good-story.html", "Good story", 1)
        site.add_article("/news/2024/05/02/secret-story.html", "Secret story", 2)
        sites = [{"name": "loopback-gazette", "start_urls": [f"{site.base}/"], "allowed_domains": [ip, "evil.test"]},
                 {"name": "rebound-gazette", "start_urls": [f"http://own.test:{port}/"]}]
        code, stderr, stats, items = run(tmp_path, sites, {
            HOSTS_SETTING: hosts_setting({"evil.test": ip, "own.test": ip})})
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert code == 0, stderr[-3000:]
    assert site.hosts_asked() == {ip}
    assert [item["url"] for item in items] == [f"{site.base}/news/2024/05/01/good-story.html"]
    assert stats["newscrawl/site/loopback-gazette/rejected/private_address"] == 1
    assert stats["newscrawl/site/rebound-gazette/rejected/private_address"] >= 1


HEADER_FLOOD_BYTES = 512 * 1024 * 1024  # what the flooding route would send if nobody hung up


def test_endless_headers_are_cut_at_the_header_bound(tmp_path):
    """A page whose headers never end: the crawl hangs up after NEWSCRAWL_MAX_HEADER_BYTES (the server
    could push only that plus the sockets' buffers), counts it, and crawls the rest of the site."""
    site = start_site()
    try:
        site.routes["/flood.html"] = flood_headers(site, "/flood.html", HEADER_FLOOD_BYTES)
        site.add_page("/", b'<html><body><a href="/flood.html">f</a>'
                           b'<a href="/news/2024/05/01/calm-story.html">c</a></body></html>')
        site.add_article("/news/2024/05/01/calm-story.html", "Calm story", 1)
        code, stderr, stats, items = run(tmp_path, [{"name": "flood-gazette", "start_urls": [f"{site.base}/"]}],
                                         {"DOWNLOAD_TIMEOUT": "20"})
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert code == 0, stderr[-3000:]
    assert stats["newscrawl/site/flood-gazette/errors/headers_too_large"] == 1
    assert site.paths().count("/flood.html") == 1  # not retried
    assert site.sent["/flood.html"] < 32 * 1024 * 1024  # 256 KiB read; the rest is loopback socket buffers
    assert [item["title"] for item in items] == ["Calm story"]


HUGE_LINKS = 300_000  # links on the huge site's home page (~7 MB)
HUGE_FEED = 200_000  # entries of its JSON feed
HUGE_HOME_DELAY = 2.0  # seconds the huge site's home page is answered late
CALM_PAGES = 120  # pages of the calm site, linked from its home page, each served 50 ms late, one at a time


def test_a_huge_listing_is_cut_at_the_budget_and_other_sites_go_on(tmp_path):
    huge, calm = start_site(), start_site(170)
    try:
        links = [f"/n/{i}-x" for i in range(HUGE_LINKS)]
        # one 1 MB href first; answered HUGE_HOME_DELAY late, so that the feed, fetched first, has spent
        # the budget before the home page is read (the feed is read in time slices: a home page answered
        # at once could be read between two of them)
        huge.routes["/"] = slow_page(links_page(["/" + "a" * (1 << 20), *links]), HUGE_HOME_DELAY)
        feed = [f"{huge.base}/{'b' * (1 << 20)}", *(f"{huge.base}/f/{i}-y" for i in range(HUGE_FEED))]
        huge.add_page("/feed.json", json_feed(feed), "application/feed+json")  # a 1 MB URL first
        calm_paths = [f"/news/2024/05/01/calm-story-{i}.html" for i in range(CALM_PAGES)]
        calm.add_page("/", links_page(calm_paths))
        for path in calm_paths:
            calm.routes[path] = slow_page(links_page([]), 0.05)
        code, stderr, stats, _ = run(tmp_path, [
            {"name": "huge-gazette", "start_urls": [f"{huge.base}/"], "feeds": [f"{huge.base}/feed.json"],
             "max_pages": 30},
            {"name": "calm-gazette", "start_urls": [f"{calm.base}/"]}],
            {"NEWSCRAWL_EXTRACT_ENABLED": "0", "CONCURRENT_REQUESTS_PER_DOMAIN": "1", "DOWNLOAD_TIMEOUT": "20"})
        calm_times = list(calm.hits.times)
    finally:
        for site in (huge, calm):
            site.server.shutdown()
            site.server.server_close()
    assert code == 0, stderr[-3000:]
    # the feed (fetched first) spends the budget; the home page's links are not read at all
    assert stats["newscrawl/site/huge-gazette/listings/cut_at_budget"] == 2
    assert stats["newscrawl/site/huge-gazette/rejected/url_too_long"] == 1
    assert stats["newscrawl/site/huge-gazette/pages"] <= 30
    assert stats.get("newscrawl/site/huge-gazette/rejected/max_pages", 0) < 100  # the rest was never read
    assert stats["newscrawl/site/calm-gazette/pages"] == CALM_PAGES + 1
    gaps = [b - a for a, b in zip(calm_times, calm_times[1:])]
    assert max(gaps) < 3.0, max(gaps)
    assert len(stderr) < 2_000_000  # the 1 MB href is in no log line


def test_a_catastrophic_pattern_is_refused_before_any_request(tmp_path):
    site = start_site()
    try:
        sites = [{"name": "regex-gazette", "start_urls": [f"{site.base}/"], "article_patterns": ["/news/", "(a+)+$"]}]
        code, stderr = run_raw(tmp_path, sites)
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert code == 2
    [line] = stderr.strip().splitlines()
    assert "site 'regex-gazette'" in line and "'article_patterns'" in line and "'(a+)+$'" in line
    assert site.paths() == []


SIGTERM_GRACE_SECONDS = 10  # from SIGTERM to the crawl's exit


def test_sigterm_stops_a_busy_crawl_within_seconds(tmp_path):
    """SIGTERM while the crawl walks a huge listing, with a page dripping for ever in flight."""
    site = start_site()
    try:
        site.add_page("/", links_page([f"/n/{i}-story-of-the-day" for i in range(HUGE_LINKS)]))
        site.routes["/drip.html"] = drip_route(60)
        sites = write_sites_file([{"name": "busy-gazette", "start_urls": [f"{site.base}/drip.html", f"{site.base}/"],
                                   "article_patterns": [r"/n/\d+-story"], "max_pages": 100_000}],
                                 tmp_path / "sites.yaml")
        command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"sites={sites}", "-O", str(tmp_path / "o.jsonl")]
        for name, value in {**LOOPBACK_SETTINGS, **SETTINGS, "DOWNLOAD_TIMEOUT": "120"}.items():
            command += ["-s", f"{name}={value}"]
        env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings",
                   PYTHONPATH=os.pathsep.join([str(PROJECT_ROOT), str(TESTS_DIR)]))
        crawl_process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not {"/drip.html", "/"} <= set(site.paths()) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(2)  # the listing is being walked now
        crawl_process.send_signal(signal.SIGTERM)
        signalled = time.monotonic()
        try:
            _, stderr = crawl_process.communicate(timeout=60)
        finally:
            crawl_process.kill()
        stopped_after = time.monotonic() - signalled
    finally:
        site.server.shutdown()
        site.server.server_close()
    assert "/drip.html" in site.paths()
    assert stopped_after < SIGTERM_GRACE_SECONDS, (stopped_after, stderr[-3000:])
    assert "shutdown" in stderr
