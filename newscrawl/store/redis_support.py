"""Distributed crawling on one Redis: shared scheduler and dupefilter (scrapy-redis), state, idle close.

With ``-s REDIS_URL=redis://host:port/db`` every crawler started with the same
sites file shares:

- the request queue and duplicate filter of scrapy-redis (``RedisAddon`` sets
  ``SCHEDULER`` and ``DUPEFILTER_CLASS``), so each URL is fetched by one crawler;
- the incremental state (:class:`RedisState`, keys under
  ``NEWSCRAWL_REDIS_PREFIX``), so each article is emitted by one crawler, once
  across runs: a crawler *claims* an article (``SET NX`` with an expiry) before
  writing it, and records it after its output was synced; its fingerprint is
  indexed at claim time, so a near-duplicate handled by another crawler a
  moment later is marked;
- a busy flag per crawler, so a crawler closes only when the shared queue has
  been empty and no crawler was busy for ``NEWSCRAWL_REDIS_IDLE_SECONDS``
  (:class:`RedisIdleCloseExtension`).
"""
from __future__ import annotations

import json
import logging
import os
import socket
import time
import uuid
import zlib
from typing import Iterable

from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from twisted.internet import task

from ..crawl.fingerprint import FINGERPRINT_SCHEME, Fingerprint
from .state import (DEFAULT_LISTING_CACHE_MIB, ArticleRecord, CachedListing, RememberedDrop, report_dropped_signatures,
                    url_key)

logger = logging.getLogger(__name__)

DEFAULT_PREFIX = "newscrawl"
# A claim not turned into a record within this time (its crawler died) lapses, so the article can be
# emitted by a later run (seconds; well above the time from extraction to the next output sync).
CLAIM_SECONDS = 600
BUSY_TTL_SECONDS = 3.0  # a busy flag not refreshed within this time counts as idle (heartbeat is 1 s)


def _redis_from_url(url: str):
    import redis  # here: only crawls with REDIS_URL pay for loading it (~0.5 s of start-up)

    return redis.Redis.from_url(url)


def redis_errors() -> type[Exception]:
    """The base class of the errors the Redis client raises (loaded only when a crawl uses Redis)."""
    import redis

    return redis.RedisError


class RedisState:
    """The methods of ``state.SqliteState``, on Redis keys ``<prefix>:...``."""

    def __init__(self, client, prefix: str = DEFAULT_PREFIX, owner: str | None = None,
                 listing_cache_mib: float = DEFAULT_LISTING_CACHE_MIB):
        self.redis = client
        self.prefix = prefix
        self.listing_cache_bytes = int(listing_cache_mib * 1024 * 1024)
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}"
        self.outputs_key = f"{prefix}:outputs:{socket.gethostname()}"  # outputs are local files

    @classmethod
    def from_settings(cls, settings) -> RedisState:
        client = _redis_from_url(settings.get("REDIS_URL"))
        client.ping()
        state = cls(client, settings.get("NEWSCRAWL_REDIS_PREFIX") or DEFAULT_PREFIX,
                    listing_cache_mib=settings.getfloat("NEWSCRAWL_LISTING_CACHE_MIB", DEFAULT_LISTING_CACHE_MIB))
        state.drop_foreign_signatures()
        return state

    def drop_foreign_signatures(self) -> None:
        """Forget signatures and band keys of another fingerprint recipe (see ``SqliteState``). Every
        crawler sharing one Redis must run the same version."""
        stored = self.redis.get(self._key("fingerprint"))
        if stored is not None and stored.decode() == FINGERPRINT_SCHEME:
            return
        stale = self.redis.hlen(self._key("signatures"))
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self._key("signatures"), self._key("bands"))
        pipe.set(self._key("fingerprint"), FINGERPRINT_SCHEME)
        pipe.execute()
        report_dropped_signatures(self.describe(), stale)

    def describe(self) -> str:
        kwargs = self.redis.connection_pool.connection_kwargs
        return f"redis://{kwargs.get('host')}:{kwargs.get('port')}/{kwargs.get('db', 0)} keys {self.prefix}:*"

    def _key(self, name: str) -> str:
        return f"{self.prefix}:{name}"

    def is_known(self, *urls: str) -> bool:
        """Whether any of ``urls`` belongs to a recorded article (one round trip for all)."""
        return any(self.redis.smismember(self._key("urls"), [url_key(url) for url in urls]))

    def claim(self, record: ArticleRecord) -> bool:
        """True when no other crawler emitted or is emitting this article."""
        if self.redis.hexists(self._key("articles"), record.canonical_url):
            return False
        claim = self._key(f"claim:{url_key(record.canonical_url)}")
        if not self.redis.set(claim, self.owner, nx=True, ex=CLAIM_SECONDS):
            return False
        # One transaction: of two similar articles claimed at the same moment by two crawlers, the
        # first indexed owns every band they share (copy_claimed_first relies on it).
        self._index(self.redis.pipeline(transaction=True), record).execute()
        return True

    def copy_claimed_first(self, record: ArticleRecord, threshold: float) -> str | None:
        """After ``claim``: the article this one copies when another crawler claimed it first,
        each crawler having looked for the other before either was indexed (then neither saw the
        other). The first indexed owns the bands the two share, so only the later one finds the
        other here. The link is stored with this article's signature, for copies of it to follow.
        """
        fingerprint = record.fingerprint
        if fingerprint is None or record.duplicate_of:
            return None
        first = self.near_duplicate_of(fingerprint, threshold, excluding=record.canonical_url)
        if first is not None:
            value = json.dumps({"signature": fingerprint.signature.hex(), "duplicate_of": first})
            self.redis.hset(self._key("signatures"), record.canonical_url, value)
        return first

    def _index(self, pipe, record: ArticleRecord):
        """Make the article findable as a near-duplicate by every crawler from now on (claim time)."""
        fingerprint = record.fingerprint
        if fingerprint:
            value = json.dumps({"signature": fingerprint.signature.hex(), "duplicate_of": record.duplicate_of})
            pipe.hsetnx(self._key("signatures"), record.canonical_url, value)
            for band in fingerprint.bands:
                pipe.hsetnx(self._key("bands"), band, record.canonical_url)
        return pipe

    def near_duplicate_of(self, fingerprint: Fingerprint, threshold: float, excluding: str | None = None) -> str | None:
        """The first copy of an indexed article similar to ``fingerprint`` (``excluding`` one canonical URL)."""
        left_out = excluding.encode("utf-8") if excluding is not None else None
        firsts = [c for c in self.redis.hmget(self._key("bands"), fingerprint.bands) if c and c != left_out]
        for canonical in dict.fromkeys(firsts):
            raw = self.redis.hget(self._key("signatures"), canonical)
            if not raw:
                continue
            stored = json.loads(raw)
            if stored.get("signature") and fingerprint.similarity(bytes.fromhex(stored["signature"])) >= threshold:
                return stored.get("duplicate_of") or canonical.decode("utf-8")
        return None

    def add_articles(self, records: Iterable[ArticleRecord], output: str | None = None,
                     committed: int | None = None) -> None:
        pipe = self.redis.pipeline(transaction=True)
        for record in records:
            value = {"url": record.url, "site": record.site, "first_seen": record.first_seen,
                     "duplicate_of": record.duplicate_of}
            pipe.hsetnx(self._key("articles"), record.canonical_url, json.dumps(value))
            pipe.sadd(self._key("urls"), *record.keys())
            self._index(pipe, record)  # again, for articles recovered from an output (never claimed)
            pipe.delete(self._key(f"claim:{url_key(record.canonical_url)}"))
        if output is not None and committed is not None:
            pipe.hset(self.outputs_key, output, committed)
        pipe.execute()

    def open_outputs(self) -> list[tuple[str, int]]:
        return [(k.decode(), int(v)) for k, v in self.redis.hgetall(self.outputs_key).items()]

    def set_output(self, path: str, committed: int) -> None:
        self.redis.hset(self.outputs_key, path, committed)

    def forget_output(self, path: str) -> None:
        self.redis.hdel(self.outputs_key, path)

    def listing(self, url: str) -> CachedListing | None:
        raw = self.redis.hget(self._key("listings"), url)
        if not raw:
            return None
        head, _, body = raw.partition(b"\n")
        meta = json.loads(head)
        return CachedListing(url, meta["etag"], meta["last_modified"], meta["content_type"], zlib.decompress(body))

    def save_listing(self, listing: CachedListing) -> bool:
        """Keep the listing, then evict the ones stored longest ago while all pass the cache bound (as
        ``SqliteState.save_listing``; the running total is ``<prefix>:listing_bytes``). False when the
        body alone is larger than the bound (not kept)."""
        head = json.dumps({"etag": listing.etag, "last_modified": listing.last_modified,
                           "content_type": listing.content_type}).encode()
        value = head + b"\n" + zlib.compress(listing.body, 6)
        listings, times, total = self._key("listings"), self._key("listing_times"), self._key("listing_bytes")
        replaced = self.redis.hstrlen(listings, listing.url)
        pipe = self.redis.pipeline(transaction=True)
        if len(value) > self.listing_cache_bytes:
            pipe.hdel(listings, listing.url).zrem(times, listing.url).decrby(total, replaced).execute()
            return False
        pipe.hset(listings, listing.url, value).zadd(times, {listing.url: time.time()})
        stored = pipe.incrby(total, len(value) - replaced).execute()[-1]
        while stored > self.listing_cache_bytes:
            oldest = self.redis.zpopmin(times, 1)
            if not oldest:
                break
            url = oldest[0][0]
            size = self.redis.hstrlen(listings, url)
            stored = self.redis.pipeline(transaction=True).hdel(listings, url).decrby(total, size).execute()[-1]
        return True

    def is_remembered_drop(self, url: str, since: int) -> bool:
        """Whether ``url`` was dropped as no article at or after ``since`` (Unix time)."""
        dropped_at = self.redis.zscore(self._key("drops"), url_key(url))
        return dropped_at is not None and dropped_at >= since

    def add_drops(self, drops: Iterable[RememberedDrop], max_rows: int) -> int:
        """Remember ``drops`` (a sorted set of URL keys by drop time), then forget the oldest beyond
        ``max_rows``; how many were forgotten."""
        mapping = {key: drop.dropped_at for drop in drops for key in drop.keys()}
        if not mapping:
            return 0
        pipe = self.redis.pipeline(transaction=True)
        pipe.zadd(self._key("drops"), mapping)
        pipe.zcard(self._key("drops"))
        excess = pipe.execute()[-1] - max_rows
        return len(self.redis.zpopmin(self._key("drops"), excess)) if excess > 0 else 0

    def counts(self) -> dict[str, int]:
        return {"articles": self.redis.hlen(self._key("articles")), "urls": self.redis.scard(self._key("urls")),
                "bands": self.redis.hlen(self._key("bands")), "listings": self.redis.hlen(self._key("listings")),
                "listing_bytes": int(self.redis.get(self._key("listing_bytes")) or 0),
                "remembered_drops": self.redis.zcard(self._key("drops"))}

    def reset(self) -> int:
        keys = list(self.redis.scan_iter(match=f"{self.prefix}:*", count=1000))
        return self.redis.delete(*keys) if keys else 0

    def close(self) -> None:
        self.redis.close()


class RedisAddon:
    """With REDIS_URL set: scrapy-redis scheduler and dupefilter, and the idle-close extension."""

    def update_settings(self, settings) -> None:
        if not settings.get("REDIS_URL"):
            return
        # "spider" priority: above settings.py (project), below -s on the command line.
        settings.set("SCHEDULER", "scrapy_redis.scheduler.Scheduler", priority="spider")
        settings.set("DUPEFILTER_CLASS", "scrapy_redis.dupefilter.RFPDupeFilter", priority="spider")
        # Keys of the shared queue and dupefilter, cleared by the last crawler to close.
        prefix = settings.get("NEWSCRAWL_REDIS_PREFIX") or DEFAULT_PREFIX
        settings.set("SCHEDULER_QUEUE_KEY", f"{prefix}:%(spider)s:requests", priority="spider")
        settings.set("SCHEDULER_DUPEFILTER_KEY", f"{prefix}:%(spider)s:dupefilter", priority="spider")
        # the last crawler to close clears them (RedisIdleCloseExtension), not the first
        settings.set("SCHEDULER_PERSIST", True, priority="spider")


class RedisIdleCloseExtension:
    """Keep a crawler open while the shared queue has requests or another crawler is busy.

    Every second a crawler that is not idle refreshes its busy flag (a hash
    field with its timestamp). On ``spider_idle`` it stays open unless the queue
    is empty, no other crawler's flag is fresh, and that has lasted
    ``NEWSCRAWL_REDIS_IDLE_SECONDS``. The last crawler to close clears the
    shared queue and dupefilter, so the next run fetches feeds and start pages
    again.
    """

    def __init__(self, crawler, client, prefix: str, idle_seconds: float):
        self.crawler = crawler
        self.redis = client
        self.busy_key = f"{prefix}:busy"
        self.me = uuid.uuid4().hex
        self.idle_seconds = idle_seconds
        self.idle_since: float | None = None
        self.heartbeat: task.LoopingCall | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.get("REDIS_URL"):
            raise NotConfigured
        client = _redis_from_url(settings.get("REDIS_URL"))
        prefix = settings.get("NEWSCRAWL_REDIS_PREFIX") or DEFAULT_PREFIX
        ext = cls(crawler, client, prefix, settings.getfloat("NEWSCRAWL_REDIS_IDLE_SECONDS", 30.0))
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self._mark_busy()
        self.heartbeat = task.LoopingCall(self.beat)
        self.heartbeat.start(1.0, now=False)

    def _mark_busy(self) -> None:
        self.redis.hset(self.busy_key, self.me, time.time())

    def beat(self) -> None:
        try:
            if not self.crawler.engine.spider_is_idle():
                self._mark_busy()
        except redis_errors() as exc:  # Redis restarting: the next beat tries again
            logger.warning("could not refresh the busy flag in Redis: %s", exc)

    def _others_busy(self) -> bool:
        fresh_after = time.time() - BUSY_TTL_SECONDS
        flags = self.redis.hgetall(self.busy_key)
        return any(who.decode() != self.me and float(when) > fresh_after for who, when in flags.items())

    def spider_idle(self) -> None:
        scheduler = self.crawler.engine.scheduler
        try:
            waiting = (scheduler is not None and scheduler.has_pending_requests()) or self._others_busy()
        except redis_errors() as exc:  # an unreachable queue is no empty one: wait for Redis
            logger.warning("Redis did not answer whether work is left (%s); waiting", exc)
            waiting = True
        if waiting:
            self.idle_since = None
            raise DontCloseSpider
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.idle_seconds:
            raise DontCloseSpider
        logger.info("Shared queue empty and no crawler busy for %.0f s: closing", now - self.idle_since)

    def spider_closed(self) -> None:
        if self.heartbeat is not None and self.heartbeat.running:
            self.heartbeat.stop()
        self.redis.hdel(self.busy_key, self.me)
        if not self._others_busy():
            scheduler = self.crawler.engine.scheduler
            if scheduler is not None and hasattr(scheduler, "flush"):
                scheduler.flush()
