"""A disk queue whose writes fail as on a full disk, for the JOBDIR tests where no tmpfs can be mounted.

``FullDiskFifoQueue`` is Scrapy's pickle FIFO disk queue; after the number of pushes in the
setting ``NEWSCRAWL_TEST_QUEUE_PUSHES`` (counted over all its instances in the process) every push
raises ENOSPC, as the queue's file write does when the disk is full.
"""
from __future__ import annotations

import errno
import itertools
import os

from scrapy.squeues import PickleFifoDiskQueue

_pushes = itertools.count(1)


class FullDiskFifoQueue(PickleFifoDiskQueue):
    def __init__(self, crawler, key: str):
        super().__init__(crawler, key)
        self.allowed = crawler.settings.getint("NEWSCRAWL_TEST_QUEUE_PUSHES", 40)

    def push(self, obj) -> None:
        if next(_pushes) > self.allowed:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        super().push(obj)
