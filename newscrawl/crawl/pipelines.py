"""Item pipelines: extract the article from each fetched page, then drop duplicates.

Every drop raises DropItem after counting ``newscrawl/dropped/<reason>`` (and
the same key under the page's site).
"""
from __future__ import annotations

import hashlib
import logging
import os

from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.reactor import is_asyncio_reactor_installed

from .classify import ClassifyOptions, judge_page
from ..run.counters import count
from ..extract import ExtractOptions, fastwalk
from ..extract.options import make_options
from ..extract.result import ExtractResult
from ..extract.template import SiteTemplate
from .extract_jobs import run_extract, run_extract_and_fingerprint, warm_up
from ..items import ArticleItem, PageItem
from .templates import SiteTemplates, site_templates_from_settings
from .urls import canonicalize, is_root
from .workers import WorkerPool

logger = logging.getLogger(__name__)


class NotAnArticle(DropItem):
    """The page was judged no article (``reason``: the extractor's or the classifier's verdict)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _drop(stats, site: str, reason: str, verdict: bool = False) -> DropItem:
    """The DropItem to raise for ``reason``, counted; ``verdict``: the page was judged no article."""
    count(stats, f"dropped/{reason}", site)
    # logged with the URL and size (logformat.describe_item)
    return NotAnArticle(reason) if verdict else DropItem(reason)


def canonical_url_of(item: PageItem, result: ExtractResult) -> str:
    """rel=canonical when it names a page (not a site root), else the fetched URL; tracking removed."""
    declared = result.canonical_url
    if declared and declared.startswith(("http://", "https://")) and not is_root(declared):
        return canonicalize(declared)
    return canonicalize(item.url)


def choose_published(found: str | None, hint: str | None) -> str | None:
    """The page's date, unless it is a bare day and the feed or news sitemap gave a full timestamp."""
    if found and (len(found) > 10 or not hint or len(hint) <= 10):
        return found
    return hint or found


def build_article(item: PageItem, result: ExtractResult) -> ArticleItem:
    return ArticleItem(
        url=item.url,
        canonical_url=canonical_url_of(item, result),
        site=item.site,
        title=result.title or item.hint_title,
        published=choose_published(result.published, item.hint_published),
        text=result.text,
        html=result.html,
        lang=result.lang,
        authors=list(result.authors),
        discovered_via=item.discovered_via,
        fetched_at=item.fetched_at,
        score=round(float(result.score), 4),
        rendered=item.rendered,
    )


def worker_count(setting: int) -> int:
    """Extraction worker processes: the setting, or for -1 one per CPU but one left to Scrapy."""
    if setting >= 0:
        return setting
    return max(0, (os.cpu_count() or 1) - 1)


class ExtractPipeline:
    """Run the extractor on each PageItem; emit an ArticleItem or drop with a reason.

    With ``NEWSCRAWL_EXTRACT_WORKERS`` > 0 the extractor runs in a pool of worker
    processes, so the one core of the Scrapy process keeps crawling meanwhile.
    With ``NEWSCRAWL_TEMPLATES_ENABLED`` site templates are learned and used (templates.py).
    """

    templates: SiteTemplates | None = None

    def __init__(self, stats, classify_options: ClassifyOptions, extract_options: ExtractOptions, workers: int = 0,
                 fingerprints: bool = False):
        self.stats = stats
        self.classify_options = classify_options
        self.extract_options = extract_options
        self.workers = workers
        self.fingerprints = fingerprints  # also fingerprint article texts in the workers (state enabled)
        self.pool: WorkerPool | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_EXTRACT_ENABLED", True):
            raise NotConfigured
        extract_options = make_options(**settings.getdict("NEWSCRAWL_EXTRACT_OPTIONS"))
        link_density = settings.get("NEWSCRAWL_MAX_LINK_DENSITY")   # None: the extractor's cut-off
        options = ClassifyOptions(
            max_link_density=extract_options.max_article_link_density if link_density is None
            else float(link_density),
            min_unknown_chars=settings.getint("NEWSCRAWL_MIN_UNKNOWN_CHARS", ClassifyOptions.min_unknown_chars),
        )
        workers = worker_count(settings.getint("NEWSCRAWL_EXTRACT_WORKERS", -1))
        pipeline = cls(crawler.stats, options, extract_options, workers,
                       fingerprints=settings.getbool("NEWSCRAWL_STATE_ENABLED", True))
        pipeline.templates = site_templates_from_settings(settings, crawler.stats)
        return pipeline

    def open_spider(self) -> None:
        # Which walks extract (fastwalk.py): one line, and 1/0 in the stats for the summary.
        logger.log(fastwalk.report.level, "extractor: %s", fastwalk.report.message)
        self.stats.set_value("newscrawl/extract/compiled", int(fastwalk.compiled is not None))
        if self.workers and not is_asyncio_reactor_installed():
            logger.warning("extraction workers need the asyncio reactor; extracting in the Scrapy process")
            self.workers = 0
        if self.workers:
            self.pool = WorkerPool(self.workers)
            for _ in range(self.workers):  # imports and first parse now, while robots.txt and start pages load
                self.pool.submit(warm_up)
            logger.info("extracting in %d worker process(es)", self.workers)

    def close_spider(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        if self.templates is not None:
            self.templates.save()

    def process_item(self, item):
        """An ArticleItem (or, with workers, an awaitable of one); DropItem for non-articles."""
        if not isinstance(item, PageItem):
            return item
        if self.pool is not None:
            return self._extract_in_pool(item)
        try:
            result = run_extract(item.body, item.url, item.encoding, item.fetched_at, self.extract_options,
                                 self._template_for(item))
        except Exception:
            logger.exception("extractor failed on %s", item.url)
            raise _drop(self.stats, item.site, "extract_error") from None
        return self._judge(item, result)

    async def _extract_in_pool(self, item: PageItem) -> ArticleItem:
        job = run_extract_and_fingerprint if self.fingerprints else run_extract
        try:
            outcome = await self.pool.submit(job, item.body, item.url, item.encoding, item.fetched_at,
                                             self.extract_options, self._template_for(item))
        except Exception:
            logger.exception("extractor failed on %s", item.url)
            raise _drop(self.stats, item.site, "extract_error") from None
        if not self.fingerprints:
            return self._judge(item, outcome)
        result, fingerprint = outcome
        article = self._judge(item, result)
        article.text_fingerprint = fingerprint  # not a field, so not exported; read by the incremental ledger
        return article

    def _template_for(self, item: PageItem) -> SiteTemplate | None:
        return self.templates.template_for(item.site, item.url) if self.templates else None

    def _judge(self, item: PageItem, result: ExtractResult) -> ArticleItem:
        if self.templates is not None and result.is_article:   # list pages teach no article template
            self.templates.observe(item.site, item.url, item.body, item.encoding, result.method)
        reason = judge_page(result, item.url_kind, self.classify_options)
        if reason:
            raise _drop(self.stats, item.site, reason, verdict=True)
        return build_article(item, result)


class DuplicatePipeline:
    """Drop an article whose canonical URL was already emitted in this crawl.

    Keeps an 8-byte digest per emitted article (bounded by the page budgets).
    """

    def __init__(self, stats):
        self.stats = stats
        self.seen: set[bytes] = set()

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NEWSCRAWL_DEDUP_ENABLED", True):
            raise NotConfigured
        return cls(crawler.stats)

    def process_item(self, item):
        if not isinstance(item, ArticleItem):
            return item
        key = hashlib.blake2b(item.canonical_url.encode("utf-8"), digest_size=8).digest()
        if key in self.seen:
            raise _drop(self.stats, item.site, "duplicate")
        self.seen.add(key)
        return item


class ArticleCountPipeline:
    """Count the articles that passed every other pipeline (``newscrawl/articles``, per site too), and
    sum their extraction scores (``newscrawl/article_score_sum``): the summary's per-site sum over
    ``articles`` is the site's mean score in that run, which the health report follows across runs.

    The last pipeline, rather than an ``item_scraped`` receiver: Scrapy runs each receiver of a
    signal as an asyncio task of its own per item (~45 us), a pipeline stage is a plain call.
    """

    def __init__(self, stats):
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.stats)

    def process_item(self, item):
        if isinstance(item, ArticleItem):
            count(self.stats, "articles", item.site)
            count(self.stats, "article_score_sum", item.site, item.score)
        return item
