"""Conditional requests for feeds, sitemaps, robots.txt and start pages, with the last body replayed on 304.

These files are fetched every run (they announce new articles, or the sitemaps). When the
last 200 response carried an ETag or Last-Modified, the state keeps those
validators and the body (compressed, up to ``NEWSCRAWL_MAX_CACHED_LISTING_BYTES`` each and
``NEWSCRAWL_LISTING_CACHE_MIB`` for all of them, the ones stored longest ago evicted first);
the next request sends ``If-None-Match`` / ``If-Modified-Since``, and a 304
answer is turned back into a 200 response with the kept body, so the spider
parses it as usual (links are still followed, known articles skipped).
"""
from __future__ import annotations

from scrapy.exceptions import NotConfigured
from scrapy.http import Request, Response
from scrapy.responsetypes import responsetypes

from ..run.counters import count
from .incremental import ledger_for
from ..crawl.robots import ROBOTS_FILE_SOURCE
from .state import CachedListing

LISTING_SOURCES = ("feed", "sitemap", ROBOTS_FILE_SOURCE)  # robots.txt: the one download of it (robots.py)
# Listing bodies above this size are not kept for 304 replay (so no validators are sent for them), bytes.
MAX_CACHED_LISTING_BYTES = 4 * 1024 * 1024


def _is_conditional(request: Request) -> bool:
    meta = request.meta
    source = meta.get("newscrawl_source")
    return source in LISTING_SOURCES or (source == "page" and meta.get("newscrawl_depth", 0) == 0)


class ConditionalRequestMiddleware:
    """Downloader middleware: conditional GETs for feeds, sitemaps, robots.txt and start pages; 304 replays the stored body.

    Sits below HttpCompressionMiddleware (590) so it stores decompressed bodies,
    and above StripNoiseMiddleware (580) so a replayed page is stripped as usual.
    """

    def __init__(self, crawler, max_bytes: int):
        self.crawler = crawler
        self.max_bytes = max_bytes

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_STATE_ENABLED", True) or not settings.getbool(
                "NEWSCRAWL_CONDITIONAL_ENABLED", True):
            raise NotConfigured
        return cls(crawler, settings.getint("NEWSCRAWL_MAX_CACHED_LISTING_BYTES", MAX_CACHED_LISTING_BYTES))

    def process_request(self, request: Request):
        if not _is_conditional(request):
            return None
        cached = ledger_for(self.crawler).backend.listing(request.url)
        if cached is None:
            return None
        if cached.etag:
            request.headers.setdefault(b"If-None-Match", cached.etag)
        if cached.last_modified:
            request.headers.setdefault(b"If-Modified-Since", cached.last_modified)
        return None

    def process_response(self, request: Request, response: Response):
        if not _is_conditional(request):
            return response
        backend = ledger_for(self.crawler).backend
        site = request.meta.get("newscrawl_site")
        if response.status == 304:
            cached = backend.listing(request.url)
            if cached is None:
                return response
            count(self.crawler.stats, "conditional/not_modified", site)
            return self._replay(request, response, cached)
        if response.status == 200:
            etag = response.headers.get(b"ETag")
            modified = response.headers.get(b"Last-Modified")
            if (etag or modified) and len(response.body) <= self.max_bytes:
                content_type = response.headers.get(b"Content-Type")
                kept = backend.save_listing(CachedListing(request.url, _text(etag), _text(modified),
                                                          _text(content_type), response.body))
                count(self.crawler.stats, "conditional/stored" if kept else "conditional/over_cache_bound", site)
        return response

    @staticmethod
    def _replay(request: Request, response: Response, cached: CachedListing) -> Response:
        headers = {"Content-Type": cached.content_type} if cached.content_type else {}
        cls = responsetypes.from_args(headers=headers, url=response.url, body=cached.body)
        return cls(url=response.url, status=200, headers=headers, body=cached.body, request=request,
                   flags=[*response.flags, "not_modified"])


def _text(value: bytes | None) -> str | None:
    return value.decode("latin-1") if value else None
