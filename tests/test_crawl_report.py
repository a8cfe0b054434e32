"""The end of a crawl tells a person how it went: the report block, the per-site stop reasons, the exit status.

Real crawls (``scrapy crawl news`` in a subprocess) of sites that cannot be reached: a refused port on
127.0.0.1 and a host name that does not resolve (through tests/offline_resolver.py: no real DNS),
beside sites on 127.0.0.x that answer, forbid everything in robots.txt, or answer 403 to everything.
"""
from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from mockweb import needs_loopback, read_jsonl
from newscrawl.commands.crawl import EXIT_UNAVAILABLE
from newscrawl.demo import DemoServer, crawl, write_sites_file
from newscrawl.demo.web import DemoSite, Reply, valley_ledger
from offline_resolver import LOG_VARIABLE

pytestmark = needs_loopback
TESTS_DIR = Path(__file__).resolve().parent
SETTINGS = {"TWISTED_DNS_RESOLVER": "offline_resolver.OfflineResolver", "NEWSCRAWL_EXTRACT_WORKERS": "0"}
UNRESOLVABLE_HOST = "nowhere-news.invalid"


def _closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (connection refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _unreachable_sites() -> list[dict]:
    return [{"name": "refused-news", "start_urls": [f"http://127.0.0.1:{_closed_port()}/"]},
            {"name": "nowhere-news", "start_urls": [f"http://{UNRESOLVABLE_HOST}/"]}]


def closed_ledger(base: str) -> DemoSite:
    """The Valley Ledger under another name, with a robots.txt that forbids everything."""
    site = valley_ledger(base)
    site.name, site.articles = "closed-ledger", {}
    site.routes["/robots.txt"] = Reply(b"User-agent: *\nDisallow: /\n", content_type="text/plain")
    site.config = {**site.config, "name": site.name}
    return site


def gone_ledger(base: str) -> DemoSite:
    """A site that answers 403 to every request."""
    site = DemoSite("gone-ledger", base)
    site.dynamic.append(("/", lambda path: Reply(b"<html><body>Forbidden</body></html>", status=403)))
    site.config = {"name": site.name, "start_urls": [base + "/"]}
    return site


@pytest.fixture
def resolver_log(monkeypatch, tmp_path) -> Path:
    """The crawl subprocess finds tests/offline_resolver.py (run_scrapy keeps PYTHONPATH) and logs the
    names it is asked to this file."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS_DIR), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv(LOG_VARIABLE, str(tmp_path / "resolved.txt"))
    return tmp_path / "resolved.txt"


def _report(stderr: str) -> list[str]:
    """The last block of stderr, from its header line on."""
    lines = stderr.rstrip("\n").splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("--- newscrawl: end of the crawl"))
    return lines[start:]


def test_no_site_reachable_exits_69_with_the_reasons(tmp_path, resolver_log):
    unreachable = _unreachable_sites()
    refused_url = unreachable[0]["start_urls"][0]
    sites = write_sites_file(unreachable, tmp_path / "sites.yaml")
    output = tmp_path / "out.jsonl"
    result = crawl(sites, output, cwd=tmp_path, settings=SETTINGS, timeout=120)

    assert result.returncode == EXIT_UNAVAILABLE == 69, result.stderr[-3000:]
    report = _report(result.stderr)
    assert report[:5] == ["--- newscrawl: end of the crawl (finished) ---",
                          f"articles written: 0, to {output}",
                          "sink sqlite: 0 written, 0 updated, 0 failed",
                          "sites with articles: 0 of 2",
                          "sites that failed: 2 of 2"]
    assert report[5].startswith(f"  nowhere-news: unreachable (DNS lookup failed): http://{UNRESOLVABLE_HOST}/")
    assert UNRESOLVABLE_HOST in resolver_log.read_text(encoding="utf-8").split()  # not real DNS
    assert report[6].startswith(f"  refused-news: unreachable (connection refused): {refused_url}")
    summary_path = tmp_path / "out.summary.json"
    assert report[7:] == [f"per-site summary: {summary_path}", "exit status 69: no site could be reached"]

    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    assert summary["sites"]["nowhere-news"]["stopped"] == "unreachable:dns"
    assert summary["sites"]["refused-news"]["stopped"] == "unreachable:connection_refused"
    # expected network failures: no traceback, one line per failed request naming the URL and the reason
    assert "Traceback" not in result.stderr
    failed = [line for line in result.stderr.splitlines() if " failed (" in line]
    assert any(f"http://{UNRESOLVABLE_HOST}/robots.txt failed (robots, dns)" in line for line in failed)
    assert any(f"{refused_url} failed (page, connection_refused)" in line for line in failed)
    assert len(failed) == len(set(failed)) == 4  # robots.txt and start page of each site, each once


def test_mixed_crawl_names_each_failed_site_and_logs_to_a_new_directory(tmp_path, resolver_log):
    web = DemoServer().start(builders=(valley_ledger, closed_ledger, gone_ledger))
    try:
        sites = write_sites_file([s.config for s in web.sites] + _unreachable_sites(), tmp_path / "sites.yaml")
        log_file = tmp_path / "logs" / "cron" / "news.log"  # neither directory exists
        result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, timeout=180,
                       settings={**SETTINGS, "LOG_FILE": log_file})
    finally:
        web.stop()

    assert result.returncode == 0, result.stderr[-3000:]
    articles = read_jsonl(tmp_path / "out.jsonl")
    assert {item["site"] for item in articles} == {"valley-ledger"}
    report = _report(result.stderr)
    assert report[1:5] == [f"articles written: {len(articles)}, to {tmp_path / 'out.jsonl'}",
                           f"sink sqlite: {len(articles)} written, 0 updated, 0 failed",
                           "sites with articles: 1 of 5", "sites that failed: 4 of 5"]
    reasons = {line.split(":")[0].strip(): line.split(":", 1)[1].split(":")[0].strip() for line in report[5:9]}
    assert reasons == {"closed-ledger": "failed (robots.txt forbids its pages)", "gone-ledger": "failed (HTTP 403)",
                       "nowhere-news": "unreachable (DNS lookup failed)",
                       "refused-news": "unreachable (connection refused)"}
    assert report[-1] == "exit status 0: the crawl ran"
    # the log went to the file, created with its directories; the report is its last record too
    log = log_file.read_text(encoding="utf-8")
    assert "Spider closed (finished)" in log and log.rstrip("\n").endswith("\n".join(report))
    summary = json.loads((tmp_path / "out.summary.json").read_text(encoding="utf-8"))
    assert summary["sites"]["valley-ledger"]["stopped"] == "exhausted"
    assert summary["sites"]["closed-ledger"]["stopped"] == "failed:robots"
    assert summary["sites"]["gone-ledger"]["stopped"] == "failed:http_403"


def _fake_browser(tmp_path: Path) -> tuple[Path, Path]:
    """An executable standing in for Chromium: it notes that it was started, then fails."""
    marker, browser = tmp_path / "browser-started", tmp_path / "chromium"
    browser.write_text(f"#!/bin/sh\necho started >> '{marker}'\nexit 1\n", encoding="utf-8")
    browser.chmod(0o755)
    return browser, marker


def test_no_browser_starts_for_render_sites_that_do_not_answer(tmp_path, resolver_log):
    browser, marker = _fake_browser(tmp_path)
    settings = {**SETTINGS, "NEWSCRAWL_CHROMIUM_PATH": browser}
    unreachable = [{**site, "render": "always"} for site in _unreachable_sites()]
    result = crawl(write_sites_file(unreachable, tmp_path / "sites.yaml"), tmp_path / "out.jsonl", cwd=tmp_path,
                   settings=settings, timeout=120)
    assert result.returncode == EXIT_UNAVAILABLE, result.stderr[-3000:]
    assert not marker.exists()
    assert "Starting download handler" not in result.stderr  # not even Playwright's driver
    summary = json.loads((tmp_path / "out.summary.json").read_text(encoding="utf-8"))
    assert summary["sites"]["nowhere-news"]["skipped"] == {"host_unreachable": 1}

    # the same crawl with a render site that answers does start the (fake) browser
    web = DemoServer().start(builders=(valley_ledger,))
    try:
        answering = [{**web.sites[0].config, "render": "always"}]
        crawl(write_sites_file(answering, tmp_path / "answering.yaml"), tmp_path / "answering.jsonl",
              cwd=tmp_path, settings=settings, timeout=120)
    finally:
        web.stop()
    assert marker.exists()
