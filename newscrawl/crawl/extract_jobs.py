"""The extraction jobs the crawl runs, in the Scrapy process or in a worker process (workers.py).

Kept apart from the pipelines so that a worker, which imports this module when it unpickles its
first job, loads only the extractor and the fingerprint code, not Scrapy and Twisted (half the time
before the first page is extracted, and less memory per worker).
"""
from __future__ import annotations

from datetime import datetime

from ..extract import ExtractOptions, extract
from ..extract.result import ExtractResult
from ..extract.template import SiteTemplate
from .fingerprint import Fingerprint, fingerprint_text


def run_extract(body: bytes, url: str, encoding: str | None, fetched_at: str, options: ExtractOptions | None,
                template: SiteTemplate | None = None) -> ExtractResult:
    """The extractor call, in the Scrapy process or in a pool worker (module-level, so it pickles)."""
    moment = datetime.fromisoformat(fetched_at) if fetched_at else None
    return extract(body, url, options=options, encoding=encoding, fetched_at=moment, template=template)


def run_extract_and_fingerprint(body: bytes, url: str, encoding: str | None, fetched_at: str,
                                options: ExtractOptions | None, template: SiteTemplate | None = None,
                                ) -> tuple[ExtractResult, Fingerprint | None]:
    """The extractor call and, for an article, its text's MinHash fingerprint, both in the pool worker.

    The fingerprint (~1 ms of CPU per article) is what the incremental ledger compares near-duplicates
    with; computed here, it leaves the one core of the Scrapy process.
    """
    result = run_extract(body, url, encoding, fetched_at, options, template)
    return result, fingerprint_text(result.text) if result.is_article else None


def warm_up() -> None:
    """A worker's first job, sent when the pool starts: its imports and a first extraction happen
    before the crawl's first pages arrive (else they wait ~0.5 s behind it, and so does the crawl)."""
    run_extract_and_fingerprint(WARM_UP_PAGE, "http://warm-up.invalid/", "utf-8", "", None)


WARM_UP_PAGE = ("<html><head><title>Warm-up</title></head><body><article><h1>Warm-up</h1>"
                + "<p>A paragraph of a page nobody crawled, long enough to be an article, and then some.</p>" * 8
                + "</article></body></html>").encode("utf-8")
