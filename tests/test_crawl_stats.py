"""The crawl's stats collector: counts as Scrapy's does, and its stats methods are called directly."""
from __future__ import annotations

from scrapy.statscollectors import StatsCollector
from scrapy.utils.test import get_crawler

from newscrawl.report.crawl_stats import SITES_LEFT_OUT_KEY, SiteSummaryStatsCollector

STATS_METHODS = ("get_value", "get_stats", "set_value", "inc_value", "max_value", "min_value")


def test_stats_are_counted_as_scrapy_counts_them():
    stats = SiteSummaryStatsCollector(get_crawler(settings_dict={}))
    stats.inc_value("newscrawl/pages")
    stats.inc_value("newscrawl/pages", 2)
    stats.inc_value("newscrawl/site/a/pages", start=10)
    stats.max_value("newscrawl/largest", 5)
    stats.max_value("newscrawl/largest", 3)
    stats.min_value("newscrawl/smallest", 5)
    stats.min_value("newscrawl/smallest", 3)
    stats.set_value("newscrawl/name", "run")
    assert stats.get_stats() == {"newscrawl/pages": 3, "newscrawl/site/a/pages": 11, "newscrawl/largest": 5,
                                 "newscrawl/smallest": 3, "newscrawl/name": "run"}
    assert stats.get_value("newscrawl/missing", 7) == 7
    assert SITES_LEFT_OUT_KEY in str(stats) and "newscrawl/site/a/pages" not in str(stats)


def test_the_stats_methods_are_the_plain_ones_with_no_wrapper_per_call():
    # Scrapy's collector returns each stats method wrapped in a deprecation check (~15x the cost
    # of the count itself); every request and page counts several stats.
    stats = SiteSummaryStatsCollector(get_crawler(settings_dict={}))
    for name in STATS_METHODS:
        assert getattr(stats, name).__func__ is getattr(StatsCollector, name), name
