"""The crawl's article sinks together: which are configured, fed in writing order, committed together.

``jsonl.DurableFeedExporter`` adds each article it writes to the JSONL output (:meth:`SinkSet.add`)
and, at each sync, once the output is fsynced, commits the articles written before that sync
started to every sink (:meth:`SinkSet.commit`) before the state records any of them: an article
is recorded as emitted only when the output and every sink hold it. A sink that fails stops the
crawl (exit 74) with nothing of the failed batch recorded; the lines stay in the output after its
recorded offset, and the next start gives them to every sink again (``Ledger.recover``), where the
upsert by canonical URL makes the replay harmless.

Each sink counts ``newscrawl/sink/<name>/written`` (new rows), ``.../updated`` (title or text
changed) and ``.../failed`` (articles of a batch it could not commit).
"""
from __future__ import annotations

import logging
from weakref import WeakKeyDictionary

from .base import Sink, SinkError, row_of

logger = logging.getLogger(__name__)

STATS_PREFIX = "newscrawl/sink/"
_sink_sets: WeakKeyDictionary = WeakKeyDictionary()  # crawler -> SinkSet


def configured_sinks(settings) -> list[Sink]:
    """The sinks these settings ask for, not opened: the SQLite store unless turned off, PostgreSQL
    with POSTGRES_URL."""
    sinks: list[Sink] = []
    if settings.getbool("NEWSCRAWL_ARTICLES_DB_ENABLED", True):
        from .sqlite_store import SqliteStore

        sinks.append(SqliteStore.from_settings(settings))
    if settings.get("POSTGRES_URL"):
        from .postgres import PostgresSink

        sinks.append(PostgresSink.from_settings(settings))
    return sinks


def sink_problems(settings) -> list[str]:
    """One line for each configured sink that cannot be opened now (checked before the crawl starts)."""
    from .journal import only_sinks

    problems = []
    if only_sinks(settings) and not configured_sinks(settings):
        problems.append("newscrawl: NEWSCRAWL_ONLY_SINKS is set but no article sink is (the SQLite store is off "
                        "and POSTGRES_URL unset): the articles would go nowhere; not starting")
    for sink in configured_sinks(settings):
        try:
            sink.open()
        except SinkError as error:
            problems.append(f"newscrawl: article sink {sink.name}: {error}; not starting")
        finally:
            sink.close()
    return problems


class SinkSet:
    """The configured sinks, the articles added since the last :meth:`take`, and their counts."""

    def __init__(self, sinks: list[Sink], stats):
        self.sinks = sinks
        self.stats = stats
        self.pending: list = []
        self.opened = False

    def open(self) -> None:
        for sink in self.sinks:
            sink.open()
            for what in ("written", "updated", "failed"):  # each sink in the report, with or without articles
                self.stats.inc_value(f"{STATS_PREFIX}{sink.name}/{what}", 0)
            logger.info("Writing articles to %s", sink.describe())
        self.opened = True

    def add(self, item) -> None:
        """An article just written to the output (committed at the next sync)."""
        self.pending.append(item)

    def take(self) -> list:
        """The articles added since the last take, in writing order (the next commit's batch)."""
        batch, self.pending = self.pending, []
        return batch

    def commit(self, items: list) -> None:
        """Commit ``items`` (ArticleItems or JSONL lines as dicts) to every sink, in order; SinkError
        naming the first sink that failed (the sinks before it committed: their upsert makes the
        replay at the next start harmless)."""
        if not items:
            return
        try:
            rows = [row_of(item) for item in items]
        except Exception as error:  # noqa: BLE001 - a line no sink can store stops the crawl, named
            raise SinkError(f"article sinks: an article cannot be stored: {error!r}") from error
        for sink in self.sinks:
            try:
                committed = sink.commit(rows)
            except Exception as error:  # noqa: BLE001 - whatever failed, this batch is not in this sink
                if not isinstance(error, SinkError):
                    logger.exception("article sink %s failed on a batch", sink.name)
                self.stats.inc_value(f"{STATS_PREFIX}{sink.name}/failed", len(rows))
                raise SinkError(f"article sink {sink.name}: {error}") from error
            self.stats.inc_value(f"{STATS_PREFIX}{sink.name}/written", committed.written)
            self.stats.inc_value(f"{STATS_PREFIX}{sink.name}/updated", committed.updated)

    def close(self) -> None:
        for sink in self.sinks:
            sink.close()


def sinks_for(crawler) -> SinkSet | None:
    """The crawl's sinks, opened on first use; None when none is configured."""
    if crawler not in _sink_sets:
        sinks = configured_sinks(crawler.settings)
        sink_set = SinkSet(sinks, crawler.stats) if sinks else None
        if sink_set is not None:
            sink_set.open()
        _sink_sets[crawler] = sink_set
    return _sink_sets[crawler]


def close_sinks(crawler) -> None:
    sink_set = _sink_sets.pop(crawler, None)
    if sink_set is not None:
        sink_set.close()


def sink_counts(stats: dict) -> dict[str, dict[str, int]]:
    """Sink name -> {"written", "updated", "failed"} from a crawl's stats (for the end-of-run report)."""
    counts: dict[str, dict[str, int]] = {}
    for key, value in stats.items():
        if key.startswith(STATS_PREFIX):
            name, _, what = key[len(STATS_PREFIX):].partition("/")
            counts.setdefault(name, {"written": 0, "updated": 0, "failed": 0})[what] = value
    return counts
