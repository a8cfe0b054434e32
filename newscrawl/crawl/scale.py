"""Concurrency that follows the number of sites, so one command serves 10 sites and 10,000.

``CONCURRENT_REQUESTS`` (32 in settings.py) is what a crawl of a few sites needs;
at 10,000 sites it would leave nearly every site waiting for a turn. When it was
not given on the command line, it grows to sites x ``CONCURRENT_REQUESTS_PER_DOMAIN``,
at most ``NEWSCRAWL_MAX_CONCURRENT_REQUESTS``; the thread pool that resolves host
names grows with it (one thread per ``REQUESTS_PER_RESOLVER_THREAD`` requests in
flight). Per-site politeness (delay, AutoThrottle, per-domain concurrency) is unchanged.
"""
from __future__ import annotations

from scrapy.settings import SETTINGS_PRIORITIES

# Requests in flight per resolver thread: Scrapy's default pool (10 threads) serves its default 16
# requests; Scrapy's broad-crawl guide raises the pool for more (it suggests 20 threads).
REQUESTS_PER_RESOLVER_THREAD = 8
CHOSEN_BY_USER = SETTINGS_PRIORITIES["cmdline"]


def adapt_concurrency(settings, sites: int) -> int:
    """Raise CONCURRENT_REQUESTS (and REACTOR_THREADPOOL_MAXSIZE) for ``sites`` sites unless the
    command line set them; returns the concurrency the crawl will use. Frozen settings (a spider made
    outside ``scrapy crawl``, after its engine was configured) are left as they are."""
    current = settings.getint("CONCURRENT_REQUESTS")
    if settings.frozen or settings.getpriority("CONCURRENT_REQUESTS") >= CHOSEN_BY_USER:
        return current
    wanted = sites * max(1, settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"))
    concurrency = max(current, min(wanted, settings.getint("NEWSCRAWL_MAX_CONCURRENT_REQUESTS")))
    if concurrency != current:
        settings.set("CONCURRENT_REQUESTS", concurrency, priority="spider")
    if settings.getpriority("REACTOR_THREADPOOL_MAXSIZE") < CHOSEN_BY_USER:
        threads = max(settings.getint("REACTOR_THREADPOOL_MAXSIZE"), concurrency // REQUESTS_PER_RESOLVER_THREAD)
        settings.set("REACTOR_THREADPOOL_MAXSIZE", threads, priority="spider")
    return concurrency
