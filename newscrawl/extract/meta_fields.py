"""Title, publish date and authors of one page, without the body extraction.

The adapter of ``../shared/meta/score_meta.py`` (``-e newscrawl.extract.meta_fields:extract_metadata``)
and a cheap entry point for callers that need only the metadata.
"""
from __future__ import annotations

from datetime import datetime

from .authors import find_authors
from .dates import find_published
from .dom import decode_html, parse_html
from .metadata import PageMeta, read_page_meta
from .title import find_title


def extract_metadata(html: str | bytes, url: str | None = None,
                     fetched_at: datetime | None = None) -> dict:
    """``{"title", "date", "authors"}`` of a page; None / [] where the page gives none."""
    if isinstance(html, (bytes, bytearray)):
        html = decode_html(bytes(html))
    root = parse_html(html) if html else None
    if root is None:
        return {"title": None, "date": None, "authors": []}
    page: PageMeta = read_page_meta(root)
    return {
        "title": find_title(root, page),
        "date": find_published(root, page, url, fetched_at),
        "authors": list(find_authors(root, page)),
    }
