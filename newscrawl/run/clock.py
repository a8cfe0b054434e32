"""The current time: as an ISO 8601 UTC string to the second, as items and the state record it, or in Unix seconds."""
from __future__ import annotations

import time
from datetime import datetime, timezone

_last: tuple[int, str] = (-1, "")  # (whole second, its string): one formatting per second, not per page


def utc_now() -> str:
    """E.g. ``2026-11-22T11:30:31+00:00``; formatted once per second (it is asked per page and per
    article, and ``datetime.now().isoformat()`` was ~0.5% of the Scrapy process in a fast crawl)."""
    global _last
    second = int(time.time())
    if second != _last[0]:
        _last = (second, datetime.fromtimestamp(second, timezone.utc).isoformat())
    return _last[1]


def unix_now() -> float:
    """Seconds since the Unix epoch (what the state's remembered drops are timed with)."""
    return time.time()
