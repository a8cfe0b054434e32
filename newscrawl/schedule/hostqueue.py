"""The scheduler's priority queue for crawls of many hosts: hosts take turns at a constant cost.

Scrapy's default, ``DownloaderAwarePriorityQueue``, keeps one priority queue per
download slot (host) and, for every request it hands out, asks the downloader
how busy each host with waiting requests is: a scan of all of them, which took
45% of the crawl's main thread at 10,000 sites. With a ``JOBDIR`` it also gives
every host its own queue files, all open at once: ``Too many open files`` after
a few thousand hosts.

:class:`HostTurnsQueue` keeps the same per-host order (higher priority first,
then Scrapy's LIFO / FIFO of the disk and start queues), but:

- hosts wait in a ring per priority level, in the order they arrived; a pop takes
  the host in front, which stays in front until its download slot is full. A full
  host is parked (out of the ring) and goes back to the front when one of its
  requests leaves the downloader (Scrapy's ``request_left_downloader`` signal).
  Each pop, park and return is O(1), whatever the number of hosts, and sites finish
  their listings one after the other instead of all together;
- priority levels take turns, across hosts: a host whose feed was read gets its
  articles fetched while other hosts' feeds and sitemaps still wait, instead of
  every listing of every site first (within one host, listings still go before
  its pages), so articles are written from the first seconds of a broad crawl;
- on disk (``JOBDIR``, or the temporary queue of ``newscrawl.schedule.scheduler``) all
  hosts' requests are rows of one SQLite file (:class:`SqliteRequestStore`): a
  fixed number of open files whatever the number of hosts.

A disk queue class other than Scrapy's own (``SCHEDULER_DISK_QUEUE`` set to a
class of another module) keeps Scrapy's layout, one queue per host and
priority, so that class is still used.
"""
from __future__ import annotations

import logging
import pickle
import sqlite3
from collections import deque
from itertools import chain
from pathlib import Path

from queuelib import queue as queuelib_queue
from scrapy import signals
from scrapy.pqueues import ScrapyPriorityQueue, _path_safe
from scrapy.utils.request import request_from_dict

from .request_dicts import request_dict

logger = logging.getLogger(__name__)

# Queue writes grouped in one SQLite transaction (the queue is rebuilt from scratch after a crash,
# newscrawl.store.resume, so it is committed for speed, not durability)
WRITES_PER_COMMIT = 500
STORE_FILE = "requests.sqlite"
STANDARD_QUEUE_MODULE = "scrapy.squeues"  # Scrapy's pickle / marshal disk queues: stored in SQLite


def _base_queue_class(queue_class: type | None) -> type | None:
    """The disk queue class behind a ``newscrawl.schedule.scheduler.memory_first`` wrapper (or the class itself)."""
    return getattr(queue_class, "disk_class", queue_class)


def _is_lifo(queue_class: type | None) -> bool:
    base = _base_queue_class(queue_class)
    return base is not None and issubclass(base, (queuelib_queue.LifoDiskQueue, queuelib_queue.LifoMemoryQueue))


class SqliteRequestStore:
    """Every host's waiting requests in one SQLite file, ordered per host like Scrapy's queues.

    A row's ``rank`` is twice the queue priority (the negated request priority, lower first) plus 1
    for a start request (after other requests of that priority, as in ``ScrapyPriorityQueue``); its
    ``seq`` grows with each push, negated for a LIFO queue, so (host, rank, seq) is the pop order.
    """

    def __init__(self, crawler, directory: str, lifo: bool, start_lifo: bool):
        self.crawler = crawler
        self.lifo, self.start_lifo = lifo, start_lifo
        Path(directory).mkdir(parents=True, exist_ok=True)
        self.path = Path(directory, STORE_FILE)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=MEMORY")
        self.db.execute("PRAGMA synchronous=OFF")
        self.db.execute("CREATE TABLE IF NOT EXISTS requests (slot TEXT NOT NULL, rank INTEGER NOT NULL, "
                        "seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (slot, rank, seq)) WITHOUT ROWID")
        self.seq = self.db.execute("SELECT COALESCE(MAX(ABS(seq)), 0) FROM requests").fetchone()[0]
        self.pending_writes = 0

    def saved_slots(self) -> dict[str, tuple[int, int]]:
        """{host: (head rank, requests)} of a queue saved by an earlier run."""
        rows = self.db.execute("SELECT slot, MIN(rank), COUNT(*) FROM requests GROUP BY slot")
        return {slot: (rank, size) for slot, rank, size in rows}

    def push(self, slot: str, rank: int, request) -> None:
        try:
            data = pickle.dumps(request_dict(request, self.crawler.spider), protocol=4)
        except (pickle.PicklingError, AttributeError, TypeError, ValueError) as exc:
            raise ValueError(str(exc)) from exc  # the scheduler keeps such a request in memory
        self.seq += 1
        lifo = self.start_lifo if rank & 1 else self.lifo
        self._write("INSERT INTO requests VALUES (?, ?, ?, ?)", (slot, rank, -self.seq if lifo else self.seq, data))

    def pop(self, slot: str) -> tuple[object, int | None]:
        """(the host's next request, the rank of the one after it or None)."""
        rows = self.db.execute("SELECT rank, seq, data FROM requests WHERE slot = ? ORDER BY rank, seq LIMIT 2",
                               (slot,)).fetchall()
        rank, seq, data = rows[0]
        self._write("DELETE FROM requests WHERE slot = ? AND rank = ? AND seq = ?", (slot, rank, seq))
        request = request_from_dict(pickle.loads(data), spider=self.crawler.spider)
        return request, (rows[1][0] if len(rows) > 1 else None)

    def _write(self, sql: str, args: tuple) -> None:
        if self.pending_writes == 0:
            self.db.execute("BEGIN")
        self.db.execute(sql, args)
        self.pending_writes += 1
        if self.pending_writes >= WRITES_PER_COMMIT:
            self.commit()

    def commit(self) -> None:
        if self.pending_writes:
            self.pending_writes = 0
            self.db.execute("COMMIT")

    def close(self, empty: bool) -> None:
        self.commit()
        self.db.close()
        if empty:
            self.path.unlink(missing_ok=True)


class _PerHostQueues:
    """Scrapy's layout: one ``ScrapyPriorityQueue`` per host (in memory, or of a custom disk class)."""

    def __init__(self, crawler, downstream_queue_cls, key: str, start_queue_cls, saved: dict | None):
        self.crawler, self.downstream, self.key, self.start_cls = crawler, downstream_queue_cls, key, start_queue_cls
        self.queues: dict[str, ScrapyPriorityQueue] = {}
        for slot, prios in (saved or {}).items():
            self.queues[slot] = self._new(slot, prios)

    def _new(self, slot: str, prios=()) -> ScrapyPriorityQueue:
        key = f"{self.key}/{_path_safe(slot)}" if self.key else ""
        return ScrapyPriorityQueue(self.crawler, self.downstream, key, prios, start_queue_cls=self.start_cls)

    def saved_slots(self) -> dict[str, tuple[int, int]]:
        return {slot: (self._head(queue), len(queue)) for slot, queue in self.queues.items() if len(queue)}

    def push(self, slot: str, rank: int, request) -> None:
        if slot not in self.queues:
            self.queues[slot] = self._new(slot)
        self.queues[slot].push(request)

    def pop(self, slot: str) -> tuple[object, int | None]:
        queue = self.queues[slot]
        request = queue.pop()
        if len(queue):
            return request, self._head(queue)
        del self.queues[slot]
        queue.close()
        return request, None

    @staticmethod
    def _head(queue: ScrapyPriorityQueue) -> int:
        # private: ScrapyPriorityQueue keeps no current head once a start queue is emptied
        starts = queue._start_queues.items()
        return min(chain((2 * p for p, q in queue.queues.items() if q), (2 * p + 1 for p, q in starts if q)))

    def close(self, empty: bool) -> dict[str, list[int]]:
        saved = {slot: queue.close() for slot, queue in self.queues.items()}
        self.queues.clear()
        return saved


class HostTurnsQueue:
    """``SCHEDULER_PRIORITY_QUEUE``: hosts in arrival order, a full host parked, levels taking turns (module doc)."""

    @classmethod
    def from_crawler(cls, crawler, downstream_queue_cls, key: str, startprios=None, *, start_queue_cls=None):
        return cls(crawler, downstream_queue_cls, key, startprios, start_queue_cls=start_queue_cls)

    def __init__(self, crawler, downstream_queue_cls, key: str, startprios=None, *, start_queue_cls=None):
        self.crawler = crawler
        self.key = key
        base = _base_queue_class(downstream_queue_cls)
        if key and getattr(base, "__module__", "") == STANDARD_QUEUE_MODULE:
            self.store = SqliteRequestStore(crawler, key, _is_lifo(downstream_queue_cls), _is_lifo(start_queue_cls))
        else:
            saved = startprios if isinstance(startprios, dict) else None
            self.store = _PerHostQueues(crawler, downstream_queue_cls, key, start_queue_cls, saved)
        self.heads: dict[str, int] = {}  # host -> rank of its next request
        # priority level (rank // 2) -> (host, token) of hosts whose next request has that level; an entry
        # counts only while its token is the host's: a host is in one ring once, older entries go stale
        self.rings: dict[int, deque[tuple[str, int]]] = {}
        self.tokens: dict[str, int] = {}
        self.issued = 0  # tokens handed out
        # hosts taken out of their ring while their download slot is full; at most one per request in
        # the downloader, so their number is bounded by CONCURRENT_REQUESTS, not by the hosts
        self.parked: set[str] = set()
        self.turn = 0  # which priority level goes first
        self.total = 0
        for slot, (rank, size) in self.store.saved_slots().items():
            self.heads[slot] = rank
            self._enter_ring(slot)
            self.total += size
        crawler.signals.connect(self.request_left_downloader, signal=signals.request_left_downloader)

    # --- the downloader -------------------------------------------------------------------------

    def _slot_key(self, request) -> str:
        return self.crawler.engine.downloader.get_slot_key(request)

    def _has_room(self, slot: str) -> bool:
        """Whether the host's download slot would start another request now. Counted from its
        queue and transfers (a request leaving the downloader is out of them before it says so)."""
        download_slot = self.crawler.engine.downloader.slots.get(slot)
        if download_slot is None:
            return True
        return len(download_slot.queue) + len(download_slot.transferring) < download_slot.concurrency

    def request_left_downloader(self, request, spider=None) -> None:
        """A host whose download slot has room again goes back to the front of its ring."""
        if self.parked:
            slot = self._slot_key(request)
            if slot in self.parked and self._has_room(slot):
                self._enter_ring(slot, front=True)

    # --- rings ----------------------------------------------------------------------------------

    def _enter_ring(self, slot: str, front: bool = False) -> None:
        """Put ``slot`` in the ring of its next request's level (any older entry goes stale)."""
        self.parked.discard(slot)
        self.issued += 1
        self.tokens[slot] = self.issued
        ring = self.rings.setdefault(self.heads[slot] // 2, deque())
        (ring.appendleft if front else ring.append)((slot, self.issued))

    def _valid_front(self, ring: deque) -> str | None:
        """Remove stale entries from the front of ``ring``; the host in front, or None."""
        while ring and self.tokens.get(ring[0][0]) != ring[0][1]:
            ring.popleft()
        return ring[0][0] if ring else None

    def _ready_front(self, level: int) -> str | None:
        """The first host of ``level``'s ring with room in its download slot; full ones are parked."""
        ring = self.rings[level]
        while (slot := self._valid_front(ring)) is not None:
            if self._has_room(slot):
                return slot
            ring.popleft()
            del self.tokens[slot]
            self.parked.add(slot)
        return None

    def push(self, request) -> None:
        slot = self._slot_key(request)
        rank = 2 * -request.priority + (1 if request.meta.get("is_start_request") else 0)
        self.store.push(slot, rank, request)  # may raise ValueError (not serializable): nothing changed then
        self.total += 1
        head = self.heads.get(slot)
        if head is None or rank < head:
            self.heads[slot] = rank
            if slot not in self.parked and (head is None or head // 2 != rank // 2):
                self._enter_ring(slot)

    def _levels(self) -> list[int]:
        for level in [lvl for lvl, ring in self.rings.items() if self._valid_front(ring) is None]:
            del self.rings[level]
        return sorted(self.rings)

    def _next_host(self) -> str | None:
        levels = self._levels()
        if levels:
            first = self.turn % len(levels)
            self.turn += 1
            for level in levels[first:] + levels[:first]:
                slot = self._ready_front(level)
                if slot is not None:
                    return slot
        return None

    def pop(self):
        if not self.total:
            return None
        slot = self._next_host()
        if slot is None and self.parked:  # all waiting hosts are full: any that has room by now goes back
            for parked in [s for s in self.parked if self._has_room(s)]:
                self._enter_ring(parked, front=True)
            slot = self._next_host()
        return None if slot is None else self._pop_from(slot)

    def _pop_from(self, slot: str):
        request, next_rank = self.store.pop(slot)
        self.total -= 1
        level = self.heads[slot] // 2
        if next_rank is None:
            del self.heads[slot], self.tokens[slot]  # its ring entry goes stale
        else:
            self.heads[slot] = next_rank
            if next_rank // 2 != level:
                self._enter_ring(slot)  # at the back of the next level's ring
            # else it stays in front of its ring: a host goes on until its download slot is full
        return request

    def close(self):
        empty = self.total == 0
        saved = self.store.close(empty)
        if isinstance(self.store, SqliteRequestStore):
            return {"store": STORE_FILE, "requests": self.total} if not empty else {}
        return saved

    def __len__(self) -> int:
        return self.total
