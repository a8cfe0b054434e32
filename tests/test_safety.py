"""Offsite rules: allowed hosts, ports and private addresses, judged before download (newscrawl.crawl.safety)."""
from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.test import get_crawler

from newscrawl.crawl.safety import SiteOffsiteMiddleware, SiteReach, is_private_host
from newscrawl.config.sites import parse_sites
from newscrawl.spiders.news import NewsSpider

SITES = """sites:
- name: pub
  start_urls: ['https://news.example.com/']
- name: local
  start_urls: ['http://127.0.0.2:8001/']
  feeds: ['http://127.0.0.2:8001/rss.xml']
- name: intranet
  start_urls: ['http://wiki.corp.example/']
  allowed_domains: [wiki.corp.example, 10.0.0.7]
"""


@pytest.fixture
def reach():
    return {site.name: SiteReach.of_site(site) for site in parse_sites(SITES)}


@pytest.mark.parametrize("host, private", [
    ("169.254.169.254", True), ("10.0.0.1", True), ("127.0.0.1", True), ("localhost", True), ("::1", True),
    ("[::1]", True), ("192.168.1.1", True), ("172.16.0.3", True), ("0.0.0.0", True), ("fe80::1", True),
    ("100.64.0.1", True), ("224.0.0.1", True), ("a.localhost", True),
    ("8.8.8.8", False), ("news.example.com", False), (None, False)])
def test_private_hosts(host, private):
    assert is_private_host(host) is private


@pytest.mark.parametrize("site, url, problem", [
    ("pub", "https://news.example.com/a", None),
    ("pub", "http://img.news.example.com/a", None),
    ("pub", "https://news.example.com:6379/", "offsite_port"),
    ("pub", "http://169.254.169.254/latest/meta-data/", "offsite_host"),
    ("pub", "http://10.0.0.1/", "offsite_host"),
    ("local", "http://127.0.0.2:8001/story", None),
    ("local", "http://127.0.0.2:8002/", "private_host"),  # same loopback host, another port
    ("local", "http://127.0.0.2/", "private_host"),
    ("local", "http://localhost:8001/", "offsite_host"),
    ("local", "http://127.0.0.1:8001/", "offsite_host"),
    ("intranet", "http://10.0.0.7:8080/page", None),  # listed outright
    ("intranet", "http://10.0.0.1/", "offsite_host"),
])
def test_site_reach(reach, site, url, problem):
    assert reach[site].problem(url) == problem


def _middleware(tmp_path):
    sites = tmp_path / "sites.yaml"
    sites.write_text(SITES, encoding="utf-8")
    crawler = get_crawler(NewsSpider)
    crawler.spider = NewsSpider.from_crawler(crawler, sites=str(sites))
    return crawler, SiteOffsiteMiddleware.from_crawler(crawler)


def test_dont_filter_does_not_bypass_the_check(tmp_path):
    """Retries set dont_filter and redirects inherit it: a retried page redirected offsite is still refused."""
    crawler, middleware = _middleware(tmp_path)
    retried_then_redirected = Request("http://169.254.169.254/latest/meta-data/", dont_filter=True,
                                      meta={"newscrawl_site": "local", "allow_offsite": True,
                                            "redirect_urls": ["http://127.0.0.2:8001/flaky"]})
    with pytest.raises(IgnoreRequest):
        middleware.process_request(retried_then_redirected)
    assert crawler.stats.get_value("newscrawl/site/local/rejected/offsite_host") == 1
    assert crawler.stats.get_value("offsite/filtered") == 1


def test_untagged_requests_need_some_site_to_reach_them(tmp_path):
    _, middleware = _middleware(tmp_path)
    middleware.process_request(Request("http://127.0.0.2:8001/robots.txt"))
    middleware.process_request(Request("https://news.example.com/robots.txt"))
    middleware.process_request(Request("https://WWW.News.Example.com./robots.txt"))  # a subdomain, any case
    for url in ("http://127.0.0.2:9/robots.txt", "http://10.0.0.1/robots.txt", "http://evil.example/",
                "https://example.com/robots.txt", "https://news.example.com.evil.example/robots.txt"):
        with pytest.raises(IgnoreRequest):
            middleware.process_request(Request(url))
