"""Bounded response headers for Scrapy's HTTP/1.1 download handler.

``DOWNLOAD_MAXSIZE`` counts body bytes only. Twisted's parser keeps every header line it
receives (each line may be up to 16 KiB), so a server streaming header lines without end grows
the crawl's memory until the download timeout: 3 GiB of headers in 30 s made a 4 GB process.
:class:`BoundedHeadersDownloadHandler` stops reading a response once its status line and
headers pass ``NEWSCRAWL_MAX_HEADER_BYTES`` bytes or ``NEWSCRAWL_MAX_HEADER_COUNT`` lines,
closes the connection and fails the request with :class:`ResponseHeadersTooLarge` (counted by
the spider as ``errors/headers_too_large``; not retried: the same server sends the same flood).
"""
from __future__ import annotations

from dataclasses import dataclass

from scrapy.core.downloader.handlers.http11 import (
    HTTP11DownloadHandler,
    _LenientHTTP11ClientFactory,
    _LenientHTTP11ClientProtocol,
    _LenientHTTPClientParser,
)
from scrapy.exceptions import DownloadFailedError
from twisted.web._newclient import ResponseFailed

from .idle_connections import IdleConnectionsMixin
from ..settings import NEWSCRAWL_MAX_HEADER_BYTES, NEWSCRAWL_MAX_HEADER_COUNT
from .shutdown import CancellableDownloadsMixin


class ResponseHeadersTooLarge(Exception):
    """A response's headers passed the byte or line bound."""


@dataclass(frozen=True)
class HeaderLimits:
    max_bytes: int  # status line and header lines, line ends included
    max_count: int  # header lines (continuation lines count as lines)

    @classmethod
    def from_settings(cls, settings) -> HeaderLimits:
        return cls(settings.getint("NEWSCRAWL_MAX_HEADER_BYTES", NEWSCRAWL_MAX_HEADER_BYTES),
                   settings.getint("NEWSCRAWL_MAX_HEADER_COUNT", NEWSCRAWL_MAX_HEADER_COUNT))


class _BoundedHeadersParser(_LenientHTTPClientParser):
    """Scrapy's lenient parser, counting the lines and bytes of the status line and headers.

    Set on a parser object by :class:`_BoundedHeadersProtocol` (the way Scrapy sets its lenient
    parser); lines stop coming once the body starts, so only the head is counted."""

    limits: HeaderLimits
    head_bytes = 0
    head_lines = 0

    def lineReceived(self, line: bytes) -> None:  # noqa: N802 (Twisted interface)
        self.head_bytes += len(line) + 1
        self.head_lines += 1
        if self.head_bytes > self.limits.max_bytes:
            raise ResponseHeadersTooLarge(f"response headers over {self.limits.max_bytes} bytes")
        if self.head_lines > self.limits.max_count + 1:  # + the status line
            raise ResponseHeadersTooLarge(f"more than {self.limits.max_count} response header lines")
        super().lineReceived(line)


class _BoundedHeadersProtocol(_LenientHTTP11ClientProtocol):
    limits: HeaderLimits

    def request(self, request):
        result = super().request(request)
        self._parser.__class__ = _BoundedHeadersParser
        self._parser.limits = self.limits
        return result


def _factory(limits: HeaderLimits) -> type:
    class BoundedHeadersClientFactory(_LenientHTTP11ClientFactory):
        def buildProtocol(self, addr):  # noqa: N802 (Twisted interface)
            protocol = _BoundedHeadersProtocol(self._quiescentCallback)
            protocol.limits = limits
            return protocol
    return BoundedHeadersClientFactory


def _headers_too_large(error: DownloadFailedError) -> ResponseHeadersTooLarge | None:
    cause = error.__cause__
    if isinstance(cause, ResponseFailed):
        for reason in cause.reasons:
            if reason.check(ResponseHeadersTooLarge):
                return reason.value
    return None


class BoundedHeadersMixin:
    """For subclasses of Scrapy's HTTP11DownloadHandler: connections parse with bounded headers."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self._pool._factory = _factory(HeaderLimits.from_settings(crawler.settings))

    async def download_request(self, request):
        try:
            return await super().download_request(request)
        except DownloadFailedError as error:
            too_large = _headers_too_large(error)
            if too_large is None:
                raise
            raise ResponseHeadersTooLarge(f"{too_large}: {request.url}") from None


class BoundedHeadersDownloadHandler(CancellableDownloadsMixin, IdleConnectionsMixin, BoundedHeadersMixin,
                                    HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 handler with bounded response headers, idle connections closed early
    (newscrawl.crawl.idle_connections), its downloads cancellable at shutdown (newscrawl.crawl.shutdown): the crawl's
    http and https handler."""
