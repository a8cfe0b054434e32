"""The download handler for rendered requests: scrapy-playwright's, plus idle per-site contexts closed.

``ScrapyPlaywrightDownloadHandler`` subclasses Scrapy's HTTP/1.1 handler and
sends only requests with ``meta["playwright"]`` to the browser; all others go
down the plain HTTP/1.1 path unchanged. This subclass counts each browser
context's (one per site) requests in flight and when it last finished one,
and every few seconds closes the contexts with nothing in flight for
``NEWSCRAWL_RENDER_IDLE_SECONDS`` (counted as ``render/contexts_closed`` of the
site). A site that renders again later gets a fresh context. Pages are
kept open and navigated again by the site's next requests (at most
PLAYWRIGHT_MAX_PAGES_PER_CONTEXT per site, each closed after
``NEWSCRAWL_RENDER_PAGE_REUSE`` navigations): this halves the browser's CPU
per page, which otherwise starts a renderer process for every page.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from pydispatch.errors import DispatcherKeyError
from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import deferred_from_coro
from scrapy_playwright.handler import DEFAULT_CONTEXT_NAME, ScrapyPlaywrightDownloadHandler
from twisted.internet import task

from ..run.counters import count
from ..crawl.http_limits import BoundedHeadersMixin
from ..crawl.shutdown import CancellableDownloadsMixin
from ..run.logformat import level_number
from .page_hooks import page_filters
from .plan import site_of_context
from .request_filter import RequestFilter

logger = logging.getLogger(__name__)

PLAYWRIGHT_LOGGER = "scrapy-playwright"  # scrapy_playwright.handler's logger name
IDLE_CHECKS_PER_PERIOD = 4  # how often per idle period the contexts are looked at
# Renders in flight per CPU, over all sites. A render spends much of its time waiting (load, then the
# quiet period), so a few per CPU keep the CPUs busy (one site with 8 at once: 8.9 pages/s on 2 CPUs,
# benchmarks/render_speed.py); without this cap PLAYWRIGHT_MAX_CONTEXTS x PLAYWRIGHT_MAX_PAGES_PER_CONTEXT
# (64) pages could render at once, each holding renderer memory, on the same 2 CPUs.
RENDERS_PER_CPU = 4


async def _routing_done_by_request_filter(*args, **kwargs) -> None:
    """Stands in for ``Page.route`` and ``Page.unroute`` on our pages: scrapy-playwright routes every
    request of every page, which the RequestFilter does for less (see request_filter)."""


def quiet_playwright_logger(settings) -> None:
    """Give scrapy-playwright's logger the crawl's LOG_LEVEL.

    Scrapy leaves loggers at DEBUG and filters in its log handler, so scrapy-playwright, which asks
    its logger's level, logged every request and response of every page even at LOG_LEVEL INFO,
    reading each one's Referer from the browser first (a round trip): ~15% of the Scrapy process's
    CPU in benchmarks/render_speed.py, plus the browser's and driver's share of those round trips."""
    logging.getLogger(PLAYWRIGHT_LOGGER).setLevel(level_number(settings.get("LOG_LEVEL") or logging.DEBUG))


def render_page_limit(settings) -> int:
    """NEWSCRAWL_RENDER_MAX_PAGES, or by default RENDERS_PER_CPU per CPU."""
    limit = settings.getint("NEWSCRAWL_RENDER_MAX_PAGES", 0)
    return limit if limit > 0 else RENDERS_PER_CPU * (os.cpu_count() or 1)


class RenderDownloadHandler(CancellableDownloadsMixin, BoundedHeadersMixin, ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler with per-site browser contexts closed when their site is idle
    (plain requests through it read bounded headers, newscrawl.crawl.http_limits; downloads are cancelled
    at shutdown, newscrawl.crawl.shutdown).

    Playwright's driver starts with the first page to render, not when the engine starts, and the
    browser with the first page as before: a crawl whose rendering sites give no page to render
    (their hosts do not answer, see NewsSpider._start_pages) starts neither.

    PLAYWRIGHT_MAX_CONTEXTS is enforced here, per site and outside the handler's context lock: a
    site waits for a context slot before its request reaches scrapy-playwright (whose own
    semaphore would be awaited while holding the lock that every other site's pages need too),
    and gives the slot back when its context is closed for idleness. A context is only closed
    with no request of its site in flight, so a page being created is never pulled away.
    """

    @classmethod
    def from_crawler(cls, crawler):
        """One instance for http and https (Scrapy builds one per scheme): one driver, one browser."""
        handler = getattr(crawler, "_newscrawl_render_handler", None)
        if handler is None:
            handler = crawler._newscrawl_render_handler = cls(crawler)
        return handler

    def __init__(self, crawler) -> None:
        super().__init__(crawler)
        quiet_playwright_logger(crawler.settings)
        for launch_at_start in (self._maybe_launch_in_thread, self._engine_started):  # per Scrapy version
            with suppress(DispatcherKeyError):
                crawler.signals.disconnect(launch_at_start, signals.engine_started)
        self.driver_lock = asyncio.Lock()
        self.driver_started = False
        self.closed = False
        if hasattr(self, "context_semaphore"):
            del self.context_semaphore  # replaced by the per-site slots below
        self.idle_seconds = crawler.settings.getfloat("NEWSCRAWL_RENDER_IDLE_SECONDS", 20.0)
        max_contexts = self.config.max_contexts
        self.context_slots = asyncio.Semaphore(max_contexts) if max_contexts else None
        self.slot_holders: set[str] = set()
        self.slot_locks: dict[str, asyncio.Lock] = {}
        self.in_flight: dict[str, int] = {}
        # open pages kept between requests, per context; a page is closed after page_max_uses navigations
        self.page_gates: dict[str, asyncio.Semaphore] = {}
        self.page_pools: dict[str, list[Page]] = {}
        self.page_uses: dict[Page, int] = {}
        self.page_max_uses = max(1, crawler.settings.getint("NEWSCRAWL_RENDER_PAGE_REUSE", 25))
        # renders at once over all sites (each site also at most PLAYWRIGHT_MAX_PAGES_PER_CONTEXT)
        self.render_slots = asyncio.Semaphore(render_page_limit(crawler.settings))
        self.last_used: dict[str, float] = {}
        # a context is replaced after this many renders: its renderer process exits with it and gives
        # back the heap it grew (see NEWSCRAWL_RENDER_CONTEXT_REUSE in settings.py)
        self.context_max_uses = max(0, crawler.settings.getint("NEWSCRAWL_RENDER_CONTEXT_REUSE", 150))
        self.context_uses: dict[str, int] = {}
        self.rendering: dict[str, int] = {}  # renders in progress per context
        self.render_ended: dict[str, asyncio.Condition] = {}
        self.recycle_locks: dict[str, asyncio.Lock] = {}
        self.idle_watch: task.LoopingCall | None = None
        # DevTools resource types a rendered page may fetch from public hosts outside its site
        self.offsite_types = frozenset(crawler.settings.getlist("NEWSCRAWL_RENDER_OFFSITE_TYPES"))
        crawler.signals.connect(self._start_idle_watch, signals.engine_started)

    def _start_idle_watch(self) -> None:
        if self.idle_seconds > 0:
            self.idle_watch = task.LoopingCall(lambda: deferred_from_coro(self.close_idle_contexts()))
            self.idle_watch.start(self.idle_seconds / IDLE_CHECKS_PER_PERIOD, now=False)

    async def _start_driver(self) -> None:
        """scrapy-playwright's launch (the Playwright driver), once, when the first page is to render."""
        async with self.driver_lock:
            if not self.driver_started:
                await self._maybe_launch_in_thread()
                self.driver_started = True

    async def download_request(self, request):
        if not request.meta.get("playwright"):
            return await super().download_request(request)
        if not self.driver_started:
            await self._start_driver()
        name = request.meta.get("playwright_context", DEFAULT_CONTEXT_NAME)
        self.in_flight[name] = self.in_flight.get(name, 0) + 1
        try:
            await self._hold_slot(name)
            await self._replace_worn_context(name)
            async with self.page_gates.setdefault(name, asyncio.Semaphore(self.config.max_pages_per_context)):
                async with self.render_slots:
                    self.rendering[name] = self.rendering.get(name, 0) + 1
                    try:
                        return await self._render_in_pooled_page(name, request)
                    finally:
                        self.rendering[name] -= 1
                        self.context_uses[name] = self.context_uses.get(name, 0) + 1
                        ended = self.render_ended.setdefault(name, asyncio.Condition())
                        async with ended:
                            ended.notify_all()
        finally:
            self.in_flight[name] -= 1
            self.last_used[name] = time.monotonic()

    async def _replace_worn_context(self, name: str) -> None:
        """After ``context_max_uses`` renders, let the context's renders end and close it; the next
        render opens a fresh one. Requests of the site wait meanwhile (about one render's time)."""
        if not self.context_max_uses or self.context_uses.get(name, 0) < self.context_max_uses:
            return
        async with self.recycle_locks.setdefault(name, asyncio.Lock()):
            if self.context_uses.get(name, 0) < self.context_max_uses:
                return  # replaced while this request waited
            ended = self.render_ended.setdefault(name, asyncio.Condition())
            async with ended:
                await ended.wait_for(lambda: not self.rendering.get(name))
            await self._close_context(name, "render/contexts_replaced")
            self.context_uses[name] = 0

    async def _create_page(self, request, spider) -> Page:
        """scrapy-playwright's new page, its requests filtered over DevTools instead of routed."""
        page = await super()._create_page(request, spider)
        site = site_of_context(request.meta.get("playwright_context", DEFAULT_CONTEXT_NAME))
        allowed_domains = getattr(self._crawler.spider, "allowed_domains_of", lambda _: ())(site)
        request_filter = RequestFilter(page, lambda reason: count(self.stats, f"render/blocked_{reason}", site),
                                       allowed_domains, self.offsite_types)
        try:
            await request_filter.start()
        except PlaywrightError:
            with suppress(PlaywrightError):
                await page.close()
            raise
        page_filters[page] = request_filter
        page.route = page.unroute = _routing_done_by_request_filter
        return page

    async def _render_in_pooled_page(self, name: str, request):
        """Navigate a page left open by an earlier request of the site (a new page when none is free),
        and keep it open afterwards: a fresh page per request costs a renderer process start."""
        if request.meta.get("playwright_include_page") or request.meta.get("playwright_page"):
            return await super().download_request(request)  # the caller manages its own page
        pool = self.page_pools.setdefault(name, [])
        if pool:
            request.meta["playwright_page"] = pool.pop()
        request.meta["playwright_include_page"] = True
        try:
            response = await super().download_request(request)
        except BaseException:
            await self._retire_page(request.meta.pop("playwright_page", None))
            raise
        finally:
            request.meta.pop("playwright_include_page", None)
        page = request.meta.pop("playwright_page", None)
        self._check_url_was_asked(name, page, response)
        if page is not None and not page.is_closed():
            self.page_uses[page] = self.page_uses.get(page, 0) + 1
            if self.page_uses[page] >= self.page_max_uses:
                await self._retire_page(page)
            else:
                pool.append(page)
        return response

    def _check_url_was_asked(self, name: str, page: Page | None, response) -> None:
        """An item's URL is one the crawl asked for: the navigation or a redirect the filter let through."""
        request_filter = page_filters.get(page) if page is not None else None
        if request_filter is None or response.url in request_filter.document_urls:
            return
        count(self.stats, "render/dropped_navigated_away", site_of_context(name))
        raise IgnoreRequest(f"rendered page ended at {response.url}, not a URL the crawl asked for")

    async def _retire_page(self, page: Page | None) -> None:
        if page is None:
            return
        self.page_uses.pop(page, None)
        if not page.is_closed():
            with suppress(PlaywrightError):
                await page.close()

    async def _hold_slot(self, name: str) -> None:
        if self.context_slots is None or name in self.slot_holders:
            return
        async with self.slot_locks.setdefault(name, asyncio.Lock()):  # one waiter per site
            if name not in self.slot_holders:
                if self.context_slots.locked():
                    count(self.stats, "render/context_waits", site_of_context(name))
                await self.context_slots.acquire()
                self.slot_holders.add(name)

    def _is_idle(self, name: str, now: float) -> bool:
        return not self.in_flight.get(name) and now - self.last_used.get(name, now) >= self.idle_seconds

    async def close_idle_contexts(self) -> None:
        now = time.monotonic()
        for name in set(self.context_wrappers) | self.slot_holders:
            if not self._is_idle(name, now):
                continue
            await self._close_context(name, "render/contexts_closed")
            if name in self.slot_holders and self._is_idle(name, time.monotonic()):
                self.slot_holders.discard(name)
                self.context_slots.release()

    async def _close_context(self, name: str, reason_key: str) -> None:
        """Close a context (its open pages go with it), counted under ``reason_key`` for its site."""
        wrapper = self.context_wrappers.get(name)
        for page in self.page_pools.pop(name, []):
            self.page_uses.pop(page, None)
        if wrapper is not None:
            logger.debug("closing browser context %s (%s)", name, reason_key)
            count(self.stats, reason_key, site_of_context(name))
            with suppress(PlaywrightError):
                await wrapper.context.close()

    async def close(self) -> None:
        if self.closed:  # the same instance serves http and https and is closed once per scheme
            return
        self.closed = True
        if self.idle_watch is not None and self.idle_watch.running:
            self.idle_watch.stop()
        await super().close()
