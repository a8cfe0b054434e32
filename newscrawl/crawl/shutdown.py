"""A stopped crawl ends within seconds: downloads still in flight are cancelled after a short grace.

Scrapy's graceful stop (the first SIGTERM or Ctrl-C) waits for every download in flight, so a
server dripping a byte now and then held the crawl until ``DOWNLOAD_TIMEOUT`` (and the run lock
with it). :class:`CancellableDownloadsMixin` keeps each download of the HTTP handlers as an asyncio
task; :class:`ShutdownExtension` watches the engine, and once it is stopping for
``NEWSCRAWL_SHUTDOWN_GRACE_SECONDS``, cancels the downloads still running (counted
``newscrawl/shutdown/cancelled``). The close then runs as usual: the output is closed and what
it holds recorded in the state; a cancelled page is fetched by the next run.
"""
from __future__ import annotations

import asyncio

from scrapy import signals
from scrapy.exceptions import DownloadCancelledError, NotConfigured
from twisted.internet import task

from ..run.counters import count

WATCH_SECONDS = 0.25  # how often the engine is looked at


def in_flight_downloads(crawler) -> set[asyncio.Task]:
    """The crawler's downloads in flight (shared by its http and https handlers and the extension)."""
    if not hasattr(crawler, "_newscrawl_downloads"):
        crawler._newscrawl_downloads = set()
    return crawler._newscrawl_downloads


class CancellableDownloadsMixin:
    """For download handlers: each download runs as a task the shutdown can cancel."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self._downloads = in_flight_downloads(crawler)

    async def download_request(self, request):
        download = asyncio.ensure_future(super().download_request(request))
        self._downloads.add(download)
        try:
            return await download
        except asyncio.CancelledError:
            if asyncio.current_task().cancelling():  # this caller was cancelled, not only its download
                raise
            # a plain exception: Scrapy finishes the request (errback, slot freed) as for any failure
            raise DownloadCancelledError(f"the crawl is stopping: {request.url}") from None
        finally:
            self._downloads.discard(download)


class ShutdownExtension:
    def __init__(self, crawler, grace_seconds: float):
        self.crawler = crawler
        self.grace_seconds = grace_seconds
        self.stopping_for = 0.0
        self.watch: task.LoopingCall | None = None
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler):
        grace = crawler.settings.getfloat("NEWSCRAWL_SHUTDOWN_GRACE_SECONDS", 2.0)
        if grace < 0:
            raise NotConfigured
        return cls(crawler, grace)

    def engine_started(self) -> None:
        self.watch = task.LoopingCall(self._look)
        self.watch.start(WATCH_SECONDS, now=False)

    def _look(self) -> None:
        engine = self.crawler.engine
        if engine is None or engine.running:
            return
        self.stopping_for += WATCH_SECONDS
        if self.stopping_for < self.grace_seconds:
            return
        downloads = [download for download in in_flight_downloads(self.crawler) if not download.done()]
        for download in downloads:
            download.cancel()
        if downloads:
            count(self.crawler.stats, "shutdown/cancelled", value=len(downloads))

    def spider_closed(self) -> None:
        if self.watch is not None and self.watch.running:
            self.watch.stop()
