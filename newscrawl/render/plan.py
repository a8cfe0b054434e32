"""Which sites render, whether the browser is there, and the Scrapy settings that follow.

:meth:`RenderPlan.from_crawler` runs in the spider's ``from_crawler``, before
Scrapy freezes its settings: when some site can render it installs the
rendering download handler for http/https (plain requests fall through it to
Scrapy's HTTP/1.1 handler) and the memory extension that also counts the
browser's processes. With no rendering site nothing changes, and no browser
or Playwright driver is started.
"""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..config.sites import SiteConfig
from .page_hooks import DEFAULT_QUIET_MS, prepare_navigation, settle_page

logger = logging.getLogger(__name__)

DEFAULT_BROWSER_PATH = "/usr/bin/chromium"  # Debian's chromium package
# The setting, and the environment variable of the same name, that point to another browser binary.
BROWSER_PATH_SETTING = "NEWSCRAWL_CHROMIUM_PATH"
HANDLER_PATH = "newscrawl.render.handler.RenderDownloadHandler"
PLAIN_HANDLER_PATH = "newscrawl.crawl.http_limits.BoundedHeadersDownloadHandler"  # replaced by HANDLER_PATH
CONTEXT_PREFIX = "site:"  # browser context names: one context per site
# Effective modes: the site's own, except that without a browser "always" sites cannot be crawled
# ("unavailable") and "auto" sites are crawled plainly ("never").
UNAVAILABLE = "unavailable"


def browser_path(settings, environ: Mapping[str, str] = os.environ) -> str:
    """The browser binary: the setting, else the environment variable, else Debian's chromium."""
    return settings.get(BROWSER_PATH_SETTING) or environ.get(BROWSER_PATH_SETTING) or DEFAULT_BROWSER_PATH


def browser_found(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def context_name(site: str) -> str:
    return f"{CONTEXT_PREFIX}{site}"


def site_of_context(name: str) -> str | None:
    return name[len(CONTEXT_PREFIX):] if name.startswith(CONTEXT_PREFIX) else None


@dataclass(frozen=True)
class RenderPlan:
    """Effective render mode per site, and what a rendered request carries in its meta."""

    modes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    browser_path: str = DEFAULT_BROWSER_PATH
    browser_found: bool = False
    wait_until: str = "load"  # page.goto() waits for this event
    settle_ms: int = 0  # then waits up to this long for the network to go quiet
    quiet_ms: int = DEFAULT_QUIET_MS  # quiet means: no request of the page in flight for this long
    context_options: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def for_sites(cls, sites: list[SiteConfig], settings, environ: Mapping[str, str] = os.environ) -> RenderPlan:
        path = browser_path(settings, environ)
        found = browser_found(path)
        modes = {site.name: _effective_mode(site.render, found) for site in sites}
        context = {"user_agent": settings.get("USER_AGENT"), "service_workers": "block", "java_script_enabled": True}
        return cls(modes=MappingProxyType(modes), browser_path=path, browser_found=found,
                   wait_until=settings.get("NEWSCRAWL_RENDER_WAIT_UNTIL", "load"),
                   settle_ms=settings.getint("NEWSCRAWL_RENDER_SETTLE_MS"),   # declared in settings.py
                   quiet_ms=settings.getint("NEWSCRAWL_RENDER_QUIET_MS", DEFAULT_QUIET_MS),
                   context_options=MappingProxyType({k: v for k, v in context.items() if v is not None}))

    @classmethod
    def from_crawler(cls, crawler, sites: list[SiteConfig]) -> RenderPlan:
        """The plan for ``sites``; logs a missing browser once and configures the crawler's settings."""
        plan = cls.for_sites(sites, crawler.settings)
        plan.log_missing_browser(sites)
        plan.configure(crawler.settings)
        return plan

    # --- per site ---------------------------------------------------------------------------------

    def mode(self, site: str | None) -> str:
        return self.modes.get(site or "", "never")

    @property
    def uses_browser(self) -> bool:
        return any(mode in ("always", "auto") for mode in self.modes.values())

    @property
    def unavailable_sites(self) -> tuple[str, ...]:
        return tuple(name for name, mode in self.modes.items() if mode == UNAVAILABLE)

    def crawlable(self, sites: list[SiteConfig]) -> list[SiteConfig]:
        return [site for site in sites if self.mode(site.name) != UNAVAILABLE]

    def page_meta(self, site: str) -> dict:
        """Meta for a page request of ``site``: rendering for "always" sites, nothing otherwise."""
        return self.render_meta(site) if self.mode(site) == "always" else {}

    def render_meta(self, site: str) -> dict:
        """Meta that sends a request through the browser, in the site's own context (fresh dicts:
        scrapy-playwright edits them)."""
        from scrapy_playwright.page import PageMethod

        meta = {
            "playwright": True,
            "playwright_context": context_name(site),
            "playwright_context_kwargs": dict(self.context_options),
            "playwright_page_goto_kwargs": {"wait_until": self.wait_until},
            "playwright_page_init_callback": prepare_navigation,  # the request filter learns the navigation
        }
        if self.settle_ms > 0:
            meta["playwright_page_methods"] = [PageMethod(settle_page, self.settle_ms, self.quiet_ms)]
        return meta

    # --- crawl set-up ---------------------------------------------------------------------------------

    def log_missing_browser(self, sites: list[SiteConfig]) -> None:
        wanted = [site for site in sites if site.render != "never"]
        if self.browser_found or not wanted:
            return
        always = ", ".join(s.name for s in wanted if s.render == "always") or "none"
        auto = ", ".join(s.name for s in wanted if s.render == "auto") or "none"
        logger.error(
            "Rendering unavailable: no browser at %s (install the Debian package 'chromium', or set %s "
            "as a setting or environment variable). Sites with render: always are NOT crawled: %s. "
            "Sites with render: auto are crawled without rendering: %s.",
            self.browser_path, BROWSER_PATH_SETTING, always, auto)

    def configure(self, settings) -> None:
        """Install the rendering handler and the browser-aware memory extension when a site renders."""
        if not self.uses_browser:
            return
        if settings.frozen:
            logger.warning("settings are frozen: rendering handler not installed")
            return
        from scrapy.extensions.memusage import MemoryUsage
        from scrapy_playwright.memusage import ScrapyPlaywrightMemoryUsageExtension

        handlers = settings.getdict("DOWNLOAD_HANDLERS")
        for scheme in ("http", "https"):
            if handlers.get(scheme) in (None, PLAIN_HANDLER_PATH):
                handlers[scheme] = HANDLER_PATH
        settings.set("DOWNLOAD_HANDLERS", handlers, priority=settings.getpriority("DOWNLOAD_HANDLERS") or 0)
        launch = settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")
        launch.setdefault("executable_path", self.browser_path)
        settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", launch,
                     priority=settings.getpriority("PLAYWRIGHT_LAUNCH_OPTIONS") or 0)
        settings.set_in_component_priority_dict("EXTENSIONS", MemoryUsage, None)
        settings.set_in_component_priority_dict("EXTENSIONS", ScrapyPlaywrightMemoryUsageExtension, 0)


def _effective_mode(mode: str, browser: bool) -> str:
    if browser or mode == "never":
        return mode
    return UNAVAILABLE if mode == "always" else "never"
