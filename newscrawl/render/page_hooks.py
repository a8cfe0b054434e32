"""What the browser runs on each rendered page: the callbacks a request's meta names (plan.py) and
the per-page records they share with the download handler (handler.py).

``prepare_navigation`` (scrapy-playwright's page init callback) restarts a page's network tracking
and tells its request filter the URL it navigates to; ``settle_page`` (a page method run after the
load event) waits for the page's network to go quiet.
"""
from __future__ import annotations

import asyncio
import time
from contextlib import suppress
from weakref import WeakKeyDictionary

from playwright.async_api import Page
from playwright.async_api import Request as PlaywrightRequest
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

# Quiet period that ends the settle wait: Playwright's networkidle uses 500 ms; scripts that fetch
# the article start at once on load, so a shorter gap tells "done" as well and saves the rest.
DEFAULT_QUIET_MS = 200


class NetworkActivity:
    """The requests one page has in flight, and since when it has had none.

    Playwright's own "networkidle" waits for 500 ms without any connection, a fixed cost on
    every page; this lets the settle wait end after a shorter quiet period."""

    def __init__(self, page: Page):
        self.in_flight: set[PlaywrightRequest] = set()
        self.quiet_since = time.monotonic()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: PlaywrightRequest) -> None:
        self.in_flight.add(request)

    def _ended(self, request: PlaywrightRequest) -> None:
        self.in_flight.discard(request)
        if not self.in_flight:
            self.quiet_since = time.monotonic()

    def reset(self) -> None:
        """Before a navigation: requests of the previous document no longer count."""
        self.in_flight.clear()
        self.quiet_since = time.monotonic()

    async def wait_quiet(self, quiet_seconds: float, timeout_seconds: float) -> None:
        deadline = time.monotonic() + timeout_seconds
        while True:
            now = time.monotonic()
            wait = quiet_seconds if self.in_flight else self.quiet_since + quiet_seconds - now
            if wait <= 0 or now >= deadline:
                return
            await asyncio.sleep(min(wait, deadline - now))


page_activity: WeakKeyDictionary = WeakKeyDictionary()  # Page -> NetworkActivity
# Page -> RequestFilter, set by the download handler when it opens a page (handler.py)
page_filters: WeakKeyDictionary = WeakKeyDictionary()


async def prepare_navigation(page: Page, request) -> None:
    """playwright_page_init_callback: called before each navigation of a page (new or reused)
    with the Scrapy request: network tracking restarts, and the page's request filter learns
    the URL and headers it navigates with."""
    activity = page_activity.get(page)
    if activity is None:
        page_activity[page] = NetworkActivity(page)
    else:
        activity.reset()
    request_filter = page_filters.get(page)
    if request_filter is not None:
        request_filter.navigating(request.url, request.headers.to_unicode_dict())


async def settle_page(page: Page, timeout_ms: int, quiet_ms: int = DEFAULT_QUIET_MS) -> None:
    """After the load event, wait up to ``timeout_ms`` until no request of the page has been in
    flight for ``quiet_ms`` (data fetched by scripts); a page that never goes quiet is taken as it is."""
    activity = page_activity.get(page)
    if activity is None:  # page not tracked from its navigation on: Playwright's own idle wait
        with suppress(PlaywrightTimeoutError):
            await page.wait_for_load_state("networkidle", timeout=timeout_ms)
        return
    await activity.wait_quiet(quiet_ms / 1000, timeout_ms / 1000)
