"""What the browser may fetch, decided over a DevTools session instead of Playwright routing.

Every request of a rendered page is paused in Chromium (the DevTools ``Fetch``
domain) and answered here, since the browser fetches scripts, XHR, frames and
redirects itself, past Scrapy's offsite rules in ``newscrawl.crawl.safety``:

- images, media, fonts and style sheets are failed ("type");
- a private or loopback address is failed unless it is the origin of the page
  Scrapy asked for; a host name is looked up with the crawl's resolver first and
  failed when it resolves to a private address ("private");
- a host outside the site's ``allowed_domains`` is failed, except for the resource
  types of ``NEWSCRAWL_RENDER_OFFSITE_TYPES`` (scripts from a CDN) ("offsite");
- a navigation of the page's main frame other than the one Scrapy asked for (and
  its server redirects) is aborted: a script's ``location.href = ...`` leaves the
  page where it is ("navigation"). The handler drops a render whose final URL is
  not one of those it let through.

Navigations carry the Scrapy request's headers.

Why not Playwright's ``page.route`` (which scrapy-playwright installs for every
request): routing turns the browser's HTTP cache off and builds a route object
in the driver and in Python for every request. Measured on the script-built
sample page of benchmarks/render_speed.py (6 sub-requests; 100 navigations of
one page, 2026-11-22): 132-152 ms of browser-tree CPU per navigation with routing, 95-110
ms with this filter, 106-110 ms with no filtering at all.

Not covered, as with routing before: requests of pop-up windows the page opens,
and of workers that Chromium runs as targets of their own. Chromium resolves
names itself: a name whose answer changes between this filter's look-up and the
browser's is not caught (the plain crawl connects to the address it checked).
"""
from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from ..extract.addresses import is_private_address, is_private_host, needs_lookup
from ..crawl.safety import origin, resolve_host
from ..crawl.urls import host_allowed

logger = logging.getLogger(__name__)

# DevTools resource types the browser never fetches: nothing in them changes the page's text.
BLOCKED_RESOURCE_TYPES = frozenset({"Image", "Media", "Font", "Stylesheet"})
DOCUMENT = "Document"  # a navigation of the page or of one of its frames (redirect hops included)
PAUSE_EVERY_REQUEST = [{"urlPattern": "*", "requestStage": "Request"}]
# DevTools error for a refused request; a main-frame navigation is "Aborted" instead, which leaves the
# page on its document (a blocked navigation would show Chromium's error page in its place)
BLOCKED = "BlockedByClient"
ABORTED = "Aborted"


def block_reason(url: str, resource_type: str, navigation_url: str, page_url: str,
                 domains: tuple[str, ...] = (), offsite_types: frozenset[str] = frozenset()) -> str | None:
    """Why the browser must not fetch ``url`` ("type", "private" or "offsite"), or None to let it through
    (host names still to be looked up: see :meth:`RequestFilter._answer`).

    ``navigation_url`` is the URL Scrapy asked to render (Scrapy checked it); ``page_url`` the
    document the page shows now. A private address is allowed only on the origin of the
    navigation for documents (the page itself, its redirect hops and frames), and on the origin of
    the page shown for everything the page fetches. Other hosts must be in ``domains`` (the site's
    allowed domains, when given), unless the resource type is one of ``offsite_types``."""
    if resource_type in BLOCKED_RESOURCE_TYPES:
        return "type"
    target = origin(url)
    if target is None:
        return None
    if is_private_host(target[0]):
        own = navigation_url if resource_type == DOCUMENT or not page_url.startswith("http") else page_url
        return None if origin(own) == target else "private"
    if domains and resource_type not in offsite_types and not host_allowed(target[0], domains):
        return "offsite"
    return None


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

    def __init__(self, page: Page, on_block=None, domains: tuple[str, ...] = (),
                 offsite_types: frozenset[str] = frozenset()):
        self.page = page
        self.on_block = on_block  # called with the reason of each blocked request (stats)
        self.domains = domains
        self.offsite_types = offsite_types
        self.navigation_url = ""
        self.navigation_open = False  # the navigation Scrapy asked for has not been paused yet
        self.document_urls: set[str] = set()  # main-frame documents let through for this navigation
        self.scrapy_headers: dict[str, str] = {}
        self.main_frame_id = ""
        self.session = None

    async def start(self) -> None:
        self.session = await self.page.context.new_cdp_session(self.page)
        self.session.on("Fetch.requestPaused", self._paused)
        await self.session.send("Fetch.enable", {"patterns": PAUSE_EVERY_REQUEST})
        tree = await self.session.send("Page.getFrameTree")
        self.main_frame_id = tree["frameTree"]["frame"]["id"]

    def navigating(self, url: str, scrapy_headers: dict[str, str]) -> None:
        """Before each navigation: whose origin is the page's own, and the headers it goes with."""
        self.navigation_url = url
        self.navigation_open = True
        self.document_urls = {url}
        self.scrapy_headers = scrapy_headers

    def _paused(self, event: dict) -> None:
        asyncio.ensure_future(self._answer(event))

    def _leaves_the_page(self, event: dict) -> bool:
        """A main-frame navigation that is neither the one Scrapy asked for nor a redirect of it."""
        if event.get("resourceType") != DOCUMENT or event.get("frameId") != self.main_frame_id:
            return False
        if self.navigation_open:
            self.navigation_open = False
            return False
        return not event.get("redirectedRequestId")

    async def _answer(self, event: dict) -> None:
        request, kind = event["request"], event.get("resourceType", "")
        try:
            page_url = self.page.main_frame.url
        except PlaywrightError:
            page_url = ""
        main_document = kind == DOCUMENT and event.get("frameId") == self.main_frame_id
        if self._leaves_the_page(event):
            reason, error = "navigation", ABORTED
        else:
            reason = block_reason(request["url"], kind, self.navigation_url, page_url, self.domains, self.offsite_types)
            if reason is None and await self._resolves_private(request["url"]):
                reason = "private"
            error = ABORTED if main_document else BLOCKED
        if reason is not None:
            if self.on_block is not None:
                self.on_block(reason)
            answer = ("Fetch.failRequest", {"requestId": event["requestId"], "errorReason": error})
        elif main_document:
            self.document_urls.add(request["url"])
            answer = self._continue_navigation(event)
        elif kind == DOCUMENT and self.scrapy_headers:
            answer = self._continue_navigation(event)
        else:
            answer = ("Fetch.continueRequest", {"requestId": event["requestId"]})
        await self._send(*answer)

    def _continue_navigation(self, event: dict) -> tuple[str, dict]:
        if not self.scrapy_headers:
            return "Fetch.continueRequest", {"requestId": event["requestId"]}
        headers = navigation_headers(self.scrapy_headers, event["request"].get("headers", {}))
        return "Fetch.continueRequest", {"requestId": event["requestId"],
                                         "headers": [{"name": k, "value": v} for k, v in headers.items()]}

    @staticmethod
    async def _resolves_private(url: str) -> bool:
        target = origin(url)
        if target is None or not needs_lookup(target[0]):
            return False
        return any(is_private_address(address) for address in await resolve_host(target[0]))

    async def _send(self, method: str, params: dict) -> None:
        with suppress(PlaywrightError):  # the page closed meanwhile: its requests are gone with it
            await self.session.send(method, params)
