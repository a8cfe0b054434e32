"""Notice when the Redis a crawl shares loses its data mid-run, and stop instead of "finishing".

A Redis restarted without persistence comes back empty: the shared request queue, the duplicate
filter and the state are gone, so the crawlers find an empty queue, go idle and would close as
"finished" with exit 0, the run silently incomplete. Restored from an older snapshot, it comes back
with an older queue and state. Every crawler therefore increments a counter in Redis
(``<prefix>:heartbeats``) when it opens and every ``CHECK_SECONDS``, and remembers the value it
got: a value not above the last one means Redis lost writes it had acknowledged. The crawler then
stops with close reason ``redis_data_lost`` (``newscrawl.run.stops``; ``scrapy crawl`` exits 65), and
also checks before it lets itself close when idle. While Redis cannot be reached, checks are
skipped and counted (``newscrawl/redis/unreachable``). README "Distributed crawling on Redis"
says which persistence settings keep the queue and state across a Redis restart.
"""
from __future__ import annotations

import logging

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from twisted.internet import task

from .redis_support import DEFAULT_PREFIX, _redis_from_url, redis_errors
from ..run.stops import SHARED_STATE_LOST, stop_crawl, stopped

logger = logging.getLogger(__name__)

CHECK_SECONDS = 1.0  # between two increments of the counter (one small command per crawler and second)


class RedisDataLossExtension:
    def __init__(self, crawler, client, key: str, url: str):
        self.crawler = crawler
        self.redis = client
        self.key = key
        self.url = url
        self.last: int | None = None  # the counter's value at this crawler's last increment
        self.loop: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.get("REDIS_URL"):
            raise NotConfigured
        prefix = settings.get("NEWSCRAWL_REDIS_PREFIX") or DEFAULT_PREFIX
        ext = cls(crawler, _redis_from_url(settings.get("REDIS_URL")), f"{prefix}:heartbeats", settings["REDIS_URL"])
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.check()
        self.loop = task.LoopingCall(self.check)
        self.loop.start(CHECK_SECONDS, now=False)

    def check(self) -> bool:
        """Increment the counter; False (and the crawl stopping) when Redis lost data since the last time."""
        try:
            value = int(self.redis.incr(self.key))
        except redis_errors() as exc:
            self.crawler.stats.inc_value("newscrawl/redis/unreachable")
            logger.warning("Redis at %s did not answer the data-loss check: %s", self.url, exc)
            return True
        lost = self.last is not None and value <= self.last
        self.last = value
        if lost:
            self._stop()
        return not lost

    def _stop(self) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        stop_crawl(self.crawler, SHARED_STATE_LOST,
                   f"the Redis at {self.url} lost its data during the crawl (restarted without persistence, or "
                   "restored from an older snapshot): the shared request queue is gone and this run is incomplete")

    def spider_idle(self) -> None:
        """Before an idle crawler may close: a queue that is empty because Redis lost it is no finish."""
        if stopped(self.crawler) is not None or not self.check():
            raise DontCloseSpider  # the stop closes the spider, with its own reason

    def spider_closed(self) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()
        self.redis.close()
