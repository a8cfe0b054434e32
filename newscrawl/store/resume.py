"""Resume with ``JOBDIR`` only from a clean stop; after a crash, start discovery afresh.

Scrapy writes the size of its on-disk request queues and the list of active
queues (``requests.queue/active.json``) only when the crawl closes, so after a
SIGKILL the job directory's queue is stale or empty while its duplicate
filter remembers URLs that were never fetched: a plain resume would lose
those articles. A marker file ``newscrawl.running`` is created when a crawl
with a JOBDIR starts and removed when it closes; if a new run finds it (and
holds the crawl lock, so the other run is gone), it deletes the job
directory's queue, duplicate filter and spider state before Scrapy opens
them. The run then fetches feeds, sitemaps and start pages again and, thanks
to the incremental state, only articles not yet emitted. A run stopped because
its queue could not be written (disk full: ``newscrawl.schedule.scheduler``) leaves the
marker too: its queue was not saved.
"""
from __future__ import annotations

import logging
import shutil
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.job import job_dir

from ..run.stops import QUEUE_ERROR, stopped

logger = logging.getLogger(__name__)

MARKER = "newscrawl.running"
JOB_FILES = ("requests.queue", "requests.seen", "requests.seen.sqlite", "requests.seen.sqlite-wal",
             "requests.seen.sqlite-shm", "spider.state")


def discard_unclean_job(jobdir: Path) -> bool:
    """Delete the queue, dupefilter and spider state left by a crashed run; True when there was one."""
    if not (jobdir / MARKER).exists():
        return False
    for name in JOB_FILES:
        path = jobdir / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    return True


class JobDirGuardExtension:
    def __init__(self, crawler, jobdir: Path):
        self.crawler = crawler
        self.jobdir = jobdir

    @classmethod
    def from_crawler(cls, crawler):
        directory = job_dir(crawler.settings)
        if not directory:
            raise NotConfigured
        from .incremental import ledger_for

        ledger_for(crawler)  # takes the crawl lock first, so a live run's job directory is never touched
        ext = cls(crawler, Path(directory))
        if discard_unclean_job(ext.jobdir):
            crawler.stats.set_value("newscrawl/resume/discarded_unclean_job", 1)
            logger.warning("JOBDIR %s was left by a crashed run: its queue cannot be trusted, discarded it; "
                           "discovery starts again and only articles not yet emitted are written", ext.jobdir)
        (ext.jobdir / MARKER).write_text("a crawl using this job directory is running or crashed\n")
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_closed(self, reason: str) -> None:
        stop = stopped(self.crawler)
        if stop is not None and stop.reason == QUEUE_ERROR:
            logger.warning("JOBDIR %s: the request queue could not be written, so it was not saved; the next run "
                           "discards it and discovers again", self.jobdir)
            return  # the marker stays: the job counts as unclean
        (self.jobdir / MARKER).unlink(missing_ok=True)
