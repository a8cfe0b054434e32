"""The embedded article store: one SQLite file, one row per article by canonical URL, full-text search.

On by default, beside the state (``articles.sqlite`` in the directory of ``STATE_PATH``), or at
``-s ARTICLES_DB=path``; ``-s NEWSCRAWL_ARTICLES_DB_ENABLED=0`` turns it off. Each batch is one
transaction, committed with ``synchronous=FULL`` (the write-ahead log is fsynced at commit), so a
batch the crawl counts as committed survives a crash of the machine too. ``python -m
newscrawl.store.search`` reads it.
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from ...run.clock import utc_now
from ...config.paths import resolve
from .base import ArticleRow, Committed, Sink, SinkError, last_of_each, state_directory
from .schema import SQLITE_MIGRATIONS, SchemaTooNew, pending_migrations
from .tokens import index_text

ARTICLES_DB_NAME = "articles.sqlite"  # the default store's file name, in the state's directory
LOCK_WAIT_SECONDS = 30  # how long opening or writing waits for another crawl's lock on the store

_COLUMNS = ("canonical_url", "url", "site", "title", "published", "text", "html", "lang", "authors",
            "discovered_via", "fetched_at", "score", "rendered", "duplicate_of", "content_hash")
_INSERT = (f"INSERT INTO articles ({', '.join(_COLUMNS)}, first_seen, last_seen) "
           f"VALUES ({', '.join('?' * len(_COLUMNS))}, ?, ?)")
_UPDATE = (f"UPDATE articles SET {', '.join(f'{name} = ?' for name in _COLUMNS)}, last_seen = ?, "
           f"updates = updates + 1 WHERE id = ?")


def articles_db_path(settings) -> Path:
    """``ARTICLES_DB``, else ``articles.sqlite`` beside the state file (both under NEWSCRAWL_HOME)."""
    explicit = settings.get("ARTICLES_DB")
    if explicit:
        return resolve(settings, explicit)
    return state_directory(settings) / ARTICLES_DB_NAME


def connect(path: Path, create: bool) -> sqlite3.Connection:
    """A connection to the store at ``path``, its schema created or migrated to the current version.

    ``create`` false: a missing file is an error (readers do not create stores). SinkError when the
    file is not a usable store.
    """
    if not create and not path.exists():
        raise SinkError(f"no article store at {path}")
    try:
        if create:
            path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                     timeout=LOCK_WAIT_SECONDS)
        _use_write_ahead_log(connection)
        connection.execute("PRAGMA synchronous = FULL")
        _migrate(connection, path)
    except (sqlite3.Error, OSError) as error:
        raise SinkError(f"the article store {path} cannot be opened: {error}") from error
    except SchemaTooNew as error:
        raise SinkError(str(error)) from error
    return connection


def _use_write_ahead_log(connection: sqlite3.Connection) -> None:
    """Switch a new store to the write-ahead log, waiting while another crawl switches it.

    Crawls opening a new store at once race to switch it, and SQLite answers the loser "database is
    locked" at once, without waiting out the busy timeout (three threads opening a new file at once:
    about one round in fifteen). The switch is tried again until ``LOCK_WAIT_SECONDS`` have passed.
    """
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    pause = 0.01
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Bring the store's schema to the current version.

    The version is read again inside the write transaction: two crawls opening a new store at once
    both saw version 0, and the second, once the first had committed, failed on "table articles
    already exists". A store that is current takes no write lock (a reader may open a read-only file).
    """
    where = f"the article store {path}"
    if not pending_migrations(_schema_version(connection), SQLITE_MIGRATIONS, where):
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        for version, statements in pending_migrations(_schema_version(connection), SQLITE_MIGRATIONS, where):
            for statement in statements:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {version:d}")
        connection.execute("COMMIT")
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def _schema_version(connection: sqlite3.Connection) -> int:
    return connection.execute("PRAGMA user_version").fetchone()[0]


class SqliteStore(Sink):
    """The article store as a sink (see the module docstring)."""

    name = "sqlite"

    def __init__(self, path: Path):
        self.path = path
        self.connection: sqlite3.Connection | None = None

    @classmethod
    def from_settings(cls, settings) -> SqliteStore:
        return cls(articles_db_path(settings))

    def describe(self) -> str:
        return f"the article store {self.path}"

    def open(self) -> None:
        if self.connection is None:
            self.connection = connect(self.path, create=True)

    def commit(self, rows: list[ArticleRow]) -> Committed:
        if self.connection is None:
            raise SinkError(f"{self.describe()} is not open")
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                committed = self._upsert(last_of_each(rows))
                self.connection.execute("COMMIT")
            except BaseException:
                self.connection.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            raise SinkError(f"{self.describe()}: {error}") from error
        return committed

    def _upsert(self, rows: list[ArticleRow]) -> Committed:
        written = updated = 0
        execute = self.connection.execute
        for row in rows:
            seen = row.fetched_at or utc_now()
            values = tuple(getattr(row, name) for name in _COLUMNS)
            stored = execute("SELECT id, content_hash, title, text, last_seen, first_seen FROM articles "
                             "WHERE canonical_url = ?", (row.canonical_url,)).fetchone()
            if stored is None:
                rowid = execute(_INSERT, (*values, seen, seen)).lastrowid
                self._index(rowid, row.title, row.text)
                written += 1
                continue
            rowid, stored_hash, title, text, last_seen, first_seen = stored
            if seen < first_seen:  # a line written before the stored one (a replay): it saw the article first
                execute("UPDATE articles SET first_seen = ? WHERE id = ?", (seen, rowid))
            if seen < last_seen:  # never overwrite newer text with an older line
                continue
            if stored_hash == row.content_hash:
                execute("UPDATE articles SET last_seen = ? WHERE id = ?", (seen, rowid))
                continue
            execute("INSERT INTO articles_fts (articles_fts, rowid, title, text) VALUES ('delete', ?, ?, ?)",
                    (rowid, index_text(title), index_text(text)))
            execute(_UPDATE, (*values, seen, rowid))
            self._index(rowid, row.title, row.text)
            updated += 1
        return Committed(written, updated)

    def _index(self, rowid: int, title: str | None, text: str) -> None:
        self.connection.execute("INSERT INTO articles_fts (rowid, title, text) VALUES (?, ?, ?)",
                                (rowid, index_text(title), index_text(text)))

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None
