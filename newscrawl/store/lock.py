"""A lock so two runs of the same crawl never overlap (cron or a timer starting the next run too early).

The lock is an exclusive ``flock`` on ``<STATE_PATH>.lock`` (or
``NEWSCRAWL_LOCK_PATH``). The kernel releases it when the holding process
ends, however it ends (SIGKILL included), so a crashed run never leaves a
stale lock behind. The file holds the pid and start time of the holder, for
the message the refused run prints.
"""
from __future__ import annotations

import fcntl
import os
from datetime import datetime, timezone
from pathlib import Path

from ..config.paths import resolve

# Exit status of a run refused because another run holds the lock (sysexits EX_TEMPFAIL: try later).
EXIT_LOCKED = 75

_held: dict[str, "CrawlLock"] = {}  # absolute lock path -> the lock this process holds


class CrawlLocked(RuntimeError):
    """Another process holds the crawl's lock."""


class CrawlLock:
    def __init__(self, path: Path, fd: int):
        self.path = path
        self.fd = fd

    def release(self) -> None:
        _held.pop(str(self.path), None)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            os.close(self.fd)


def lock_path_for(settings) -> Path | None:
    """The lock file of the crawl these settings describe; None when runs may overlap (Redis mode)."""
    explicit = settings.get("NEWSCRAWL_LOCK_PATH")
    if explicit:
        return resolve(settings, explicit)
    if not settings.getbool("NEWSCRAWL_STATE_ENABLED", True) or settings.get("REDIS_URL"):
        return None
    from .state import DEFAULT_STATE_PATH

    return resolve(settings, f"{settings.get('STATE_PATH') or DEFAULT_STATE_PATH}.lock")


def acquire(path: Path) -> CrawlLock:
    """Hold the lock at ``path`` (again, if this process already holds it); CrawlLocked if another does."""
    path = path.absolute()
    if str(path) in _held:
        return _held[str(path)]
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_holder(fd)
        os.close(fd)
        raise CrawlLocked(f"another run of this crawl is in progress ({holder}; lock {path}); "
                          "not starting a second one") from None
    os.ftruncate(fd, 0)
    stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    os.write(fd, f"pid {os.getpid()} since {stamp}\n".encode())
    lock = CrawlLock(path, fd)
    _held[str(path)] = lock
    return lock


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "holder unknown"
