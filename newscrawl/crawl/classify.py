"""Tell article pages from list, section, tag, calendar and about pages.

Two steps: ``classify_url`` guesses from the URL alone (before fetching, to
bound traps), and ``judge_page`` decides after extraction from page signals
(og:type, JSON-LD types, link density, the extractor's verdict). Only pages
judged articles become items; every other page gets a named reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from .crawl_patterns import (
    DATE_THEN_MORE_RE,
    GENERIC_OG_TYPES,
    LIST_OG_TYPES,
    LIST_PATH_RE,
    LIST_QUERY_RE,
    NUMERIC_ID_RE,
    POST_ID_QUERY_RE,
    SLUG_RE,
)
from ..extract.confidence import weighted_length
from ..extract.options import DEFAULT_OPTIONS
from ..extract.patterns import ARTICLE_SCHEMA_TYPES, NON_ARTICLE_SCHEMA_TYPES
from ..extract.result import ExtractResult

ARTICLE = "article"
LIST = "list"
UNKNOWN = "unknown"
_LETTER_RE = re.compile(r"[^\W\d_]")
_DATE_NUMBER_RE = re.compile(r"^(19|20)\d\d(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])?$")


@dataclass(frozen=True)
class ClassifyOptions:
    # A page without article markup whose link density (link chars / text chars, 0..1, from the
    # extractor) is above this is a list even when its URL looks like an article. One cut-off with the
    # extractor's (ExtractOptions.max_article_link_density, which says where it comes from): a crawl
    # follows the extractor options it runs with, unless NEWSCRAWL_MAX_LINK_DENSITY sets a lower one.
    max_link_density: float = DEFAULT_OPTIONS.max_article_link_density
    # An unknown-URL page without article markup needs this many main-text characters and a
    # publish date to count as an article (chars, a CJK character counting as the extractor's
    # cjk_char_weight; two short paragraphs).
    min_unknown_chars: int = 300
    # ... or, without a date, this extractor confidence (ExtractResult.score, 0..1): about 850+ chars in
    # 4+ paragraphs at low link density. 0.7: undated articles of dragnet (../shared/eval) score 0.72-0.80,
    # their short briefs and teaser pages 0.27-0.65 (benchmarks/crawl_realpages.py, 2026-11-22).
    min_unknown_score: float = 0.7


def _has_numeric_id(segment: str) -> bool:
    match = NUMERIC_ID_RE.search(segment)
    if not match:
        return False
    digits = re.findall(r"\d{5,}", segment)
    return any(not _DATE_NUMBER_RE.match(d) for d in digits)


def classify_url(url: str, article_patterns: tuple[re.Pattern, ...] = ()) -> str:
    """``article``, ``list`` or ``unknown`` from the URL alone.

    Site ``article_patterns`` are authoritative when given. Otherwise list words
    (tag, category, archive, about...) or a paginating query mean a list; a date
    followed by a further segment, a long numeric id or a headline slug in the
    last segment mean an article.

    >>> classify_url("https://example.com/2024/05/14/harbour-reopens.html")
    'article'
    >>> classify_url("https://example.com/tag/ports")
    'list'
    """
    if article_patterns:
        return ARTICLE if any(p.search(url) for p in article_patterns) else LIST
    parts = urlsplit(url)
    path = parts.path or "/"
    if POST_ID_QUERY_RE.match(parts.query):
        return UNKNOWN  # a post, even on the site root: page evidence decides (date and text, or confidence)
    if path == "/" or LIST_QUERY_RE.search(parts.query):
        return LIST
    last = path.rstrip("/").rsplit("/", 1)[-1]
    stem = last.split(".")[0]
    dated = bool(DATE_THEN_MORE_RE.search(path.rstrip("/"))) and not _DATE_NUMBER_RE.match(stem)
    if dated and _is_dated_permalink(last, stem):
        return ARTICLE
    if LIST_PATH_RE.search(path):
        return LIST
    if dated or _has_numeric_id(last) or SLUG_RE.match(last):
        return ARTICLE
    return UNKNOWN


def _is_dated_permalink(last: str, stem: str) -> bool:
    """A worded last segment after a date: an article even under /archives/ or when its slug starts with
    a list word (/archives/2012/10/time-to-begin-again.php, /2012/09/25/help-students-help-themselves/);
    a bare list word there (/2024/05/index.html, /2024/05/page-2) is not."""
    if not _LETTER_RE.search(stem):
        return False
    return bool(SLUG_RE.match(stem)) or not LIST_PATH_RE.search("/" + last)


def _page_signals(result: ExtractResult) -> tuple[bool, bool]:
    """(says article, says list) from og:type and JSON-LD types."""
    types = {t.lower() for t in result.schema_types}
    og_type = (result.og_type or "").lower()
    says_article = og_type == "article" or bool(types & ARTICLE_SCHEMA_TYPES)
    says_list = bool(types & NON_ARTICLE_SCHEMA_TYPES) or (og_type in LIST_OG_TYPES and not types & ARTICLE_SCHEMA_TYPES)
    return says_article, says_list


def _passes_unknown_test(result: ExtractResult, options: ClassifyOptions) -> bool:
    """Enough page evidence without URL or markup saying article: a date and some text, or a confident extractor."""
    if result.published and weighted_length(result.text, DEFAULT_OPTIONS) >= options.min_unknown_chars:
        return True
    return result.score >= options.min_unknown_score


def judge_page(result: ExtractResult, url_kind: str, options: ClassifyOptions = ClassifyOptions()) -> str | None:
    """None when the page is an article, else the reason it is not."""
    if not result.is_article:
        return result.reason or "not_article"
    says_article, says_list = _page_signals(result)
    if says_list and not says_article:
        return "list_page"
    if result.link_density > options.max_link_density and not says_article:
        return "link_dense"
    if says_article:
        return None
    if url_kind == LIST:
        return "list_page"
    # og:type "website" on an article URL: the URL alone does not decide, the page evidence must
    if url_kind == ARTICLE and (result.og_type or "").lower() not in GENERIC_OG_TYPES:
        return None
    return None if _passes_unknown_test(result, options) else "not_article"
