"""A request duplicate filter kept on disk, so memory stays flat however many URLs a crawl sees.

Scrapy's default ``RFPDupeFilter`` holds every request fingerprint in a Python
set (~100 bytes each) for the whole crawl. ``DiskDupeFilter`` keeps them in a
SQLite table instead: in ``JOBDIR/requests.seen.sqlite`` when the crawl has a
job directory (so a paused crawl resumes with it), else in a temporary file
removed at close. Memory use is SQLite's bounded page cache.

A crawl that finished (nothing left to fetch) forgets its fingerprints also in a job
directory: the next run with the same ``JOBDIR`` (an hourly schedule) fetches feeds,
sitemaps and start pages again instead of filtering them as seen. A paused or
stopped crawl keeps them, to resume.
"""
from __future__ import annotations

import logging
import shutil
import sqlite3
import tempfile
from pathlib import Path

from scrapy.dupefilters import BaseDupeFilter
from scrapy.utils.job import job_dir

logger = logging.getLogger(__name__)

COMMIT_EVERY = 500  # inserts per transaction (a crash loses at most these: they are fetched again)
CACHE_KIB = 8 * 1024  # SQLite page cache, KiB
FINISHED = "finished"  # Scrapy's close reason when no request is left


class DiskDupeFilter(BaseDupeFilter):
    def __init__(self, path: Path, fingerprinter, temporary_dir: Path | None = None):
        self.path = path
        self.fingerprinter = fingerprinter
        self.temporary_dir = temporary_dir
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=OFF")  # a lost tail only means a few requests fetched twice
        self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self.db.execute("CREATE TABLE IF NOT EXISTS seen (fp BLOB PRIMARY KEY) WITHOUT ROWID")
        self.pending = 0
        self.db.execute("BEGIN")
        self.logged = False

    @classmethod
    def from_crawler(cls, crawler):
        jobdir = job_dir(crawler.settings)
        if jobdir:
            return cls(Path(jobdir) / "requests.seen.sqlite", crawler.request_fingerprinter)
        temporary = Path(tempfile.mkdtemp(prefix="newscrawl-seen-"))
        return cls(temporary / "seen.sqlite", crawler.request_fingerprinter, temporary)

    def request_seen(self, request) -> bool:
        fingerprint = self.fingerprinter.fingerprint(request)
        added = self.db.execute("INSERT OR IGNORE INTO seen VALUES (?)", (fingerprint,)).rowcount
        if added:
            self.pending += 1
            if self.pending >= COMMIT_EVERY:
                self.db.execute("COMMIT")
                self.db.execute("BEGIN")
                self.pending = 0
        return not added

    def close(self, reason: str) -> None:
        if reason == FINISHED:
            self.db.execute("DELETE FROM seen")
        self.db.execute("COMMIT")
        self.db.close()
        if self.temporary_dir is not None:
            shutil.rmtree(self.temporary_dir, ignore_errors=True)

    def log(self, request, spider) -> None:
        if not self.logged:
            logger.debug("Filtered duplicate request: %s - no more duplicates will be shown", request)
            self.logged = True
        spider.crawler.stats.inc_value("dupefilter/filtered")
