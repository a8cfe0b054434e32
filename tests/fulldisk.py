"""Small, full and read-only disks for the tests: a tmpfs where ``mount`` is allowed, else a disk queue
whose writes fail as on a full disk (for the JOBDIR test).

``mount_tmpfs`` mounts a tmpfs of the given options (``size=4k``, ``ro``) on a directory.

``FullDiskFifoQueue`` is Scrapy's pickle FIFO disk queue; after the number of pushes in the
setting ``NEWSCRAWL_TEST_QUEUE_PUSHES`` (counted over all its instances in the process) every push
raises ENOSPC, as the queue's file write does when the disk is full.
"""
from __future__ import annotations

import errno
import itertools
import os
import subprocess
from pathlib import Path

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


def mount_tmpfs(folder: Path, options: str) -> str | None:
    """Mount a tmpfs with ``options`` on ``folder``; None when mounted, else why not (unmount with ``umount``)."""
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True)
    return None if done.returncode == 0 else done.stderr.decode(errors="replace").strip() or "mount failed"
