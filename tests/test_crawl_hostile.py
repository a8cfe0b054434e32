"""Real crawls (``scrapy crawl news`` in a subprocess) against hostile servers on loopback (tests/hostileweb.py).

Names that resolve to private addresses, endless response headers, huge listings beside a calm
site, and SIGTERM during a heavy crawl. Host names come from the test's own resolver
(tests/hostnames.py), never from the machine's.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from hostileweb import flood_headers, host_of, port_of, start_site
from hostnames import HOSTS_SETTING, hosts_setting
from mockweb import crawl_stats, needs_loopback, read_jsonl
from newscrawl.demo import crawl, write_sites_file

pytestmark = needs_loopback
TESTS_DIR = Path(__file__).resolve().parent
SETTINGS = {"NEWSCRAWL_EXTRACT_WORKERS": "0", "LOG_LEVEL": "INFO", "ROBOTSTXT_OBEY": "0",
            "TWISTED_DNS_RESOLVER": "hostnames.MappedNamesResolver"}


def run(workdir: Path, sites: list[dict], settings: dict | None = None, timeout: float = 180):
    """The crawl's (returncode, stderr, stats, items), with tests/ importable for the test resolver."""
    path = write_sites_file(sites, workdir / "sites.yaml")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(TESTS_DIR), os.environ.get("PYTHONPATH")])))
        result = crawl(path, workdir / "out.jsonl", cwd=workdir, timeout=timeout,
                       settings={**SETTINGS, **(settings or {})})
    out = workdir / "out.jsonl"
    return result.returncode, result.stderr, crawl_stats(result.stderr), read_jsonl(out) if out.exists() else []


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
