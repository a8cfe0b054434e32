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

logger = logging.getLogger(__name__)


class SpillingScheduler(Scheduler):
    spill_dir: str | None = None

    def __init__(self, dupefilter, jobdir: str | None = None, *args, crawler=None, **kwargs):
        spill_dir = None
        if not jobdir and crawler is not None and crawler.settings.getbool("NEWSCRAWL_SPILL_QUEUE", True):
            spill_dir = jobdir = tempfile.mkdtemp(prefix="newscrawl-queue-")  # read only to place the disk queue
        super().__init__(dupefilter, jobdir, *args, crawler=crawler, **kwargs)
        if spill_dir:
            self.spill_dir = spill_dir
            logger.info("Pending requests are queued on disk in %s (removed at the end)", spill_dir)

    def close(self, reason):
        try:
            return super().close(reason)
        finally:
            if self.spill_dir:
                shutil.rmtree(self.spill_dir, ignore_errors=True)
