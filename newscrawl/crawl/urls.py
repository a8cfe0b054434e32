"""URL helpers: canonical form, allowed hosts, and the shape used against traps."""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from w3lib.url import canonicalize_url

from .crawl_patterns import DIGITS_RE, TRACKING_PARAMS, TRACKING_PREFIXES

_DEFAULT_PORTS = {("http", 80), ("https", 443)}


def is_tracking_param(name: str) -> bool:
    name = name.lower()
    return name in TRACKING_PARAMS or name.startswith(TRACKING_PREFIXES)


@lru_cache(maxsize=65536)
def canonicalize(url: str) -> str:
    """The URL without fragment, tracking parameters or default port, query sorted.

    >>> canonicalize("HTTP://Example.com:80/a?utm_source=x&b=2&a=1#top")
    'http://example.com/a?a=1&b=2'
    """
    parts = urlsplit(url.strip())
    netloc = parts.netloc
    if (parts.scheme, parts.port) in _DEFAULT_PORTS:
        netloc = netloc.rsplit(":", 1)[0]
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not is_tracking_param(k)]
    cleaned = urlunsplit((parts.scheme, netloc, parts.path or "/", urlencode(query), ""))
    return canonicalize_url(cleaned, keep_fragments=False)


def host_allowed(host: str | None, domains: tuple[str, ...]) -> bool:
    """True when ``host`` is one of ``domains`` or a subdomain of one."""
    if not host:
        return False
    host = host.lower().rstrip(".")
    return any(host == d or host.endswith("." + d) for d in domains)


def url_shape(url: str) -> str:
    """Host and path with digit runs collapsed: /archive/2024/05 -> /archive/#/#."""
    parts = urlsplit(url)
    return f"{parts.netloc}{DIGITS_RE.sub('#', parts.path)}"


def path_key(url: str) -> tuple[str, str]:
    """(host+path, query) of a URL, for counting query variants of one path."""
    parts = urlsplit(url)
    return f"{parts.netloc}{parts.path}", parts.query


def is_root(url: str) -> bool:
    return urlsplit(url).path in ("", "/")
