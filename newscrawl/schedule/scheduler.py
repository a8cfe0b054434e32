"""Scrapy's scheduler, with pending requests kept on disk even without JOBDIR.

Scrapy keeps the requests waiting to be fetched in memory unless the crawl has a
JOBDIR. On a broad crawl that queue is the largest structure in the process:
listing pages are fetched first (they carry a higher priority), so within minutes
the queue holds every article link of thousands of sites. With
``NEWSCRAWL_SPILL_QUEUE`` (on by default) a crawl without JOBDIR gets Scrapy's
own disk queue in a temporary directory, removed when the crawl closes: memory
stays flat however large the frontier grows. With JOBDIR nothing changes (the
queue is in the job directory, to resume from).

Scrapy keeps one queue per host and priority and removes it when it runs dry:
on disk that is a directory and files made and deleted again and again
(``mkdir``, ``rmdir``: ~10% of the Scrapy process in ``benchmarks/crawl_speed.py``
without extraction, 2026-11-22). So in the temporary queue each of these
queues holds its first SPILL_AFTER requests in memory and makes its disk files
only for more (:func:`memory_first`): memory stays bounded by hosts x SPILL_AFTER.
The project's own priority queue (``newscrawl.schedule.hostqueue``, the default) keeps
all of them in one SQLite file instead; this matters when Scrapy's is chosen.

A queue or duplicate filter on disk that takes no more writes (disk full, I/O
error) stops the crawl at once (``newscrawl.run.stops``, close reason
``queue_error``, exit 74) instead of dropping requests: Scrapy's scheduler
lets the error out of the engine's request handling, and the crawl hung there
holding its lock. The queue is not saved then; with JOBDIR the job directory
stays marked unclean, so the next run discards it and discovers again
(``newscrawl.store.resume``), and the incremental state keeps it from emitting twice.
"""
from __future__ import annotations

import logging
import shutil
import sqlite3
import tempfile
from collections import deque

from queuelib import queue as queuelib_queue
from scrapy.core.scheduler import Scheduler

from ..run.stops import QUEUE_ERROR, stop_crawl

logger = logging.getLogger(__name__)

# Requests a per-host, per-priority queue of the temporary queue keeps in memory before it makes its
# disk files. Most such queues hold a few requests at a time (CONCURRENT_REQUESTS_PER_DOMAIN wide).
SPILL_AFTER = 16
QUEUE_FAULTS = (OSError, sqlite3.Error)  # what the disk queue (files) and the duplicate filter (SQLite) raise


def memory_first(disk_class: type) -> type:
    """A queue class like ``disk_class`` (a FIFO or LIFO disk queue) that keeps its first SPILL_AFTER
    requests in memory; unknown disk queue kinds are returned as they are. Only for a queue that is
    not resumed: requests held in memory are not written out at close."""
    if issubclass(disk_class, queuelib_queue.LifoDiskQueue):
        lifo = True
    elif issubclass(disk_class, queuelib_queue.FifoDiskQueue):
        lifo = False
    else:
        return disk_class

    class MemoryFirstQueue:
        def __init__(self, crawler, key: str):
            self.crawler, self.key = crawler, key
            self.memory: deque = deque()  # the oldest requests
            self.disk = None  # the newer ones, once there were more than SPILL_AFTER

        @classmethod
        def from_crawler(cls, crawler, key: str, *args, **kwargs):
            return cls(crawler, key)

        def push(self, request) -> None:
            if self.disk is None and len(self.memory) < SPILL_AFTER:
                self.memory.append(request)
                return
            if self.disk is None:
                self.disk = disk_class.from_crawler(self.crawler, self.key)
            self.disk.push(request)

        def _disk_first(self) -> bool:
            # LIFO: the newest are on disk; FIFO: the oldest are in memory.
            return self.disk is not None and len(self.disk) > 0 and (lifo or not self.memory)

        def pop(self):
            if self._disk_first():
                return self.disk.pop()
            if self.memory:
                return self.memory.pop() if lifo else self.memory.popleft()
            return None

        def peek(self):
            if self._disk_first():
                return self.disk.peek()
            if self.memory:
                return self.memory[-1] if lifo else self.memory[0]
            return None

        def close(self) -> None:
            self.memory.clear()
            if self.disk is not None:
                self.disk.close()

        def __len__(self) -> int:
            return len(self.memory) + (len(self.disk) if self.disk is not None else 0)

    MemoryFirstQueue.__name__ = MemoryFirstQueue.__qualname__ = f"MemoryFirst{disk_class.__name__}"
    MemoryFirstQueue.disk_class = disk_class  # newscrawl.schedule.hostqueue stores the standard ones in one file
    return MemoryFirstQueue


class SpillingScheduler(Scheduler):
    spill_dir: str | None = None
    failed = False  # the queue or duplicate filter on disk failed: the crawl is stopping

    def __init__(self, dupefilter, jobdir: str | None = None, *args, crawler=None, **kwargs):
        spill_dir = None
        if not jobdir and crawler is not None and crawler.settings.getbool("NEWSCRAWL_SPILL_QUEUE", True):
            spill_dir = jobdir = tempfile.mkdtemp(prefix="newscrawl-queue-")  # read only to place the disk queue
        super().__init__(dupefilter, jobdir, *args, crawler=crawler, **kwargs)
        self.queue_dir = jobdir
        if spill_dir:
            self.spill_dir = spill_dir
            self.dqclass = memory_first(self.dqclass)
            if self._sdqclass is not None:
                self._sdqclass = memory_first(self._sdqclass)
            logger.info("Pending requests are queued on disk in %s (removed at the end)", spill_dir)

    def open(self, spider):
        try:
            return super().open(spider)
        except QUEUE_FAULTS as exc:
            self._fail(exc, closing=True)
            raise

    def enqueue_request(self, request) -> bool:
        if self.failed:
            return False
        try:
            return super().enqueue_request(request)
        except QUEUE_FAULTS as exc:
            self._fail(exc)
            return False

    def next_request(self):
        if self.failed:
            return None
        try:
            return super().next_request()
        except QUEUE_FAULTS as exc:
            self._fail(exc)
            return None

    def has_pending_requests(self) -> bool:
        return not self.failed and super().has_pending_requests()

    def close(self, reason):
        try:
            if self.failed and self.dqs is not None:  # not saved: the next run discards this queue
                self._close_unsaved(self.dqs)
                self.dqs = None
            return super().close(reason)
        except QUEUE_FAULTS as exc:
            self._fail(exc, closing=True)
            return None
        finally:
            if self.spill_dir:
                shutil.rmtree(self.spill_dir, ignore_errors=True)

    def _fail(self, exc: Exception, closing: bool = False) -> None:
        self.failed = True
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        stop_crawl(self.crawler, QUEUE_ERROR, f"cannot write the request queue in {self.queue_dir}: {detail}",
                   close=not closing)

    @staticmethod
    def _close_unsaved(queue) -> None:
        try:
            queue.close()
        except QUEUE_FAULTS:
            pass
