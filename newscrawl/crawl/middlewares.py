"""Downloader middlewares: noise stripping for HTML responses (the per-site offsite policy is in safety.py)."""
from __future__ import annotations

import logging

import lxml.etree
import lxml.html
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from .crawl_patterns import HTML_CONTENT_TYPE_RE
from ..extract.dom import decode_html, looks_binary, parse_html
from .safety import SiteOffsiteMiddleware  # noqa: F401 (its home: newscrawl.crawl.safety)

logger = logging.getLogger(__name__)

# Elements removed whole, with their content (their tail text stays).
STRIPPED_TAGS = ("style", "iframe", "noscript")
# <script> types that carry data we read later (JSON-LD metadata).
KEPT_SCRIPT_TYPES = frozenset({"application/ld+json"})
STAT_PREFIX = "newscrawl/middleware"


def _declared_charset(response: HtmlResponse) -> str | None:
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip("'\"")
    return None


def _set_meta_charset(root: lxml.html.HtmlElement) -> None:
    """Make every in-document charset declaration say UTF-8, like the new body."""
    for meta in root.iter("meta"):
        if meta.get("charset") is not None:
            meta.set("charset", "utf-8")
        elif (meta.get("http-equiv") or "").lower() == "content-type":
            meta.set("content", "text/html; charset=utf-8")


class StripNoiseMiddleware:
    """Remove script, style, iframe, noscript and comments from HTML responses.

    JSON-LD scripts stay (dates and headlines live there). Feeds, sitemaps,
    non-200 and non-HTML responses pass untouched. The page is decoded the way
    the extractor decodes it (header, BOM, meta, UTF-8, GB18030) and re-encoded
    as UTF-8 with header and meta saying so, so GBK pages stay readable.
    Removals are counted under ``newscrawl/middleware/removed/<tag>``.
    """

    def __init__(self, stats, max_bytes: int):
        self.stats = stats
        self.max_bytes = max_bytes

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NEWSCRAWL_STRIP_ENABLED", True):
            raise NotConfigured
        return cls(crawler.stats, crawler.settings.getint("NEWSCRAWL_STRIP_MAX_BYTES", 8_000_000))

    def process_response(self, request, response):
        if not self._applies(request, response):
            return response
        if len(response.body) > self.max_bytes:
            self.stats.inc_value(f"{STAT_PREFIX}/skipped/too_large")
            return response
        if looks_binary(response.body):  # a PDF or image served as text/html: the extractor says not_html
            self.stats.inc_value(f"{STAT_PREFIX}/skipped/binary")
            return response
        text = decode_html(response.body, _declared_charset(response))
        root = parse_html(text)
        if root is None:
            self.stats.inc_value(f"{STAT_PREFIX}/skipped/unparsable")
            return response
        self._strip(root)
        _set_meta_charset(root)
        body = lxml.html.tostring(root, encoding="utf-8", doctype="<!DOCTYPE html>")
        headers = response.headers.copy()
        headers[b"Content-Type"] = b"text/html; charset=utf-8"
        return response.replace(body=body, headers=headers, encoding="utf-8")

    def _applies(self, request, response) -> bool:
        if not isinstance(response, HtmlResponse) or response.status != 200:
            return False
        if request.meta.get("newscrawl_source", "page") != "page":
            return False
        content_type = response.headers.get(b"Content-Type")
        return content_type is None or bool(HTML_CONTENT_TYPE_RE.match(content_type))

    def _strip(self, root: lxml.html.HtmlElement) -> None:
        scripts = [s for s in root.iter("script") if (s.get("type") or "").strip().lower() not in KEPT_SCRIPT_TYPES]
        for script in scripts:
            script.drop_tree()
        self._count("script", len(scripts))
        for tag in STRIPPED_TAGS:
            self._count(tag, sum(1 for _ in root.iter(tag)))
        comments = sum(1 for _ in root.iter(lxml.etree.Comment))
        self._count("comment", comments)
        lxml.etree.strip_elements(root, *STRIPPED_TAGS, lxml.etree.Comment, with_tail=False)

    def _count(self, tag: str, count: int) -> None:
        if count:
            self.stats.inc_value(f"{STAT_PREFIX}/removed/{tag}", count)
