"""Scrapy's scheduler, with pending requests kept on disk even without JOBDIR.

Scrapy keeps the requests waiting to be fetched in memory unless the crawl has a
JOBDIR. On a broad crawl that queue is the largest structure in the process:
listing pages are fetched first (they carry a higher priority), so within minutes
the queue holds every article link of thousands of sites. With
``NEWSCRAWL_SPILL_QUEUE`` (on by default) a crawl without JOBDIR gets Scrapy's
own disk queue in a temporary directory, removed when the crawl closes: memory
stays flat however large the frontier grows. With JOBDIR nothing changes (the
queue is in the job directory, to resume from).
"""
from __future__ import annotations

import logging
import shutil
import tempfile

from scrapy.core.scheduler import Scheduler
from scrapy.utils.job import job_dir
from scrapy.utils.misc import build_from_crawler, load_object

logger = logging.getLogger(__name__)


class SpillingScheduler(Scheduler):
    spill_dir: str | None = None

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if job_dir(settings) or not settings.getbool("NEWSCRAWL_SPILL_QUEUE", True):
            return super().from_crawler(crawler)
        spill_dir = tempfile.mkdtemp(prefix="newscrawl-queue-")
        scheduler = cls(
            dupefilter=build_from_crawler(load_object(settings["DUPEFILTER_CLASS"]), crawler),
            jobdir=spill_dir,  # the scheduler reads it only to place its disk queue
            dqclass=load_object(settings["SCHEDULER_DISK_QUEUE"]),
            mqclass=load_object(settings["SCHEDULER_MEMORY_QUEUE"]),
            logunser=settings.getbool("SCHEDULER_DEBUG"),
            stats=crawler.stats,
            pqclass=load_object(settings["SCHEDULER_PRIORITY_QUEUE"]),
            crawler=crawler,
        )
        scheduler.spill_dir = spill_dir
        logger.info("Pending requests are queued on disk in %s (removed at the end)", spill_dir)
        return scheduler

    def close(self, reason):
        try:
            return super().close(reason)
        finally:
            if self.spill_dir:
                shutil.rmtree(self.spill_dir, ignore_errors=True)
