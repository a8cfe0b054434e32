"""Downloader middleware around rendering: count rendered pages, read script signals, name timeouts.

Sits at 585, between HttpCompressionMiddleware (590) and StripNoiseMiddleware
(580), so it sees the page body decompressed but with its scripts still in.
"""
from __future__ import annotations

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError
from scrapy.exceptions import DownloadTimeoutError, NotConfigured
from scrapy.http import HtmlResponse

from ..run.counters import count
from .shape import read_page_shape

# request.meta key holding the PageShape of a plain page of a render: auto site.
SHAPE_META_KEY = "newscrawl_page_shape"


class RenderMiddleware:
    """For rendered requests: count ``render/pages``, and turn a navigation timeout into Scrapy's
    DownloadTimeoutError (counted ``render/timeouts``; the spider's errback counts ``errors/timeout``;
    not retried, a page that hung once in the browser is not worth another wait).
    For plain pages of ``render: auto`` sites: record their PageShape for RenderExtension.
    """

    def __init__(self, stats, plan, timeout_ms: float):
        self.stats = stats
        self.plan = plan
        self.timeout_ms = timeout_ms

    @classmethod
    def from_crawler(cls, crawler):
        plan = getattr(crawler.spider, "render_plan", None)
        if plan is None or not plan.uses_browser:
            raise NotConfigured
        return cls(crawler.stats, plan, crawler.settings.getfloat("PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT", 0))

    def process_response(self, request, response):
        site = request.meta.get("newscrawl_site")
        if "playwright" in response.flags:
            count(self.stats, "render/pages", site)
        elif (self.plan.mode(site) == "auto" and request.meta.get("newscrawl_source") == "page"
              and isinstance(response, HtmlResponse)):
            request.meta[SHAPE_META_KEY] = read_page_shape(response.body)
        return response

    def process_exception(self, request, exception):
        if not request.meta.get("playwright"):
            return None
        site = request.meta.get("newscrawl_site")
        if isinstance(exception, PlaywrightTimeoutError):
            count(self.stats, "render/timeouts", site)
            raise DownloadTimeoutError(
                f"rendering {request.url} took longer than {self.timeout_ms:.0f} ms") from exception
        if isinstance(exception, PlaywrightError):
            count(self.stats, "render/failures", site)
        return None
