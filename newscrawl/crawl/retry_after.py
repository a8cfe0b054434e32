"""Honour ``Retry-After`` on 429 and 503 responses before Scrapy's retry re-sends them.

Scrapy's RetryMiddleware retries a 429 at once; a server that says how long to
wait gets that wait (capped by ``NEWSCRAWL_RETRY_AFTER_MAX`` seconds). The
request keeps its downloader slot while it waits, so the site is not hit
meanwhile. Counted as ``newscrawl/retry_after/waited`` and
``newscrawl/retry_after/seconds``.
"""
from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime

from scrapy.exceptions import NotConfigured

RETRY_AFTER_STATUSES = frozenset({429, 503})


def parse_retry_after(value: bytes | str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After value (delta-seconds or an HTTP date); None if unusable."""
    if not value:
        return None
    text = value.decode("latin-1") if isinstance(value, bytes) else value
    text = text.strip()
    if text.isdigit():
        return float(text)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max((when - (now or datetime.now(timezone.utc))).total_seconds(), 0.0)


class RetryAfterMiddleware:
    def __init__(self, max_wait: float, stats):
        self.max_wait = max_wait
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_RETRY_AFTER_ENABLED", True):
            raise NotConfigured
        return cls(settings.getfloat("NEWSCRAWL_RETRY_AFTER_MAX", 60.0), crawler.stats)

    async def process_response(self, request, response):
        if response.status not in RETRY_AFTER_STATUSES:
            return response
        wait = parse_retry_after(response.headers.get(b"Retry-After"))
        if wait:
            wait = min(wait, self.max_wait)
            self.stats.inc_value("newscrawl/retry_after/waited")
            self.stats.inc_value("newscrawl/retry_after/seconds", round(wait, 3))
            await asyncio.sleep(wait)
        return response
