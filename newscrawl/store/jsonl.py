"""Durable JSONL output: whole lines only, synced to disk before the state records them.

``DurableFeedExporter`` replaces Scrapy's FeedExporter. The first local
JSON Lines feed (``-O``/``-o file.jsonl`` or the spider's default output) is
written by a :class:`JsonlWriter`: complete lines, gathered in memory and written
with one ``os.write`` per ``FLUSH_BYTES`` on a file opened in append mode, and every
``NEWSCRAWL_JSONL_SYNC_SECONDS`` (or ``NEWSCRAWL_JSONL_SYNC_ITEMS`` lines) written out
and fsynced (the fsync in a thread, while the crawl goes on writing). After an fsync, and at most every
``NEWSCRAWL_STATE_RECORD_SECONDS`` (or ``NEWSCRAWL_STATE_RECORD_ITEMS`` articles),
the incremental state records the articles written before that fsync started,
with the byte offset they end at.
The article sinks (``newscrawl.store.sinks``: the SQLite store, PostgreSQL) get every line written, and
commit them after that fsync and before the state records them.
Other feeds go through Scrapy's exporter unchanged.

Why not Scrapy's public feed extension points: a feed storage (``FEED_STORAGES``) gets a file that an
item exporter writes bytes into and is told only when the feed ends, and an exporter sees one item
at a time with no moment at which its bytes are on disk. The state must record an article only after
its line is fsynced, with the offset it ends at, and the sinks commit after that same fsync; that
needs the items and their lines together at each sync. So this writer takes its feed out of
FeedExporter's ``feeds`` and ``filters`` tables and overrides its signal handlers and ``_close_slot``;
``tests/test_feed_exporter_contract.py`` names each of these and fails on a Scrapy that changes one.

After a crash, ``output_repair.repair_output`` makes an output whole again (the ledger
calls it when it recovers, and the writer before it appends to a file).
"""
from __future__ import annotations

import dataclasses
import io
import logging
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from scrapy.exporters import JsonLinesItemExporter
from scrapy.extensions.feedexport import FeedExporter
from scrapy.utils.serialize import ScrapyJSONEncoder
from w3lib.url import file_uri_to_path
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import task, threads
from twisted.internet.defer import Deferred

from .incremental import ledger_for
from .output_repair import repair_output
from .sinks.base import SinkError
from .sinks.fanout import close_sinks, sinks_for
from .sinks.journal import is_journal
from ..run.stops import OUTPUT_ERROR, stop_crawl

logger = logging.getLogger(__name__)

JSONL_FORMATS = ("jsonlines", "jsonl")
class JsonlWriter:
    """Append complete lines to a file, gathered into large writes; ``sync`` makes them durable.

    Lines wait in memory until ``FLUSH_BYTES`` have gathered, a line comes ``FLUSH_SECONDS`` after
    the last write-out, or ``flush``/``sync`` is called:
    one ``os.write`` of a 16 KB line was ~0.05 ms of the crawl process per article (py-spy of
    ``benchmarks/crawl_speed.py``, 2026-11-22). A crash loses the lines still in memory, as it
    loses lines not yet fsynced: neither was recorded in the state, so the next run emits them.
    """

    FLUSH_BYTES = 1 << 18  # bytes gathered before they are written out (256 KiB)
    FLUSH_SECONDS = 0.25  # at most this long between write-outs while lines come (a second's sync is rarer)

    def __init__(self, path: Path, overwrite: bool):
        self.path = path
        self.overwrite = overwrite
        self.fd: int | None = None
        self.offset = 0  # where the file ends once the gathered lines are written out
        self.unsynced = 0
        self.gathered = bytearray()
        self.flush_due = 0.0  # time.monotonic() after which the next line writes out what gathered

    def open(self) -> int:
        """Open (repairing a torn tail first, or truncating for overwrite); the offset writing starts at."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.overwrite and self._torn():
            repair_output(self.path, 0)
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if self.overwrite else 0)
        self.fd = os.open(self.path, flags, 0o644)
        self.offset = os.fstat(self.fd).st_size
        return self.offset

    def _torn(self) -> bool:
        try:
            with self.path.open("rb") as handle:
                handle.seek(0, os.SEEK_END)
                if handle.tell() == 0:
                    return False
                handle.seek(-1, os.SEEK_END)
                return handle.read(1) != b"\n"
        except FileNotFoundError:
            return False

    def write(self, line: bytes) -> int:
        """Add one line (ending in b"\\n"); the offset after it. May write out (OSError)."""
        self.gathered += line
        self.offset += len(line)
        self.unsynced += 1
        if len(self.gathered) >= self.FLUSH_BYTES or time.monotonic() >= self.flush_due:
            self.flush()
        return self.offset

    def flush(self) -> None:
        """Write the gathered lines to the file (not yet durable: see ``sync``)."""
        view = memoryview(self.gathered)
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        finally:
            view.release()
        self.gathered.clear()
        self.flush_due = time.monotonic() + self.FLUSH_SECONDS

    def sync(self) -> None:
        if self.fd is not None and self.unsynced:
            self.flush()
            os.fsync(self.fd)
            self.unsynced = 0

    def close(self) -> None:
        if self.fd is not None:
            self.sync()
            os.close(self.fd)
            self.fd = None


def local_path(uri: str) -> Path | None:
    """The file path of a local feed URI (plain path or file://), else None."""
    if "%(" in uri:
        return None
    if uri.startswith("file:"):
        return Path(file_uri_to_path(uri))
    scheme = urlsplit(uri).scheme
    if uri == "-" or (scheme and len(scheme) > 1):
        return None
    return Path(uri)


class LineEncoder:
    """Items as JSON lines, the bytes Scrapy's ``JsonLinesItemExporter`` writes for a feed's options.

    A dataclass item under plain options (UTF-8, no ``fields``) is encoded directly:
    its fields in declaration order through Scrapy's JSON encoder, the exporter's own output at about
    half its CPU (measured 2026-11-22: 42 against 75 us for a 15 KB article; the exporter's per-field
    adapter and serializer calls were ~1.3% of the crawl process). Anything else goes through the
    exporter, made once, into a reused buffer.
    """

    def __init__(self, options: dict):
        self.options = options
        encoding = options.get("encoding") or "utf-8"
        # (JSON lines ignore ``indent``: one object per line whatever it says)
        self.direct = encoding.lower().replace("_", "-") in ("utf-8", "utf8") and not options.get("fields")
        self.encoder = ScrapyJSONEncoder(ensure_ascii=False)
        self.field_names: dict[type, tuple[str, ...]] = {}  # dataclass -> its field names
        self.exporter: JsonLinesItemExporter | None = None
        self.buffer = io.BytesIO()

    def line(self, item) -> bytes:
        names = self._field_names(type(item)) if self.direct else None
        if names is not None:
            return (self.encoder.encode({name: getattr(item, name) for name in names}) + "\n").encode("utf-8")
        return self._exported(item)

    def _field_names(self, kind: type) -> tuple[str, ...] | None:
        if kind not in self.field_names:
            self.field_names[kind] = (tuple(f.name for f in dataclasses.fields(kind))
                                      if dataclasses.is_dataclass(kind) else None)
        return self.field_names[kind]

    def _exported(self, item) -> bytes:
        if self.exporter is None:
            self.exporter = JsonLinesItemExporter(self.buffer, encoding=self.options.get("encoding") or "utf-8",
                                                  fields_to_export=self.options.get("fields"),
                                                  indent=self.options.get("indent"))
        self.buffer.seek(0)
        self.buffer.truncate()
        self.exporter.export_item(item)
        line = self.buffer.getvalue()
        return line if line.endswith(b"\n") else line + b"\n"


class DurableFeedExporter(FeedExporter):
    """Scrapy's FeedExporter, with the first local JSONL feed written durably (see module docstring)."""

    def __init__(self, crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.sync_seconds = settings.getfloat("NEWSCRAWL_JSONL_SYNC_SECONDS", 1.0)
        self.sync_items = settings.getint("NEWSCRAWL_JSONL_SYNC_ITEMS", 200)
        self.record_seconds = settings.getfloat("NEWSCRAWL_STATE_RECORD_SECONDS", 10.0)
        self.record_items = settings.getint("NEWSCRAWL_STATE_RECORD_ITEMS", 2000)
        self.recorded_at = time.monotonic()
        self.writer: JsonlWriter | None = None
        self.uri: str | None = None
        self.ledger = None
        self.sinks = None  # the article sinks (newscrawl.store.sinks.fanout.SinkSet), fed what this writer writes
        self.sync_task: task.LoopingCall | None = None
        self.syncing: Deferred | None = None  # the fsync running in a thread, if any
        self.line_encoder: LineEncoder | None = None
        self.failed = False  # the output took no more lines: the crawl is stopping
        if settings.getbool("NEWSCRAWL_DURABLE_JSONL", True):
            self._take_durable_feed()

    def _take_durable_feed(self) -> None:
        for uri, options in self.feeds.items():
            path = local_path(uri)
            if path and options.get("format") in JSONL_FORMATS and not options.get("batch_item_count"):
                self.uri, self.options = uri, options
                self.writer = JsonlWriter(path, bool(options.get("overwrite")))
                self.item_filter = self.filters.pop(uri)
                del self.feeds[uri]
                return

    def open_spider(self, spider) -> None:
        super().open_spider(spider)
        if self.writer is None:
            return
        self.ledger = ledger_for(self.crawler)
        if self.ledger is not None:
            self.ledger.durable_output = True  # the state records what this writer synced, and nothing else
        try:
            self.sinks = sinks_for(self.crawler)
        except SinkError as error:  # checked before the start (commands/crawl.py); a server can go down since
            self._stop_output(str(error))
            return
        try:
            start = self.writer.open()
        except OSError as exc:  # checked before the start (output_check.py); the disk can change since
            self._fail(exc)
            return
        if self.ledger is not None:
            self.ledger.attach_output(str(self.writer.path.absolute()), start)
        self.sync_task = task.LoopingCall(self.sync)
        self.sync_task.start(self.sync_seconds, now=False)
        logger.info("Writing items to %s (durable JSONL, synced every %.1f s)", self.writer.path, self.sync_seconds)

    def _line(self, item) -> bytes:
        """The item as one JSON line (see :class:`LineEncoder`)."""
        if self.line_encoder is None:
            self.line_encoder = LineEncoder(self.options)
        return self.line_encoder.line(item)

    def item_scraped(self, item, spider) -> None:
        try:
            super().item_scraped(item, spider)  # the other feeds, through Scrapy's exporters
        except OSError as exc:
            stop_crawl(self.crawler, OUTPUT_ERROR, f"cannot write the feed {self._scrapy_feeds()}: "
                       f"{exc.strerror or exc}")
        if self.writer is None or self.writer.fd is None or not self.item_filter.accepts(item):
            return
        try:
            self.writer.write(self._line(item))
        except OSError as exc:
            self._fail(exc)
            return
        self.crawler.stats.inc_value("newscrawl/jsonl/lines")
        if self.sinks is not None:
            self.sinks.add(item)
        if self.ledger is not None:
            self.ledger.written(item)
        if self.writer.unsynced >= self.sync_items:
            self.sync()

    def sync(self) -> None:
        """Start syncing the output in a thread (unless a sync is running); see :meth:`_synced`.

        The crawl goes on writing meanwhile: an fsync waits for the disk (tens to hundreds of ms on a
        busy one), and on the event loop's thread that wait stopped every download and extraction.
        """
        if self.writer is None or self.writer.fd is None or self.syncing is not None:
            return
        if not self.writer.unsynced and (self.ledger is None or not self.ledger.unrecorded):
            return  # nothing written since the last sync and nothing waiting to be recorded
        try:
            self.writer.flush()  # every line the records below name is in the file before the fsync
        except OSError as exc:
            self._fail(exc)
            return
        records = self._records_due()
        offset, started = self.writer.offset, time.perf_counter()
        self.writer.unsynced = 0
        batch = self.sinks.take() if self.sinks is not None else []
        self.syncing = threads.deferToThread(self._sync_and_record, self.writer.fd, records,
                                             str(self.writer.path.absolute()), offset, batch)
        self.syncing.addCallbacks(lambda _: self._synced(records, started), self._sync_failed)
        self.syncing.addBoth(self._sync_ended)

    def _records_due(self) -> list:
        """The written, unrecorded articles when it is time to record them, else none (they wait).

        The state records in batches of NEWSCRAWL_STATE_RECORD_ITEMS (2000) or every
        NEWSCRAWL_STATE_RECORD_SECONDS (10 s), not at every fsync: each batch dirties index pages at
        random keys, about one page per key up to the whole index, so 200 articles a batch cost
        ~200 us of CPU per article at 50,000 articles and 2,000 a batch ~85 (benchmarks, 2026-11-22).
        Until recorded, the articles are known from memory (``Ledger.inflight``) and, after a crash,
        recovered from the output.
        """
        if self.ledger is None or not self.ledger.unrecorded:
            return []
        if (len(self.ledger.unrecorded) < self.record_items
                and time.monotonic() - self.recorded_at < self.record_seconds):
            return []
        self.recorded_at = time.monotonic()
        return list(self.ledger.unrecorded)

    def _sync_and_record(self, fd: int, records: list, path: str, offset: int, batch: list) -> None:
        """In a thread: fsync the output, commit ``batch`` (the articles written since the last sync)
        to the sinks, and only then record in the state the articles written before the fsync started,
        with the offset they end at (never the other way round: the state never holds an article the
        output or a sink might lose). The state's writes (random keys in growing indexes) were ~7% of
        the event loop's time late in a 50,000-article crawl."""
        os.fsync(fd)
        if batch:
            self.sinks.commit(batch)
        if self.ledger is not None and records:
            self.ledger.backend.add_articles(records, path, offset)

    def _synced(self, records: list, started: float) -> None:
        if self.ledger is not None:
            self.ledger.recorded(records)
        self.crawler.stats.inc_value("newscrawl/jsonl/sync_ms", round((time.perf_counter() - started) * 1000))

    def _sync_failed(self, failure) -> None:
        if failure.check(OSError):
            self._fail(failure.value)
        elif failure.check(SinkError):
            self._stop_output(str(failure.value))
        else:  # the state refused the records: they stay unrecorded, and the next sync tries again
            logger.error("recording the articles of %s in the state failed: %s", self.writer.path,
                         failure.getErrorMessage())

    def _sync_ended(self, _) -> None:
        self.syncing = None

    def sync_now(self) -> None:
        """fsync in this thread and record everything written (at the end of the crawl)."""
        if self.writer is None or self.writer.fd is None:
            return
        try:
            self.writer.sync()
        except OSError as exc:
            self._fail(exc)
            return
        if self.sinks is not None:
            try:
                self.sinks.commit(self.sinks.take())
            except SinkError as error:
                self._stop_output(str(error))
                return
        if self.ledger is not None:
            self.ledger.commit(str(self.writer.path.absolute()), self.writer.offset)

    def _fail(self, exc: OSError) -> None:
        """The output takes no more lines (disk full, read-only, I/O error): stop the crawl.

        Nothing written since the last successful fsync is recorded in the state; the output stays
        attached to it, so the next run recovers whatever complete lines did reach the disk.
        """
        message = f"cannot write the output {self.writer.path}: {exc.strerror or exc}"
        if not self.failed:
            self.crawler.stats.set_value("newscrawl/jsonl/write_error", message)
        self._stop_output(message)

    def _stop_output(self, message: str) -> None:
        """Take no more lines and record nothing more (the output or a sink failed); stop the crawl."""
        if self.failed:
            return
        self.failed = True
        if self.ledger is not None:
            self.ledger.unrecorded = []
        if self.writer.fd is not None:
            try:
                os.close(self.writer.fd)
            except OSError:
                pass
            self.writer.fd = None
        stop_crawl(self.crawler, OUTPUT_ERROR, message)

    async def _close_slot(self, slot, spider) -> None:
        """Scrapy's, with a failure to finish a feed's file (it writes the last bytes) stopping the crawl."""
        try:
            await super()._close_slot(slot, spider)
        except OSError as exc:
            stop_crawl(self.crawler, OUTPUT_ERROR, f"cannot write the feed {slot.uri}: {exc.strerror or exc}",
                       close=False)

    async def close_spider(self, spider) -> None:
        await super().close_spider(spider)
        stats = self.crawler.stats.get_stats()
        if any(key.startswith("feedexport/failed_count/") for key in stats):  # logged by Scrapy with its error
            stop_crawl(self.crawler, OUTPUT_ERROR, f"cannot store the feed {self._scrapy_feeds()} (the log says why)",
                       close=False)
        if self.sync_task is not None and self.sync_task.running:
            self.sync_task.stop()
        if self.syncing is not None:
            await maybe_deferred_to_future(self.syncing)
        if self.writer is None or self.writer.fd is None:
            close_sinks(self.crawler)
            return
        self.sync_now()
        close_sinks(self.crawler)
        if self.writer.fd is None:  # the last lines could not be written: the output stays attached
            return
        self.writer.close()
        if self.ledger is not None:
            self.ledger.detach_output(str(self.writer.path.absolute()))
        if is_journal(self.crawler.settings, self.writer.path):  # every line is in every sink, and recorded
            self.writer.path.unlink(missing_ok=True)
            return
        logger.info("Stored jsonl feed (%d lines) in: %s", self.crawler.stats.get_value("newscrawl/jsonl/lines", 0),
                    self.writer.path)

    def _scrapy_feeds(self) -> str:
        """The feeds Scrapy's exporters write, for a message."""
        return " or ".join(str(slot.uri) for slot in self.slots) or "(none)"
