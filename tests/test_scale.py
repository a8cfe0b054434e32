"""Concurrency follows the number of sites unless the command line sets it."""
from __future__ import annotations

import pytest
from scrapy.crawler import Crawler
from scrapy.settings import Settings

from newscrawl import settings as project_settings
from newscrawl.crawl.scale import adapt_concurrency
from newscrawl.spiders.news import NewsSpider


def _settings(**cmdline) -> Settings:
    settings = Settings()
    settings.setmodule(project_settings, priority="project")
    for name, value in cmdline.items():
        settings.set(name, value, priority="cmdline")
    return settings


@pytest.mark.parametrize("sites, expected", [(1, 32), (10, 32), (100, 200), (10_000, 256)])
def test_concurrency_grows_with_the_sites_up_to_the_bound(sites, expected):
    settings = _settings()
    assert adapt_concurrency(settings, sites) == expected
    assert settings.getint("CONCURRENT_REQUESTS") == expected
    assert settings.getint("REACTOR_THREADPOOL_MAXSIZE") == max(10, expected // 8)


def test_a_concurrency_given_on_the_command_line_is_kept():
    settings = _settings(CONCURRENT_REQUESTS=16, REACTOR_THREADPOOL_MAXSIZE=4)
    assert adapt_concurrency(settings, 10_000) == 16
    assert settings.getint("CONCURRENT_REQUESTS") == 16 and settings.getint("REACTOR_THREADPOOL_MAXSIZE") == 4


def test_the_spider_sizes_the_crawl_for_its_sites_file(tmp_path):
    sites = tmp_path / "sites.yaml"
    sites.write_text("sites:\n" + "".join(f"- name: s{n}\n  start_urls: ['http://s{n}.test/']\n" for n in range(60)))
    crawler = Crawler(NewsSpider, _settings())  # as `scrapy crawl` makes it: settings not yet frozen
    NewsSpider.from_crawler(crawler, sites=str(sites))
    assert crawler.settings.getint("CONCURRENT_REQUESTS") == 60 * 2
