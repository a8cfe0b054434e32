"""Scrapy's robots.txt middleware, reading each host's robots.txt from the spider's one request for it.

The spider asks every start host for its robots.txt (for its ``Sitemap:`` lines, and to hold a
rendering site's start pages until the host answers). This middleware makes its parser of that same
answer instead of downloading the file a second time: when the spider's request for a host goes
through it first, the host's pages wait for that answer (``robots/shared``). A host the spider does
not ask (a feed on another host, a redirect target) is fetched by Scrapy's own code, as before. The
spider's request is conditional when the host gave a validator (conditional.py), and a 304 replays
the stored file, so a host that did not change its robots.txt sends no body.

A page that robots.txt forbids is counted as ``newscrawl/rejected/robots`` (and under its site), so
the per-site summary can tell a site that forbids crawling from one that has no pages. A robots.txt
that could not be downloaded (no DNS, refused, timed out) is logged by the spider's own robots.txt
request, as one line; Scrapy's copy of that message, with its traceback, goes to DEBUG.
"""
from __future__ import annotations

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.downloadermiddlewares.robotstxt import logger as scrapy_robots_logger
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

from .counters import count
from .failures import quiet_expected_network_errors

ROBOTS_SOURCE = "robots"  # meta["newscrawl_source"] of the spider's robots.txt requests
# Signal the spider sends when its robots.txt request for a host ends: host=<netloc>, response=<the
# answer, any status> or None when no answer came (then the host's pages are not held back by robots)
robots_txt_answered = object()


class SiteRobotsTxtMiddleware(RobotsTxtMiddleware):
    def __init__(self, crawler):
        super().__init__(crawler)
        quiet_expected_network_errors(scrapy_robots_logger.name)
        self.awaited: set[str] = set()  # hosts whose parser waits for the spider's robots.txt answer
        crawler.signals.connect(self.robots_txt_answered, signal=robots_txt_answered)

    async def process_request(self, request) -> None:
        if request.meta.get("newscrawl_source") == ROBOTS_SOURCE:
            self._await_spider_answer(request.meta["newscrawl_host"], request.meta.get("newscrawl_site"))
            return
        await super().process_request(request)

    def _await_spider_answer(self, host: str, site: str | None) -> None:
        """Pages of ``host`` wait for the answer to the spider's request, unless robots.txt is fetched
        or read already (then the spider's request was retried, or another site of the host asked)."""
        if host not in self._parsers:
            self._parsers[host] = Deferred()
            self.awaited.add(host)
            count(self.crawler.stats, "robots/shared", site)

    def robots_txt_answered(self, host: str, response=None) -> None:
        """The spider's robots.txt request for ``host`` ended: make the parser its pages wait for
        from the answer (of any status, as Scrapy does), or let them through when none came."""
        if host not in self.awaited:
            return
        self.awaited.discard(host)
        waiting = self._parsers[host]
        parser = None
        if response is not None:
            self._stats.inc_value("robotstxt/response_count")
            self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
            parser = build_from_crawler(self._parserimpl, self.crawler, response.body)
        self._parsers[host] = parser
        waiting.callback(parser)

    def process_request_2(self, rp, request) -> None:
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            count(self.crawler.stats, "rejected/robots", request.meta.get("newscrawl_site"))
            raise
