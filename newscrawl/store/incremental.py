"""Incremental crawling: emit only new articles, skip known ones, mark near-duplicates, survive crashes.

The :class:`Ledger` of a crawl sits between the Scrapy components and the
state backend (SQLite, or Redis with ``REDIS_URL``). An article moves
through three stages:

1. *admitted* by :class:`IncrementalPipeline` (not known, not claimed by
   another crawler; ``duplicate_of`` set when a stored or in-flight article
   has nearly the same text);
2. *written* to the JSONL output by ``jsonl.DurableFeedExporter``;
3. *recorded* in the state by ``Ledger.commit`` after the output was fsynced,
   together with the byte offset the output is recorded up to.

A crash between 2 and 3 leaves lines in the output that the state lacks; the
next start reads them back (``Ledger.recover``) and records them, so they are
never emitted again, and cuts a torn last line. A crash before 2 loses
nothing: the article is not in the state, so the next run fetches it again.

Feeds, sitemaps and start pages are fetched every run, with ``If-None-Match``
/ ``If-Modified-Since`` when the server gave validators; on 304 the stored
body is replayed (``conditional.ConditionalRequestMiddleware``). Article URLs the
state knows are not requested again (the spider asks ``Ledger.is_known`` for each link).

A page judged not an article for a reason about the page itself
(``crawl_patterns.REMEMBERED_DROP_REASONS``: too short, too large...) that is no way to
articles either (:func:`is_dead_end`) is a *remembered drop*: its URLs go to the state,
and for ``NEWSCRAWL_REMEMBER_DROPS_DAYS`` links to it are not followed
(``Ledger.is_remembered_drop``). A page a link led to first counts as listed when a feed or
sitemap of the same run names it too (``listed_links``). Listing-like pages (section fronts, link
pages) are fetched every run, since new articles are found through them.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
from pathlib import Path
from weakref import WeakKeyDictionary

from scrapy import signals
from scrapy.exceptions import DropItem, NotConfigured

from ..run.clock import unix_now, utc_now
from ..run.counters import count
from ..crawl.classify import ARTICLE
from ..crawl.crawl_patterns import LISTED_VIA, REMEMBERED_DROP_REASONS
from ..crawl.fingerprint import NEAR_DUPLICATE_JACCARD, Fingerprint, fingerprint_text
from .keyfilter import DEFAULT_FILTER_MIB
from ..crawl.listed_links import ListedLinks
from ..items import ArticleItem, PageItem
from .lock import acquire, lock_path_for
from .output_repair import repair_output
from ..config.paths import resolve
from ..crawl.pipelines import NotAnArticle
from .sinks.fanout import sinks_for
from ..run.stops import OUTPUT_ERROR, stopped
from .state import (DEFAULT_LISTING_CACHE_MIB, DEFAULT_MAX_REMEMBERED_DROPS, DEFAULT_REMEMBER_DROPS_DAYS,
                    DEFAULT_STATE_PATH, ArticleRecord, RememberedDrop, SqliteState)
from ..crawl.urls import canonicalize

logger = logging.getLogger(__name__)

_ledgers: WeakKeyDictionary = WeakKeyDictionary()  # crawler -> Ledger
# Remembered drops written to the state together, in one transaction (and the rest at the end of the
# crawl): a few ms of the event loop per batch instead of a transaction per dropped page
DROP_BATCH = 500


def is_dead_end(item: PageItem, reason: str) -> bool:
    """Whether a page dropped for ``reason`` is remembered (not fetched again for a while): the reason
    is about the page itself, and the page is no way to articles: the site lists it as content (in a
    feed or sitemap) or its URL has an article's shape. A page of another shape judged too short may
    be a section front whose teasers were cut as navigation: it is fetched every run."""
    return reason in REMEMBERED_DROP_REASONS and (item.discovered_via in LISTED_VIA or item.url_kind == ARTICLE)


@dataclasses.dataclass(frozen=True)
class DropMemory:
    """How long and how many dropped pages are remembered (NEWSCRAWL_REMEMBER_DROPS_DAYS, ..._MAX_...)."""

    days: float = DEFAULT_REMEMBER_DROPS_DAYS  # 0: none is remembered
    max_rows: int = DEFAULT_MAX_REMEMBERED_DROPS

    @classmethod
    def from_settings(cls, settings) -> DropMemory:
        return cls(settings.getfloat("NEWSCRAWL_REMEMBER_DROPS_DAYS", DEFAULT_REMEMBER_DROPS_DAYS),
                   settings.getint("NEWSCRAWL_MAX_REMEMBERED_DROPS", DEFAULT_MAX_REMEMBERED_DROPS))

    def since(self) -> int:
        """The Unix time from which a drop still counts."""
        return int(unix_now() - self.days * 86400)


def open_backend(settings):
    """The state backend these settings ask for: Redis with REDIS_URL, else SQLite at STATE_PATH."""
    if settings.get("REDIS_URL"):
        from .redis_support import RedisState

        return RedisState.from_settings(settings)
    return SqliteState(resolve(settings, settings.get("STATE_PATH") or DEFAULT_STATE_PATH),
                       settings.getfloat("NEWSCRAWL_STATE_FILTER_MIB", DEFAULT_FILTER_MIB),
                       write_in_process=settings.getbool("NEWSCRAWL_STATE_RECORDER_PROCESS", True),
                       listing_cache_mib=settings.getfloat("NEWSCRAWL_LISTING_CACHE_MIB", DEFAULT_LISTING_CACHE_MIB))


def ledger_for(crawler) -> Ledger | None:
    """The crawl's ledger (opened, locked and recovered on first use); None when state is off."""
    if not crawler.settings.getbool("NEWSCRAWL_STATE_ENABLED", True):
        return None
    if crawler not in _ledgers:
        lock_path = lock_path_for(crawler.settings)
        lock = acquire(lock_path) if lock_path else None
        threshold = crawler.settings.getfloat("NEWSCRAWL_NEAR_DUPLICATE_JACCARD", NEAR_DUPLICATE_JACCARD)
        ledger = Ledger(open_backend(crawler.settings), crawler.stats, threshold, lock,
                        DropMemory.from_settings(crawler.settings))
        sinks = sinks_for(crawler)
        ledger.recover(replay=sinks.commit if sinks is not None else None)
        _ledgers[crawler] = ledger
        logger.info("Incremental state: %s", ledger.backend.describe())
    return _ledgers[crawler]


def record_of(item: dict | ArticleItem, fingerprint: Fingerprint | None, first_seen: str) -> ArticleRecord:
    get = item.get if isinstance(item, dict) else lambda name: getattr(item, name, None)
    return ArticleRecord(canonical_url=get("canonical_url"), url=canonicalize(get("url")), site=get("site"),
                         first_seen=first_seen, fingerprint=fingerprint, duplicate_of=get("duplicate_of"))


class PendingFingerprints:
    """Fingerprints of this run's articles not yet in the backend, indexed by LSH band key, so a new
    article is compared only with those sharing a band (not with every pending one).

    A band key held by one pending article (nearly all of them) maps to its (order, record) entry
    itself; a list is made only when a second article shares the band. A list per band key cost 12
    container objects per pending article, thousands of them alive at once, which every young
    collection of the garbage collector walked until they were old.
    """

    def __init__(self):
        self.by_band: dict[int, tuple[int, ArticleRecord] | list[tuple[int, ArticleRecord]]] = {}
        self.order = itertools.count()

    def add(self, record: ArticleRecord) -> None:
        if record.fingerprint is None:
            return
        entry = (next(self.order), record)
        by_band = self.by_band
        for band in record.fingerprint.bands:
            held = by_band.get(band)
            if held is None:
                by_band[band] = entry
            elif type(held) is list:
                held.append(entry)
            else:
                by_band[band] = [held, entry]

    def remove(self, record: ArticleRecord) -> None:
        by_band = self.by_band
        for band in record.fingerprint.bands if record.fingerprint is not None else ():
            held = by_band.get(band)
            if held is None:
                continue
            if type(held) is not list:
                if held[1] is record:
                    del by_band[band]
                continue
            kept = [entry for entry in held if entry[1] is not record]
            by_band[band] = kept if len(kept) > 1 else kept[0]  # a list always holds two or more

    def sharing_a_band(self, fingerprint: Fingerprint) -> list[ArticleRecord]:
        """Pending records with a band in common with ``fingerprint``, earliest admitted first."""
        found = {}
        for band in fingerprint.bands:
            held = self.by_band.get(band)
            if held is not None:
                for order, record in held if type(held) is list else (held,):
                    found[order] = record
        return [found[order] for order in sorted(found)]


class Ledger:
    """Admitted and written articles of this run, and their commit to the state backend."""

    def __init__(self, backend, stats, threshold: float, lock=None, drop_memory: DropMemory = DropMemory()):
        self.backend = backend
        self.stats = stats
        self.threshold = threshold
        self.lock = lock
        self.drop_memory = drop_memory
        self.drops_since = drop_memory.since()  # once per run: a drop does not expire during it
        self.new_drops: list[RememberedDrop] = []  # not yet written to the backend
        self.listed_links = ListedLinks()  # pages found by a link that a listing names too (this run)
        self.admitted: dict[str, ArticleRecord] = {}  # canonical URL -> record, until written
        self.unrecorded: list[ArticleRecord] = []  # written, awaiting the next commit
        self.inflight: set[str] = set()  # canonical and fetched URLs of admitted and unrecorded articles
        self.pending = PendingFingerprints()  # fingerprints of admitted and unrecorded articles
        self.durable_output = False

    # --- admission (pipeline) -----------------------------------------------------------------------

    def is_known(self, url: str) -> bool:
        return url in self.inflight or self.backend.is_known(url)

    # --- remembered drops ---------------------------------------------------------------------------

    def is_remembered_drop(self, url: str) -> bool:
        """Whether ``url`` was dropped as no article within the remembered period (not fetched again)."""
        return self.drop_memory.days > 0 and self.backend.is_remembered_drop(url, self.drops_since)

    def remember_drop(self, urls: tuple[str, ...], site: str | None, reason: str) -> None:
        """Remember a page dropped as no article (the caller checked :func:`is_dead_end`)."""
        if self.drop_memory.days <= 0:
            return
        self.new_drops.append(RememberedDrop(tuple(dict.fromkeys(canonicalize(url) for url in urls)), reason,
                                             int(unix_now())))
        count(self.stats, "state/drops_remembered", site)
        if len(self.new_drops) >= DROP_BATCH:
            self.write_drops()

    def write_drops(self) -> None:
        drops, self.new_drops = self.new_drops, []
        if drops:
            forgotten = self.backend.add_drops(drops, self.drop_memory.max_rows)
            if forgotten:
                self.stats.inc_value("newscrawl/state/drops_forgotten", forgotten)

    def admit(self, item: ArticleItem) -> str | None:
        """None when the article may be emitted (``duplicate_of`` set on the item), else a drop reason."""
        if item.canonical_url in self.inflight:
            return "duplicate"
        fetched = canonicalize(item.url)
        if self.backend.is_known(item.canonical_url, fetched):
            return "known"
        fingerprint = getattr(item, "text_fingerprint", None)  # computed in an extraction worker
        if fingerprint is None:
            fingerprint = fingerprint_text(item.text or "")
        if fingerprint is not None:
            item.duplicate_of = self._first_copy(fingerprint)
        record = record_of(item, fingerprint, utc_now())
        if not self.backend.claim(record):
            return "claimed_elsewhere"
        first = self.backend.copy_claimed_first(record, self.threshold)   # another crawler's, claimed meanwhile
        if first is not None:
            item.duplicate_of = first
            record = dataclasses.replace(record, duplicate_of=first)
        self.admitted[item.canonical_url] = record
        self.inflight.update((record.canonical_url, record.url))
        self.pending.add(record)
        if item.duplicate_of:
            count(self.stats, "near_duplicates", item.site)
        return None

    def _first_copy(self, fingerprint: Fingerprint) -> str | None:
        candidates = self.pending.sharing_a_band(fingerprint)
        found = fingerprint.first_similar([record.fingerprint.signature for record in candidates], self.threshold)
        if found is not None:
            return candidates[found].duplicate_of or candidates[found].canonical_url
        return self.backend.near_duplicate_of(fingerprint, self.threshold)

    def release(self, canonical_url: str) -> None:
        """An admitted article that will not be written after all (dropped or failed later)."""
        record = self.admitted.pop(canonical_url, None)
        if record is not None:
            self.inflight.difference_update((record.canonical_url, record.url))
            self.pending.remove(record)

    # --- writing and recording (feed exporter) ------------------------------------------------------

    def attach_output(self, path: str, offset: int) -> None:
        self.durable_output = True
        self.backend.set_output(path, offset)

    def written(self, item: ArticleItem) -> None:
        record = self.admitted.pop(item.canonical_url, None)
        if record is not None:
            self.unrecorded.append(record)

    def commit(self, output: str | None = None, offset: int | None = None, count: int | None = None) -> None:
        """Record the written articles, or the first ``count`` of them (call only once the output
        holding them is synced)."""
        records = self.unrecorded if count is None else self.unrecorded[:count]
        if records or output is not None:
            self.backend.add_articles(records, output, offset)
            self.recorded(records)

    def recorded(self, records: list[ArticleRecord]) -> None:
        """``records``, the first of ``unrecorded``, are in the backend now (written there by
        ``commit``, or by the output's sync thread): they are known from the backend on."""
        self.stats.inc_value("newscrawl/state/recorded", len(records))
        for record in records:
            self.inflight.difference_update((record.canonical_url, record.url))
            self.pending.remove(record)
        self.unrecorded = self.unrecorded[len(records):]

    def detach_output(self, path: str) -> None:
        self.backend.forget_output(path)

    # --- recovery at start --------------------------------------------------------------------------

    def recover(self, replay=None) -> None:
        """Record the lines earlier runs wrote but did not record; cut torn tails. ``replay`` (the
        article sinks' commit) gets those lines first: a sink may have missed them."""
        for path, committed in self.backend.open_outputs():
            repair = repair_output(Path(path), committed)
            if repair is None:
                self.backend.forget_output(path)
                continue
            records = [record_of(line, fingerprint_text(line.get("text") or ""), line.get("fetched_at") or utc_now())
                       for line in repair.items if isinstance(line, dict) and line.get("canonical_url")]
            if replay is not None:
                replay([line for line in repair.items if isinstance(line, dict) and line.get("canonical_url")])
            self.backend.add_articles(records, path, repair.size)
            self.backend.forget_output(path)
            self.stats.inc_value("newscrawl/state/recovered_lines", len(records))
            self.stats.inc_value("newscrawl/state/cut_bytes", repair.cut_bytes)
            if records or repair.cut_bytes:
                logger.warning("Recovered %s after an unclean stop: %d line(s) recorded in the state, "
                               "%d torn byte(s) cut", path, len(records), repair.cut_bytes)

    def close(self, commit: bool = True) -> None:
        """Record what was written (unless ``commit`` is false: the output did not keep it), close, unlock."""
        if commit:
            self.commit()
        self.write_drops()
        self.backend.close()
        if self.lock is not None:
            self.lock.release()


class StateExtension:
    """Open the ledger at start (lock, recovery) and close it when the engine stops."""

    def __init__(self, crawler, ledger: Ledger):
        self.crawler = crawler
        self.ledger = ledger

    @classmethod
    def from_crawler(cls, crawler):
        ledger = ledger_for(crawler)
        if ledger is None:
            raise NotConfigured
        ext = cls(crawler, ledger)
        crawler.signals.connect(ext.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(ext.item_dropped, signal=signals.item_dropped)
        crawler.signals.connect(ext.item_dropped, signal=signals.item_error)
        crawler.signals.connect(ext.engine_stopped, signal=signals.engine_stopped)
        return ext

    def item_scraped(self, item, response) -> None:
        """Without a durable JSONL output, note each article handed to Scrapy's exporters; they are
        recorded when the crawl ends, once every feed was stored (``engine_stopped``).

        With one (the default; it records what it syncs), this receiver leaves at the first item:
        each receiver of ``item_scraped`` is an asyncio task per item (~1% of the crawl process).
        """
        if self.ledger.durable_output:
            self.crawler.signals.disconnect(self.item_scraped, signal=signals.item_scraped)
            return
        if isinstance(item, ArticleItem):
            self.ledger.written(item)

    def item_dropped(self, item, response, exception=None, **kwargs) -> None:
        if isinstance(item, ArticleItem):
            self.ledger.release(item.canonical_url)
        elif isinstance(item, PageItem) and isinstance(exception, NotAnArticle) and \
                exception.reason in REMEMBERED_DROP_REASONS:
            meta = response.meta if response is not None else {}
            requested = (meta.get("newscrawl_url_kind") or (item.url,))[0]  # the URL as the spider asked it
            remember = functools.partial(self.ledger.remember_drop, (requested, item.url), item.site, exception.reason)
            if is_dead_end(item, exception.reason):
                remember()
            else:  # found by a link: remembered if a feed or sitemap of this run lists it too
                self.ledger.listed_links.dropped(requested, remember)

    def engine_stopped(self) -> None:
        ledger = _ledgers.pop(self.crawler, None)
        if ledger is not None:
            ledger.close(commit=ledger.durable_output or self._feeds_stored())

    def _feeds_stored(self) -> bool:
        """Whether Scrapy's exporters stored every feed and took every item (no output error)."""
        stop = stopped(self.crawler)
        failed = (stop is not None and stop.reason == OUTPUT_ERROR) or any(
            key.startswith("feedexport/failed_count/") for key in self.crawler.stats.get_stats())
        if failed:
            logger.error("a feed of this crawl was not stored: its %d article(s) are not recorded in the state "
                         "(the next run emits them again)", len(self.ledger.unrecorded))
        return not failed


class IncrementalPipeline:
    """Drop articles the state already holds; mark near-duplicates with ``duplicate_of``. Runs after every pipeline that may drop."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.ledger: Ledger | None = None  # the crawl's ledger, looked up once

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NEWSCRAWL_STATE_ENABLED", True):
            raise NotConfigured
        return cls(crawler)

    def process_item(self, item):
        if not isinstance(item, ArticleItem):
            return item
        if self.ledger is None:
            self.ledger = ledger_for(self.crawler)
        reason = self.ledger.admit(item)
        if reason:
            count(self.stats, f"dropped/{reason}", item.site)
            raise DropItem(reason)  # logged with the URL and size (logformat.describe_item)
        return item
