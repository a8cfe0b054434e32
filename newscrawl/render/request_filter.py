"""What the browser may fetch, decided over a DevTools session instead of Playwright routing.

Every request of a rendered page is paused in Chromium (the DevTools ``Fetch``
domain) and answered here: images, media, fonts and style sheets are failed,
and so is any request to a private or loopback address other than the page's
own origin (the browser fetches scripts, XHR, frames and redirects itself,
past Scrapy's offsite rules in ``newscrawl.safety``). Navigations carry the
Scrapy request's headers.

Why not Playwright's ``page.route`` (which scrapy-playwright installs for every
request): routing turns the browser's HTTP cache off and builds a route object
in the driver and in Python for every request. Measured on the script-built
sample page (6 sub-requests; /tmp micro-benchmark, 100 navigations of one page,
2026-11-22): 132-152 ms of browser-tree CPU per navigation with routing, 95-110
ms with this filter, 106-110 ms with no filtering at all.

Not covered, as with routing before: requests of pop-up windows the page opens,
and of workers that Chromium runs as targets of their own.
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ..extract.addresses import is_private_host
from ..safety import origin

logger = logging.getLogger(__name__)

# DevTools resource types the browser never fetches: nothing in them changes the page's text.
BLOCKED_RESOURCE_TYPES = frozenset({"Image", "Media", "Font", "Stylesheet"})
DOCUMENT = "Document"  # a navigation of the page or of one of its frames (redirect hops included)
PAUSE_EVERY_REQUEST = [{"urlPattern": "*", "requestStage": "Request"}]


def block_reason(url: str, resource_type: str, navigation_url: str, page_url: str) -> str | None:
    """Why the browser must not fetch ``url`` ("type" or "private"), or None to let it through.

    ``navigation_url`` is the URL Scrapy asked to render (Scrapy checked it); ``page_url`` the
    document the page shows now. A private address is allowed only on the origin of the
    navigation for documents (the page itself, its redirect hops and frames), and on the origin of
    the page shown for everything the page fetches."""
    if resource_type in BLOCKED_RESOURCE_TYPES:
        return "type"
    target = origin(url)
    if target is None or not is_private_host(target[0]):
        return None
    own = navigation_url if resource_type == DOCUMENT or not page_url.startswith("http") else page_url
    return None if origin(own) == target else "private"


def navigation_headers(scrapy_headers: dict[str, str], browser_headers: dict[str, str]) -> dict[str, str]:
    """The headers of a navigation: the Scrapy request's, with the browser's user agent and referer
    where Scrapy set none (as scrapy-playwright's ``use_scrapy_headers`` does)."""
    headers = {name.lower(): value for name, value in scrapy_headers.items()}
    for name, value in browser_headers.items():
        if name.lower() in ("user-agent", "referer"):
            headers.setdefault(name.lower(), value)
    return headers


class RequestFilter:
    """Pauses every request of one page in the browser and lets through only what it may fetch."""

    def __init__(self, page: Page, on_block=None):
        self.page = page
        self.on_block = on_block  # called with the reason of each blocked request (stats)
        self.navigation_url = ""
        self.scrapy_headers: dict[str, str] = {}
        self.session = None

    async def start(self) -> None:
        self.session = await self.page.context.new_cdp_session(self.page)
        self.session.on("Fetch.requestPaused", self._paused)
        await self.session.send("Fetch.enable", {"patterns": PAUSE_EVERY_REQUEST})

    def navigating(self, url: str, scrapy_headers: dict[str, str]) -> None:
        """Before each navigation: whose origin is the page's own, and the headers it goes with."""
        self.navigation_url = url
        self.scrapy_headers = scrapy_headers

    def _paused(self, event: dict) -> None:
        request, kind = event["request"], event.get("resourceType", "")
        try:
            page_url = self.page.main_frame.url
        except PlaywrightError:
            page_url = ""
        reason = block_reason(request["url"], kind, self.navigation_url, page_url)
        if reason is not None:
            if self.on_block is not None:
                self.on_block(reason)
            answer = ("Fetch.failRequest", {"requestId": event["requestId"], "errorReason": "BlockedByClient"})
        elif kind == DOCUMENT and self.scrapy_headers:
            headers = navigation_headers(self.scrapy_headers, request.get("headers", {}))
            answer = ("Fetch.continueRequest", {"requestId": event["requestId"],
                                                "headers": [{"name": k, "value": v} for k, v in headers.items()]})
        else:
            answer = ("Fetch.continueRequest", {"requestId": event["requestId"]})
        asyncio.ensure_future(self._send(*answer))

    async def _send(self, method: str, params: dict) -> None:
        with suppress(PlaywrightError):  # the page closed meanwhile: its requests are gone with it
            await self.session.send(method, params)
