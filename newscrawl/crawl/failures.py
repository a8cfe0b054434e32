"""What a failed download was: a short kind for stats and summaries, and a log line without a traceback.

Kinds: ``http_<status>`` for an error status, ``dns``, ``connection_refused`` and ``timeout`` for the
network failures a crawl expects, else the exception's class name in lower case. A failure that got
no response at all (every kind but ``http_*``) says nothing about the site's pages; a site whose
every request failed that way was unreachable (newscrawl.report.progress).
"""
from __future__ import annotations

import logging

from scrapy.exceptions import CannotResolveHostError, DownloadConnectionRefusedError, DownloadTimeoutError
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import ConnectionRefusedError, DNSLookupError, TCPTimedOutError, TimeoutError

from .http_limits import ResponseHeadersTooLarge

# Chromium's network error codes in a Playwright error message (rendered requests), by kind.
CHROMIUM_NET_ERRORS = {
    "net::ERR_NAME_NOT_RESOLVED": "dns",
    "net::ERR_CONNECTION_REFUSED": "connection_refused",
    "net::ERR_CONNECTION_TIMED_OUT": "timeout",
    "net::ERR_TIMED_OUT": "timeout",
}
# The network failures a crawl meets every day: logged as one line, never with a traceback.
EXPECTED_NETWORK_ERRORS = (CannotResolveHostError, DNSLookupError, DownloadConnectionRefusedError,
                           ConnectionRefusedError, DownloadTimeoutError, TimeoutError, TCPTimedOutError)
# Each kind in words, for the end-of-run report.
KIND_WORDS = {
    "dns": "DNS lookup failed",
    "connection_refused": "connection refused",
    "timeout": "timed out",
    "robots": "robots.txt forbids its pages",
    "browser_missing": "no browser for render: always",
    "headers_too_large": "response headers over the bound",
}


def failure_kind(failure) -> str:
    """The kind of a Twisted failure of a download (see module docstring)."""
    if failure.check(HttpError):
        return f"http_{failure.value.response.status}"
    if failure.check(DownloadTimeoutError, TimeoutError, TCPTimedOutError):
        return "timeout"
    if failure.check(CannotResolveHostError, DNSLookupError):
        return "dns"
    if failure.check(DownloadConnectionRefusedError, ConnectionRefusedError):
        return "connection_refused"
    if failure.check(ResponseHeadersTooLarge):
        return "headers_too_large"  # the server answered, with an endless head
    message = str(failure.value)
    for code, kind in CHROMIUM_NET_ERRORS.items():
        if code in message:
            return kind
    return type(failure.value).__name__.lower()


def got_response(kind: str) -> bool:
    """Whether a failure of this kind still means the server answered (an error status)."""
    return kind.startswith("http_") or kind == "headers_too_large"


def kind_in_words(kind: str) -> str:
    if got_response(kind):
        return f"HTTP {kind[len('http_'):]}"
    return KIND_WORDS.get(kind, kind)


class ExpectedNetworkErrorFilter(logging.Filter):
    """Lower a log record that carries an expected network error to DEBUG, without its traceback.

    Scrapy's robots.txt middleware logs every failed robots.txt download as an ERROR with the
    exception's whole traceback; the spider's own robots.txt request already logs the same failure
    as one line naming the URL and the reason (NewsSpider.on_error).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, EXPECTED_NETWORK_ERRORS):
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


def quiet_expected_network_errors(logger_name: str) -> None:
    """Install ExpectedNetworkErrorFilter on a logger (once per process)."""
    target = logging.getLogger(logger_name)
    if not any(isinstance(f, ExpectedNetworkErrorFilter) for f in target.filters):
        target.addFilter(ExpectedNetworkErrorFilter())
