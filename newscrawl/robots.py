"""Scrapy's robots.txt middleware, with what it forbids counted per site and its network errors quiet.

A page that robots.txt forbids is counted as ``newscrawl/rejected/robots`` (and under its site), so
the per-site summary can tell a site that forbids crawling from one that has no pages. A robots.txt
that could not be downloaded (no DNS, refused, timed out) is logged by the spider's own robots.txt
request, as one line; Scrapy's copy of that message, with its traceback, goes to DEBUG.
"""
from __future__ import annotations

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.downloadermiddlewares.robotstxt import logger as scrapy_robots_logger
from scrapy.exceptions import IgnoreRequest

from .counters import count
from .failures import quiet_expected_network_errors


class SiteRobotsTxtMiddleware(RobotsTxtMiddleware):
    def __init__(self, crawler):
        super().__init__(crawler)
        quiet_expected_network_errors(scrapy_robots_logger.name)

    def process_request_2(self, rp, request) -> None:
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            count(self.crawler.stats, "rejected/robots", request.meta.get("newscrawl_site"))
            raise
