"""The download handler for rendered requests: scrapy-playwright's, plus idle per-site contexts closed.

``ScrapyPlaywrightDownloadHandler`` subclasses Scrapy's HTTP/1.1 handler and
sends only requests with ``meta["playwright"]`` to the browser; all others go
down the plain HTTP/1.1 path unchanged. This subclass remembers when each
browser context (one per site) last started or finished a page, and every
few seconds closes the contexts that have no open page and have been idle for
``NEWSCRAWL_RENDER_IDLE_SECONDS`` (counted in ``newscrawl/render/contexts_closed``).
A site that renders again later gets a fresh context.
"""
from __future__ import annotations

import logging
import time
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import Request as PlaywrightRequest
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy import signals
from scrapy.utils.defer import deferred_from_coro
from scrapy_playwright.handler import DEFAULT_CONTEXT_NAME, ScrapyPlaywrightDownloadHandler
from twisted.internet import task

logger = logging.getLogger(__name__)

# Resource types the browser never fetches: nothing in them changes the page's text.
BLOCKED_RESOURCE_TYPES = frozenset({"image", "media", "font", "stylesheet"})
IDLE_CHECKS_PER_PERIOD = 4  # how often per idle period the contexts are looked at


def abort_unneeded_request(request: PlaywrightRequest) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST: drop images, media, fonts and style sheets."""
    return request.resource_type in BLOCKED_RESOURCE_TYPES


async def settle_page(page: Page, timeout_ms: int) -> None:
    """After the load event, wait up to ``timeout_ms`` for no network activity (data fetched by
    scripts); a page that never goes quiet is taken as it is."""
    with suppress(PlaywrightTimeoutError):
        await page.wait_for_load_state("networkidle", timeout=timeout_ms)


class RenderDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler with per-site browser contexts closed when their site is idle."""

    def __init__(self, crawler) -> None:
        super().__init__(crawler)
        self.idle_seconds = crawler.settings.getfloat("NEWSCRAWL_RENDER_IDLE_SECONDS", 20.0)
        self.last_used: dict[str, float] = {}
        self.idle_watch: task.LoopingCall | None = None
        crawler.signals.connect(self._start_idle_watch, signals.engine_started)

    def _start_idle_watch(self) -> None:
        if self.idle_seconds > 0:
            self.idle_watch = task.LoopingCall(lambda: deferred_from_coro(self.close_idle_contexts()))
            self.idle_watch.start(self.idle_seconds / IDLE_CHECKS_PER_PERIOD, now=False)

    async def download_request(self, request):
        if not request.meta.get("playwright"):
            return await super().download_request(request)
        name = request.meta.get("playwright_context", DEFAULT_CONTEXT_NAME)
        self.last_used[name] = time.monotonic()
        try:
            return await super().download_request(request)
        finally:
            self.last_used[name] = time.monotonic()

    async def close_idle_contexts(self) -> None:
        now = time.monotonic()
        for name, wrapper in list(self.context_wrappers.items()):
            if wrapper.context.pages or now - self.last_used.get(name, now) < self.idle_seconds:
                continue
            logger.debug("closing idle browser context %s", name)
            self.stats.inc_value("newscrawl/render/contexts_closed")
            with suppress(PlaywrightError):
                await wrapper.context.close()

    async def close(self) -> None:
        if self.idle_watch is not None and self.idle_watch.running:
            self.idle_watch.stop()
        await super().close()
