"""Items: the page the spider fetched, and the article line written to JSONL."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class PageItem:
    """An HTML page awaiting extraction (never exported; the pipeline turns it into an ArticleItem)."""

    url: str
    site: str
    body: bytes
    encoding: str | None
    discovered_via: str  # feed, sitemap or link
    fetched_at: str  # ISO 8601 UTC
    url_kind: str  # article, list or unknown (newscrawl.crawl.classify.classify_url)
    hint_published: str | None = None  # date given by the feed or news sitemap
    hint_title: str | None = None  # title given by the feed or news sitemap
    rendered: bool = False  # fetched through the browser (newscrawl.render)


@dataclass
class ArticleItem:
    """One JSONL line: the schema documented in README.md."""

    url: str
    canonical_url: str
    site: str
    title: str | None
    published: str | None
    text: str
    html: str
    lang: str | None
    authors: list[str] = field(default_factory=list)
    discovered_via: str = "link"
    fetched_at: str = ""
    score: float = 0.0
    rendered: bool = False  # fetched through the browser (render: always, or auto on a script-built page)
    duplicate_of: str | None = None  # canonical_url of the first copy of a near-duplicate (newscrawl.store.incremental)
