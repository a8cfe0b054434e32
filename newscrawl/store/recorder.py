"""The state's writes in a child process, off the core of the crawl's event loop.

Recording a batch of articles in the SQLite state (``article_writer.ArticleWriter``:
rows for the articles, their URL keys and LSH band keys, inserted into
indexes at random keys) costs ~0.1 ms of CPU per article at 50,000 articles.
In the output's sync thread that CPU was the crawl process's own, the core
the event loop needs, and the thread held the GIL while it built its rows:
py-spy of a 300-site ``benchmarks/crawl_scale.py`` run (2026-11-23) put ~8%
of the crawl process's samples there. A :class:`RecorderProcess` runs the
same writes in a child process that holds the write connection, at a lower
priority (``RECORDER_NICENESS``); the sync thread sends it each batch and
waits for its answer, so the order of events is unchanged: output fsynced,
then the batch committed, then the articles count as recorded.

After a crash: the child asks the kernel to kill it when its parent dies
(``PR_SET_PDEATHSIG``; its parent is the forkserver, which exits as soon as
the crawl process is gone), and it exits when its pipe closes. A batch is
committed whole or not at all (one transaction), as in a thread; an
uncommitted one is recovered from the output at the next start.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import sys
from pathlib import Path

import numpy as np

from .article_writer import ArticleRecord, ArticleWriter
from ..crawl.fingerprint import Fingerprint, band_keys

logger = logging.getLogger(__name__)

_PR_SET_PDEATHSIG = 1  # prctl option (linux/prctl.h)
# Niceness added to the recorder: its batches are background work (the articles are known from memory
# until recorded), so when the cores are busy the event loop and the extraction workers go first.
RECORDER_NICENESS = 10
_JOIN_SECONDS = 10


class RecorderDied(RuntimeError):
    """The recorder process exited before answering (the batch may or may not be committed)."""


def _die_with_parent() -> None:
    """Have the kernel send SIGKILL to this process when its parent exits (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def recorder_main(path: str, connection) -> None:
    """The child's loop: write each batch it receives, answer None or the error, exit at EOF."""
    _die_with_parent()
    os.nice(RECORDER_NICENESS)
    writer = ArticleWriter(Path(path))
    try:
        while True:
            try:
                rows, output, committed = connection.recv()
            except EOFError:  # the crawl closed its end (or died)
                return
            try:
                writer.write(records_from_rows(rows), output, committed)
                answer = None
            except Exception as error:  # noqa: BLE001 - the caller decides what a failed batch means
                answer = RuntimeError(f"recording in {path} failed: {error!r}")
            connection.send(answer)
    finally:
        writer.close()


def rows_of(records: list[ArticleRecord]) -> list[tuple]:
    """Records as tuples of plain values to send to the recorder, without their band keys (the recorder
    makes them again from the signature): pickling 2,000 records took ~8.6 ms of the sending thread as
    dataclasses, ~2 ms as these tuples (holding the GIL the event loop's thread needs)."""
    return [(record.canonical_url, record.url, record.site, record.first_seen,
             record.fingerprint.signature if record.fingerprint is not None else None, record.duplicate_of)
            for record in records]


def records_from_rows(rows: list[tuple]) -> list[ArticleRecord]:
    """The records ``rows_of`` sent, band keys made again from each signature."""
    return [ArticleRecord(canonical, url, site, first_seen,
                          Fingerprint(signature, band_keys(np.frombuffer(signature, dtype=np.uint32)))
                          if signature is not None else None, duplicate_of)
            for canonical, url, site, first_seen, signature, duplicate_of in rows]


class RecorderProcess:
    """``write(records, output, committed)`` as ``ArticleWriter`` has it, run in a child process.

    Started on the first write; a child that died is replaced at the next write (the failed batch
    stays unrecorded and is sent again by the next sync).
    """

    def __init__(self, path: Path, start_method: str = "forkserver"):
        self.path = path
        self.context = multiprocessing.get_context(start_method)
        self.process = None
        self.connection = None

    def _start(self) -> None:
        mine, theirs = self.context.Pipe()
        self.process = self.context.Process(target=recorder_main, args=(str(self.path), theirs), daemon=True,
                                            name="newscrawl-recorder")
        self.process.start()
        theirs.close()
        self.connection = mine

    def write(self, records: list, output: str | None, committed: int | None) -> None:
        if self.process is None:
            self._start()
        try:
            self.connection.send((rows_of(records), output, committed))
            answer = self.connection.recv()
        except (EOFError, OSError) as error:
            code = self._stop()
            raise RecorderDied(f"the state recorder process exited (code {code}) while recording "
                               f"{len(records)} article(s) in {self.path}") from error
        if answer is not None:
            raise answer

    def _stop(self) -> int | None:
        """Close the pipe and wait for the child (it exits at EOF); its exit code."""
        process, self.process = self.process, None
        if self.connection is not None:
            self.connection.close()
            self.connection = None
        if process is None:
            return None
        process.join(_JOIN_SECONDS)
        if process.is_alive():
            logger.warning("the state recorder process %s did not exit; killing it", process.pid)
            process.kill()
            process.join(_JOIN_SECONDS)
        return process.exitcode

    def close(self) -> None:
        self._stop()
