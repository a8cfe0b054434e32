"""Downloader middlewares: noise stripping for HTML responses (the per-site offsite policy is in safety.py)."""
from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from .crawl_patterns import HTML_CONTENT_TYPE_RE
from ..extract.dom import decoded_page, looks_binary
from ..extract.options import DEFAULT_OPTIONS
from ..extract.serialized import may_carry_article
from .noise_cut import NoiseCutter
from .safety import SiteOffsiteMiddleware  # noqa: F401 (its home: newscrawl.crawl.safety)

logger = logging.getLogger(__name__)

# Elements removed whole, with their content (their tail text stays).
STRIPPED_TAGS = ("style", "iframe", "noscript")
# <script> types that carry data we read later (JSON-LD metadata). Scripts that may carry the
# article itself as markup in a string (Next.js flight data, a dehydrated query cache) stay too
# (extract.serialized.may_carry_article): cut, the page had no article for the extractor
# (fundus-dev's HankookIlbo page: found by extract alone, lost by the crawl, benchmarks/crawl_realpages.py).
KEPT_SCRIPT_TYPES = frozenset({"application/ld+json"})
STAT_PREFIX = "newscrawl/middleware"


def _declared_charset(response: HtmlResponse) -> str | None:
    content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
    for part in content_type.split(";")[1:]:
        key, _, value = part.partition("=")
        if key.strip().lower() == "charset" and value.strip():
            return value.strip().strip("'\"")
    return None


class StripNoiseMiddleware:
    """Remove script, style, iframe, noscript and comments from HTML responses.

    JSON-LD scripts stay (dates and headlines live there), and so do scripts that may carry the
    article as markup in a string (``extract.serialized.may_carry_article``). The elements are cut out of the text
    where the HTML tokenizer ends them (``noise_cut.NoiseCutter``), without parsing the page into
    a tree: the extraction worker parses it once, later. Feeds, sitemaps,
    non-200 and non-HTML responses pass untouched. The page is decoded the way
    the extractor decodes it (header, BOM, meta, UTF-8, GB18030) and re-encoded
    as UTF-8 with header and meta saying so, so GBK pages stay readable.
    Removals are counted under ``newscrawl/middleware/removed/<tag>``; an element left open at the
    end of the page is not cut (the rest of the page is kept for the parser to judge) and counted
    under ``newscrawl/middleware/unclosed/<tag>``.
    """

    def __init__(self, stats, max_bytes: int):
        self.stats = stats
        self.max_bytes = max_bytes
        # may_carry_article keeps no script shorter than revealed_min_chars
        self.cutter = NoiseCutter(("script", *STRIPPED_TAGS), KEPT_SCRIPT_TYPES, may_carry_article,
                                  DEFAULT_OPTIONS.revealed_min_chars)

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
        text = decoded_page(response.body, _declared_charset(response))
        if not text or text.isspace():
            self.stats.inc_value(f"{STAT_PREFIX}/skipped/unparsable")
            return response
        page = self.cutter.cut(text)
        for tag, count in page.removed.items():
            self.stats.inc_value(f"{STAT_PREFIX}/removed/{tag}", count)
        if page.unclosed:  # kept from its start on: the parser makes the rest of the page its content
            self.stats.inc_value(f"{STAT_PREFIX}/unclosed/{page.unclosed}")
        return _utf8_response(response, page.text)

    def _applies(self, request, response) -> bool:
        if not isinstance(response, HtmlResponse) or response.status != 200:
            return False
        if request.meta.get("newscrawl_source", "page") != "page":
            return False
        content_type = response.headers.get(b"Content-Type")
        return content_type is None or bool(HTML_CONTENT_TYPE_RE.match(content_type))


def _utf8_response(response: HtmlResponse, text: str) -> HtmlResponse:
    """``response`` with ``text`` as its body in UTF-8, and the header saying so. The new response
    holds ``text`` as its decoded body: ``response.text`` (Scrapy's meta-refresh check, the base
    URL) does not decode the page again."""
    headers = response.headers.copy()
    headers[b"Content-Type"] = b"text/html; charset=utf-8"
    try:
        body, decoded = text.encode("utf-8"), text
    except UnicodeEncodeError:  # a lone surrogate some codecs let through: replaced, decoded again on demand
        body, decoded = text.encode("utf-8", "replace"), None
    # As response.replace() does, without its reading of the old response's encoding (which, for a
    # page declaring none, guesses it from the whole body with charset_normalizer)
    kept = {name: getattr(response, name) for name in response.attributes if name != "encoding"}
    stripped = type(response)(**{**kept, "body": body, "headers": headers, "encoding": "utf-8"})
    if decoded is not None and not decoded.startswith("\ufeff"):  # Scrapy would take that as a BOM
        stripped._cached_ubody = decoded  # what TextResponse.text caches; the same text it would decode
    return stripped
