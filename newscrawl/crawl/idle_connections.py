"""Idle keep-alive connections closed after a short while, so a broad crawl does not hold one per host.

Scrapy's HTTP/1.1 handler keeps a finished connection open for the next request to
the same host, as long as Twisted's pool default (``cachedConnectionTimeout``, 240 s)
unless the server closes it first. A crawl of 10,000 sites visits most hosts within
those 4 minutes: it held one socket (and its buffers) per host visited, hundreds
more each minute (326 sockets two minutes into ``benchmarks/hourly_cycle.py`` at
10,000 sites), growing with the cycle. ``NEWSCRAWL_IDLE_CONNECTION_SECONDS`` closes
them sooner; a site's next request within that time still reuses its connection.
"""
from __future__ import annotations


class IdleConnectionsMixin:
    """For subclasses of Scrapy's HTTP11DownloadHandler: idle connections closed after the setting's seconds."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self._pool.cachedConnectionTimeout = crawler.settings.getfloat("NEWSCRAWL_IDLE_CONNECTION_SECONDS", 15.0)
