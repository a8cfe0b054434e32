"""One real crawl (``scrapy crawl news`` in a subprocess) of the fault web (tests/faultweb.py).

Every fault is counted, none stops the crawl, every good page around the faults is emitted,
and nothing outside the sites' hosts is requested: the crawl's own request ledger
(newscrawl.crawl.safety.RequestLedgerMiddleware, with NEWSCRAWL_LOOPBACK_ONLY as a safety net)
holds only the sites' hosts and ports, and the bystander server on 127.0.0.1 gets no hit.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from faultweb import FaultWeb
from mockweb import crawl_stats, needs_loopback, read_jsonl
from newscrawl.demo import crawl, write_sites_file

pytestmark = needs_loopback
# Short timeouts so the slow faults cost seconds; everything else is the shipped configuration
# (REDIRECT_MAX_TIMES 5, frontier trap limits) except smaller trap caps and a 4 MB size limit.
SETTINGS = {"DOWNLOAD_MAXSIZE": str(4 << 20), "DOWNLOAD_WARNSIZE": str(1 << 20), "DOWNLOAD_TIMEOUT": "2", "RETRY_TIMES": "1", "NEWSCRAWL_MAX_QUERY_VARIANTS": "5",
            "NEWSCRAWL_MAX_PER_SHAPE": "10", "NEWSCRAWL_EXTRACT_WORKERS": "0", "LOG_LEVEL": "INFO"}


@dataclass
class FaultRun:
    web: FaultWeb
    returncode: int
    stderr: str
    seconds: float
    items: list[dict]
    stats: dict
    fetched: list[str]
    refused: list[str]

    def stat(self, key: str) -> int:
        return self.stats.get(key, 0)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> FaultRun:
    web = FaultWeb.start()
    workdir = tmp_path_factory.mktemp("faults")
    ledger = workdir / "requests.log"
    try:
        sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")
        started = time.monotonic()
        result = crawl(sites, workdir / "out.jsonl", cwd=workdir, timeout=240,
                       settings={**SETTINGS, "NEWSCRAWL_REQUEST_LOG": ledger, "NEWSCRAWL_LOOPBACK_ONLY": "1"})
        seconds = time.monotonic() - started
        (workdir / "stderr.txt").write_text(result.stderr, encoding="utf-8")
        lines = ledger.read_text(encoding="utf-8").splitlines() if ledger.exists() else []
        out = workdir / "out.jsonl"
        yield FaultRun(web, result.returncode, result.stderr, seconds, read_jsonl(out) if out.exists() else [],
                       crawl_stats(result.stderr, workdir), [line for line in lines if not line.startswith("REFUSED ")],
                       [line.split(" ", 1)[1] for line in lines if line.startswith("REFUSED ")])
    finally:
        web.stop()


def _paths(run: FaultRun, site: str) -> set[str]:
    return {urlsplit(item["url"]).path for item in run.items if item["site"] == site}


def test_crawl_finishes_by_itself(run):
    assert run.returncode == 0, run.stderr[-3000:]
    assert "finish_reason': 'finished'" in run.stderr
    assert run.seconds < 120


def test_every_good_page_is_emitted_once(run):
    assert _paths(run, "fault-gazette") == set(run.web.fault.articles)
    assert _paths(run, "slow-robots") == set(run.web.slow_robots.articles)
    assert len(run.items) == len({item["canonical_url"] for item in run.items})


def test_wrong_header_charset_is_corrected_by_the_meta_tag(run):
    [item] = [i for i in run.items if i["url"].endswith("wrong-charset.html")]
    assert item["title"] == "错误字符集的报道"
    assert "\ufffd" not in item["text"]


def test_connection_faults_are_counted(run):
    assert run.stat("newscrawl/site/fault-gazette/errors/connection_refused") >= 1
    assert run.stat("newscrawl/errors/timeout") >= 2  # the slow page and the endless drip
    assert run.stat("newscrawl/site/fault-gazette/errors/responsedatalosserror") >= 1  # reset mid-body


def test_retries_recover_503_and_429(run):
    assert run.stat("retry/reason_count/503 Service Unavailable") >= 1
    assert run.stat("retry/reason_count/429 Unknown Status") >= 1
    assert run.web.fault.hits.paths.count("/news/2024/05/10/flaky-503.html") == 2
    assert run.web.fault.hits.paths.count("/news/2024/05/11/rate-limited.html") == 2


def test_retry_after_is_waited_before_the_retry(run):
    first, second = run.web.fault.hits.times_of("/news/2024/05/11/rate-limited.html")
    assert second - first >= 0.9   # the 429 says Retry-After: 1
    assert run.stat("newscrawl/retry_after/waited") >= 1


def test_size_limits_stop_the_gzip_bomb_and_the_huge_page(run):
    assert run.stat("downloader/response_bytes") < 200 * 1024 * 1024
    assert run.stat("newscrawl/site/fault-gazette/errors/downloadcancellederror") >= 1  # 50 MB page cut at 4 MB
    assert "exceeded DOWNLOAD_MAXSIZE" in run.stderr and run.stat("newscrawl/site/fault-gazette/ignored") >= 1
    assert "/huge.html" in run.web.fault.hits.paths and "/gz-bomb.html" in run.web.fault.hits.paths
    assert run.stat("newscrawl/site/fault-gazette/errors/bad_sitemap_gzip") == 1  # the gzip-bomb sitemap


def test_truncated_gzip_binary_and_pdf_bodies_give_no_item(run):
    for path in ("/gz-truncated.html", "/binary.html", "/files/report"):
        assert path in run.web.fault.hits.paths
        assert not any(item["url"].endswith(path) for item in run.items)
    assert run.stat("newscrawl/dropped/not_html") >= 2


def test_redirect_loop_ends(run):
    assert run.web.fault.hits.paths.count("/loop/a") <= 4
    assert run.stat("newscrawl/site/fault-gazette/errors/ignorerequest") + run.stat(
        "newscrawl/site/fault-gazette/ignored") >= 1


def test_traps_end_by_themselves(run):
    calendar = [p for p in run.web.fault.hits.paths if p.startswith("/calendar/")]
    sessions = [p for p in run.web.fault.hits.paths if p.startswith("/session")]
    assert 0 < len(calendar) <= 11 and 0 < len(sessions) <= 6
    assert run.stat("newscrawl/site/fault-gazette/rejected/url_shape") + run.stat(
        "newscrawl/site/fault-gazette/rejected/max_depth") >= 1
    assert run.stat("newscrawl/site/fault-gazette/rejected/query_variants") >= 1


def test_malformed_and_entity_bomb_listings(run):
    assert run.stat("newscrawl/site/fault-gazette/errors/malformed_feed") == 1
    assert run.stat("newscrawl/site/fault-gazette/errors/malformed_sitemap") == 1
    # the entity-bomb feed and sitemap parse without expanding anything: no lol-laden URL, no /etc/passwd
    assert not any("lol" in path or "root:" in path for path in run.web.fault.hits.paths)
    assert all("lollol" not in (item["title"] or "") for item in run.items)


def test_robots_faults_do_not_stop_the_site(run):
    assert run.web.slow_robots.hits.paths.count("/robots.txt") >= 1
    assert run.stat("robotstxt/exception_count/scrapy.exceptions.DownloadTimeoutError") + run.stat(
        "newscrawl/site/slow-robots/errors/timeout") >= 1
    assert run.web.fault.hits.paths.count("/robots.txt") >= 1


def test_no_request_leaves_the_sites(run):
    allowed = {urlsplit(run.web.fault.base).netloc, urlsplit(run.web.slow_robots.base).netloc,
               f"{urlsplit(run.web.fault.base).hostname}:{run.web.fault.closed_port}"}
    assert {urlsplit(url).netloc for url in run.fetched} <= allowed
    assert run.refused == []  # the loopback-only safety net never had to act
    assert run.web.bystander.hits.paths == []
    for url in run.fetched:
        assert not url.startswith(("http://169.254.", "http://10.", "http://localhost"))


def test_offsite_targets_are_rejected_before_download_and_counted(run):
    site = "newscrawl/site/fault-gazette/"
    assert run.stat(site + "rejected/offsite") >= 3  # links, feed and sitemap entries (spider frontier)
    assert run.stat(site + "rejected/offsite_host") >= 3  # redirects, incl. 503 -> retry -> 302 to 169.254
    assert run.stat(site + "rejected/private_host") + run.stat(site + "rejected/offsite") >= 1
    assert "/flaky-away" in run.web.fault.hits.paths
