"""Incremental crawl state in SQLite: emitted articles, their fingerprints, cached listings, open outputs.

One file (``STATE_PATH``, default ``.newscrawl/state.sqlite``) remembers across
runs:

- ``articles``: every emitted article by canonical URL, with first-seen time,
  site, MinHash signature and the canonical URL of the first copy when it was
  a near-duplicate;
- ``urls``: 64-bit keys of the canonical and fetched URLs of those articles
  (what a run must not download again);
- ``bands``: LSH band keys of the signatures (near-duplicate candidates);
- ``listings``: validators (ETag, Last-Modified) and the last body of feeds,
  sitemaps and start pages, for conditional requests;
- ``outputs``: JSONL files being written and the byte offset up to which their
  lines are recorded here (lines after it are recovered at the next start);
- ``drops``: 64-bit keys of the URLs of pages judged not articles, with when and why
  (remembered drops: not fetched again for ``NEWSCRAWL_REMEMBER_DROPS_DAYS``).

Nothing of it is held in memory but a fixed-size bit filter of the URL,
band and drop keys (``keyfilter.KeyFilter``), which answers most look-ups of keys the
state does not hold; the others go to the file (SQLite's page cache is
bounded). The Redis backend (``redis_support.RedisState``) has the same
methods.
"""
from __future__ import annotations

import logging
import os
import sqlite3
import tempfile
import zlib
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable

from .article_writer import ROWS_PER_STATEMENT, ArticleRecord, ArticleWriter, Transaction, connect, url_key
from ..run.clock import utc_now
from ..crawl.fingerprint import FINGERPRINT_SCHEME, Fingerprint
from .keyfilter import DEFAULT_FILTER_MIB, KeyFilter
from ..config.paths import resolve
from .recorder import RecorderProcess

logger = logging.getLogger(__name__)

DEFAULT_STATE_PATH = ".newscrawl/state.sqlite"
SCHEMA_VERSION = "1"
# Page cache of the look-up connection (KiB; SQLite's default is 2,000). Look-ups hit random pages of
# the URL and band indexes; at 50,000 articles (a 50 MB file) a 16 MB cache made them ~30% cheaper
# (timed look-ups against such a state, 2026-11-22). Bounded: it does not grow with the state beyond this.
READ_CACHE_KIB = 16_000
# Bound of the listing bodies kept for conditional requests (compressed bytes, MiB): once passed, the
# entries stored longest ago are evicted (their next fetch is unconditional). Chosen so the state stays
# under 50 MB when sites serve huge listings: `python benchmarks/listing_cache.py` (three runs of 50
# sitemaps of 4 MB that compress to 3/4, new URLs each run) ends at 36.5 MB with it, 455 MB without.
DEFAULT_LISTING_CACHE_MIB = 32
# Days a page dropped as no article is not fetched again (NEWSCRAWL_REMEMBER_DROPS_DAYS): a week, so a
# page that became an article (a stub filled in, a redesign that fixed its markup) is seen again soon.
DEFAULT_REMEMBER_DROPS_DAYS = 7.0
# Bound of the remembered drops (rows; a redirected page takes two). A row costs ~50 bytes with its index
# (200,000 drops of 60-character URLs grew the file by 9.9 MB, 2026-11-27), so ~25 MB at the bound:
# 50 dropped pages per site at 10,000 sites. Past it, the drops made longest ago are forgotten first.
DEFAULT_MAX_REMEMBERED_DROPS = 500_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS articles (
    id INTEGER PRIMARY KEY,
    canonical_url TEXT NOT NULL UNIQUE,
    url TEXT NOT NULL,
    site TEXT,
    first_seen TEXT NOT NULL,
    signature BLOB,
    duplicate_of TEXT
);
CREATE INDEX IF NOT EXISTS articles_first_seen ON articles (first_seen);
CREATE TABLE IF NOT EXISTS urls (key INTEGER PRIMARY KEY, article_id INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS urls_article ON urls (article_id);
CREATE TABLE IF NOT EXISTS bands (key INTEGER NOT NULL, article_id INTEGER NOT NULL,
                                  PRIMARY KEY (key, article_id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS bands_article ON bands (article_id);
CREATE TABLE IF NOT EXISTS listings (url TEXT PRIMARY KEY, etag TEXT, last_modified TEXT,
                                     content_type TEXT, body BLOB NOT NULL, stored_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS listings_stored_at ON listings (stored_at);
CREATE TABLE IF NOT EXISTS outputs (path TEXT PRIMARY KEY, committed INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS drops (key INTEGER PRIMARY KEY, dropped_at INTEGER NOT NULL, reason TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS drops_dropped_at ON drops (dropped_at);
"""


SQLITE_MAGIC = b"SQLite format 3\0"  # the first 16 bytes of every SQLite database file
_HEADER_BYTES = 100  # SQLite's database header (sqlite.org/fileformat2.html, section 1.3)


class StateCorrupt(RuntimeError):
    """The state file is empty, truncated or not a SQLite database (the message says which and what to do)."""


def state_file_problem(path: str | Path) -> str | None:
    """One line saying why the file at ``path`` is not a usable state, or None (absent, or whole as far
    as its header tells: a 0-byte file, a file shorter than the page count in its header, or a file
    that is no SQLite database). SQLite itself takes a 0-byte file for an empty database, and fails on
    a truncated one only when a query reaches a missing page."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with path.open("rb") as handle:
            header = handle.read(_HEADER_BYTES)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _unusable(path, f"cannot be read ({exc.strerror or exc})")
    if size == 0:
        return _unusable(path, "is empty (0 bytes)")
    if len(header) < _HEADER_BYTES or not header.startswith(SQLITE_MAGIC):
        return _unusable(path, f"is not a SQLite database ({size} bytes)")
    expected = _header_page_size(header) * int.from_bytes(header[28:32], "big")
    # The page count is valid when the change counter (offset 24) equals "version-valid-for" (92).
    # After a crash mid-checkpoint the file may be short while its write-ahead log holds the rest.
    if header[24:28] == header[92:96] and size < expected and not _has_wal(path):
        return _unusable(path, f"is truncated ({size} of {expected} bytes)")
    return None


def _create_state_file(path: Path) -> None:
    """Make a new, empty state file at ``path`` whole or not at all.

    SQLite creates a database file empty and writes its first page at the first statement: a crawl
    killed in between (at start-up, seen in the crash tests on a loaded machine) left 0 bytes, which
    every later run refused as damaged (``state_file_problem``) until a person reset it. The file is
    made beside ``path`` under a temporary name, its first page written and synced, then linked to
    ``path`` (a link never replaces a file that another process made meanwhile). A killed creation
    leaves at most a small temporary file, never a state file.
    """
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.new-", dir=path.parent)
    os.close(handle)
    try:
        connect(Path(temporary)).close()  # the write-ahead log set: the header page written
        with open(temporary, "rb") as made:
            os.fsync(made.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            return
        directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    finally:
        os.unlink(temporary)


def is_corruption(error: sqlite3.DatabaseError) -> bool:
    """Whether SQLite found the file damaged or not a database (not locked, full or unreadable)."""
    return getattr(error, "sqlite_errorname", "") in ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def _header_page_size(header: bytes) -> int:
    value = int.from_bytes(header[16:18], "big")
    return 65536 if value == 1 else value


def _has_wal(path: Path) -> bool:
    wal = Path(f"{path}-wal")
    return wal.exists() and wal.stat().st_size > 0


def _unusable(path: Path, what: str) -> str:
    return (f"newscrawl: the state file {path} {what}; inspect it with `python -m newscrawl.store.state_admin check "
            f"--state {path}`, or start afresh with `python -m newscrawl.store.state_admin reset --state {path}` "
            f"(every article is emitted again)")


def state_problems(settings) -> list[str]:
    """The SQLite state these settings use, when it is unusable (one line); empty otherwise or with Redis."""
    if not settings.getbool("NEWSCRAWL_STATE_ENABLED", True) or settings.get("REDIS_URL"):
        return []
    problem = state_file_problem(resolve(settings, settings.get("STATE_PATH") or DEFAULT_STATE_PATH))
    return [problem] if problem else []


def report_dropped_signatures(state: str, count: int) -> None:
    """Warn that ``count`` fingerprints of another recipe were dropped from ``state`` (when any were)."""
    if count:
        logger.warning("%s: dropped the fingerprints of %d article(s) made by an older recipe (now %s); "
                       "near-duplicates of those articles are not detected", state, count, FINGERPRINT_SCHEME)


@dataclass(frozen=True, slots=True)
class RememberedDrop:
    """A page judged not an article, for a reason that is about the page (not fetched again for a while)."""

    urls: tuple[str, ...]  # canonical URLs: the one requested and the one fetched (after redirects)
    reason: str  # the drop reason (newscrawl/dropped/<reason>)
    dropped_at: int  # Unix time, seconds

    def keys(self) -> set[int]:
        return {url_key(url) for url in self.urls}


@dataclass(frozen=True)
class Pruned:
    """What ``prune`` forgot."""

    articles: int
    listings: int
    drops: int = 0


@dataclass(frozen=True)
class CachedListing:
    """The last 200 response of a feed, sitemap or start page, with its validators."""

    url: str
    etag: str | None
    last_modified: str | None
    content_type: str | None
    body: bytes


class SqliteState:
    """The state in one SQLite file (WAL journal: readers never block the writer)."""

    def __init__(self, path: str | Path, filter_mib: float = DEFAULT_FILTER_MIB, write_in_process: bool = False,
                 listing_cache_mib: float = DEFAULT_LISTING_CACHE_MIB):
        """``listing_cache_mib``: bound of the stored listing bodies (see DEFAULT_LISTING_CACHE_MIB).
        ``filter_mib``: size of the key filter (0: none, every look-up queries the file). The
        filter is read from the file here and kept up to date by ``add_articles``, so no other process
        may add articles to the file while this one has it open (the crawl lock sees to that).
        ``write_in_process``: ``add_articles`` writes through a child process (recorder.py) rather
        than a second connection of this process."""
        self.path = Path(path)
        problem = state_file_problem(self.path)
        if problem:
            raise StateCorrupt(problem)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if not self.path.exists():
            _create_state_file(self.path)
        self.write_in_process = write_in_process
        self.listing_cache_bytes = int(listing_cache_mib * 1024 * 1024)
        self.listing_bytes: int | None = None  # compressed bytes of the stored listings, summed on first use
        self.drop_rows: int | None = None  # rows of the drops table at most (counted when it may pass its bound)
        self.writer: ArticleWriter | RecorderProcess | None = None  # add_articles' writer, made on first use
        try:
            self.db = connect(self.path)
            self.db.execute(f"PRAGMA cache_size=-{READ_CACHE_KIB}")
            self.db.executescript(_SCHEMA)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
            self._drop_foreign_signatures()
            self.filter = self._load_filter(filter_mib) if filter_mib > 0 else None
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc):
                raise
            raise StateCorrupt(_unusable(self.path, f"is damaged ({exc})")) from exc  # what the header hides

    def _drop_foreign_signatures(self) -> None:
        """Forget signatures and band keys made by another fingerprint recipe (an older version).

        They could never match a new signature, so near-duplicates of those articles go undetected
        either way; their URLs stay, so they are still not fetched or emitted again. A file from before
        the recipe was recorded has no ``fingerprint`` row: its signatures count as foreign.
        """
        row = self.db.execute("SELECT value FROM meta WHERE name = 'fingerprint'").fetchone()
        if row is not None and row[0] == FINGERPRINT_SCHEME:
            return
        with self._transaction():
            stale = self.db.execute("UPDATE articles SET signature = NULL WHERE signature IS NOT NULL").rowcount
            self.db.execute("DELETE FROM bands")
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)", (FINGERPRINT_SCHEME,))
        report_dropped_signatures(str(self.path), stale)

    def _load_filter(self, mib: float) -> KeyFilter:
        """A filter holding every URL, band and drop key in the file (~1 s per 2 million keys)."""
        loaded = KeyFilter(mib)
        for table in ("urls", "bands", "drops"):
            loaded.add(key for (key,) in self.db.execute(f"SELECT key FROM {table}"))
        return loaded

    def _may_hold_any(self, keys) -> bool:
        return self.filter is None or self.filter.may_hold_any(keys)

    def describe(self) -> str:
        if self.filter is None:
            return str(self.path)
        return f"{self.path} (key filter: {self.filter.filled():.1%} of its bits set)"

    # --- articles ---------------------------------------------------------------------------------

    def is_known(self, *urls: str) -> bool:
        """Whether any of ``urls`` belongs to a recorded article (one query for all)."""
        keys = [url_key(url) for url in dict.fromkeys(urls)]
        if not self._may_hold_any(keys):
            return False
        marks = ",".join("?" * len(keys))
        return self.db.execute(f"SELECT 1 FROM urls WHERE key IN ({marks}) LIMIT 1", keys).fetchone() is not None

    def claim(self, record: ArticleRecord) -> bool:
        """Whether this process may emit the article (always, here: one process per SQLite state)."""
        return True

    def copy_claimed_first(self, record: ArticleRecord, threshold: float) -> str | None:
        """None: one process per SQLite state, so the look-up before the claim saw every earlier article."""
        return None

    def near_duplicate_of(self, fingerprint: Fingerprint, threshold: float) -> str | None:
        """The canonical URL of the earliest stored article similar to ``fingerprint``, if any."""
        if not self._may_hold_any(fingerprint.bands):
            return None
        marks = ",".join("?" * len(fingerprint.bands))
        # Most articles share no band with a stored one: the band index alone answers that (a join
        # with the articles cost ~30% more per look-up). Then ids and signatures of the candidates
        # (there can be hundreds); the URLs of the one found.
        ids = sorted({row[0] for row in self.db.execute(
            f"SELECT article_id FROM bands WHERE key IN ({marks})", fingerprint.bands)})
        if not ids:
            return None
        rows = self.db.execute(f"SELECT id, signature FROM articles WHERE id IN ({','.join('?' * len(ids))}) "
                               f"ORDER BY id", ids).fetchall()
        found = fingerprint.first_similar([signature for _, signature in rows], threshold)
        if found is None:
            return None
        canonical, first = self.db.execute("SELECT canonical_url, duplicate_of FROM articles WHERE id = ?",
                                           (rows[found][0],)).fetchone()
        return first or canonical

    def add_articles(self, records: Iterable[ArticleRecord], output: str | None = None,
                     committed: int | None = None) -> None:
        """Record emitted articles, and how far ``output`` is recorded, in one transaction.

        The crawl calls this from its output's sync thread while the event loop goes on reading
        through ``self.db`` (WAL: readers never wait for the writer), so the writes go through a
        connection of their own (:class:`ArticleWriter`), or a child process holding one
        (``write_in_process``). Calls must not overlap (the crawl runs one sync at a time).
        """
        records = list(records)
        if self.filter is not None:  # before the write commits: a committed key always has its bit set
            self.filter.add(key for record in records for key in record.all_keys())
        if self.writer is None:
            self.writer = RecorderProcess(self.path) if self.write_in_process else ArticleWriter(self.path)
        self.writer.write(records, output, committed)

    # --- remembered drops -------------------------------------------------------------------------

    def is_remembered_drop(self, url: str, since: int) -> bool:
        """Whether ``url`` was dropped as no article at or after ``since`` (Unix time)."""
        key = url_key(url)
        if not self._may_hold_any((key,)):
            return False
        found = self.db.execute("SELECT 1 FROM drops WHERE key = ? AND dropped_at >= ?", (key, since)).fetchone()
        return found is not None

    def add_drops(self, drops: Iterable[RememberedDrop], max_rows: int) -> int:
        """Remember ``drops`` (a URL dropped again gets its new time and reason), then forget the
        ones dropped longest ago while more than ``max_rows`` are kept; how many were forgotten."""
        rows = sorted({(key, drop.dropped_at, drop.reason) for drop in drops for key in drop.keys()})
        if self.filter is not None:  # before the write commits, as for articles
            self.filter.add(key for key, _, _ in rows)
        if self.drop_rows is not None:
            self.drop_rows += len(rows)
        try:
            with self._transaction():
                for start in range(0, len(rows), ROWS_PER_STATEMENT):
                    chunk = rows[start:start + ROWS_PER_STATEMENT]
                    self.db.execute(f"INSERT OR REPLACE INTO drops VALUES {','.join(['(?,?,?)'] * len(chunk))}",
                                    [value for row in chunk for value in row])
                return self._trim_drops(max_rows)
        except sqlite3.Error:
            self.drop_rows = None  # rolled back: count again from the file
            raise

    def _trim_drops(self, max_rows: int) -> int:
        """Forget the drops made longest ago while more than ``max_rows`` are kept; counted only when
        an upper estimate (the last count plus every row added since) passes the bound."""
        if self.drop_rows is not None and self.drop_rows <= max_rows:
            return 0
        self.drop_rows = self.db.execute("SELECT count(*) FROM drops").fetchone()[0]
        excess = self.drop_rows - max_rows
        if excess <= 0:
            return 0
        self.drop_rows = max_rows
        return self.db.execute("DELETE FROM drops WHERE key IN (SELECT key FROM drops ORDER BY dropped_at, key "
                               "LIMIT ?)", (excess,)).rowcount

    # --- outputs ----------------------------------------------------------------------------------

    def open_outputs(self) -> list[tuple[str, int]]:
        """Outputs left open by earlier runs: (path, recorded byte offset)."""
        return list(self.db.execute("SELECT path, committed FROM outputs"))

    def set_output(self, path: str, committed: int) -> None:
        self.db.execute("INSERT OR REPLACE INTO outputs VALUES (?, ?)", (path, committed))

    def forget_output(self, path: str) -> None:
        self.db.execute("DELETE FROM outputs WHERE path = ?", (path,))

    # --- listings ---------------------------------------------------------------------------------

    def listing(self, url: str) -> CachedListing | None:
        row = self.db.execute("SELECT etag, last_modified, content_type, body FROM listings WHERE url = ?",
                              (url,)).fetchone()
        if row is None:
            return None
        return CachedListing(url, row[0], row[1], row[2], zlib.decompress(row[3]))

    def save_listing(self, listing: CachedListing) -> bool:
        """Keep the listing (replacing the URL's last one), then evict the ones stored longest ago while
        the bodies pass the cache bound. False when the body alone is larger than the bound (not kept)."""
        body = zlib.compress(listing.body, 6)
        try:
            return self._replace_listing(listing, body)
        except sqlite3.Error:
            self.listing_bytes = None  # rolled back: count again from the file
            raise

    def _replace_listing(self, listing: CachedListing, body: bytes) -> bool:
        with self._transaction():
            total = self._listing_bytes()
            replaced = self.db.execute("SELECT length(body) FROM listings WHERE url = ?", (listing.url,)).fetchone()
            if replaced is not None:
                self.db.execute("DELETE FROM listings WHERE url = ?", (listing.url,))
                total -= replaced[0]
            if len(body) > self.listing_cache_bytes:
                self.listing_bytes = total
                return False
            self.db.execute("INSERT INTO listings VALUES (?, ?, ?, ?, ?, ?)",
                            (listing.url, listing.etag, listing.last_modified, listing.content_type, body, utc_now()))
            self.listing_bytes = total + len(body)
            self._evict_listings()
        return True

    def _listing_bytes(self) -> int:
        if self.listing_bytes is None:  # length() of a blob reads its size, not its pages
            self.listing_bytes = self.db.execute("SELECT coalesce(sum(length(body)), 0) FROM listings").fetchone()[0]
        return self.listing_bytes

    def _evict_listings(self) -> int:
        """Delete the listings stored longest ago until the rest fit the bound; how many went."""
        excess = self._listing_bytes() - self.listing_cache_bytes
        if excess <= 0:
            return 0
        victims = []
        for url, size in self.db.execute("SELECT url, length(body) FROM listings ORDER BY stored_at, rowid"):
            if excess <= 0:
                break
            victims.append(url)
            excess -= size
            self.listing_bytes -= size
        for start in range(0, len(victims), ROWS_PER_STATEMENT):
            chunk = victims[start:start + ROWS_PER_STATEMENT]
            self.db.execute(f"DELETE FROM listings WHERE url IN ({','.join('?' * len(chunk))})", chunk)
        return len(victims)

    # --- upkeep -----------------------------------------------------------------------------------

    def counts(self) -> dict[str, int]:
        tables = ("articles", "urls", "bands", "listings", "outputs", "drops")
        counts = {t: self.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
        counts["remembered_drops"] = counts.pop("drops")  # URL keys: a redirected page has two
        counts["near_duplicates"] = self.db.execute(
            "SELECT count(*) FROM articles WHERE duplicate_of IS NOT NULL").fetchone()[0]
        counts["listing_bytes"] = self._listing_bytes()
        return counts

    def prune(self, older_than_days: float, drops_since: int | None = None,
              max_drops: int | None = None) -> Pruned:
        """Forget articles first seen more than ``older_than_days`` ago (they may be emitted again) and
        listing bodies stored before then, trim the listings to the cache bound, forget the drops
        from before ``drops_since`` (Unix time) and beyond ``max_drops``, and compact the file."""
        cutoff = (datetime.now(timezone.utc) - timedelta(days=older_than_days)).replace(microsecond=0).isoformat()
        drops = 0
        with self._transaction():
            if drops_since is not None:
                drops += self.db.execute("DELETE FROM drops WHERE dropped_at < ?", (drops_since,)).rowcount
            self.drop_rows = None
            if max_drops is not None:
                drops += self._trim_drops(max_drops)
            old = "SELECT id FROM articles WHERE first_seen < ?"
            self.db.execute(f"DELETE FROM urls WHERE article_id IN ({old})", (cutoff,))
            self.db.execute(f"DELETE FROM bands WHERE article_id IN ({old})", (cutoff,))
            removed = self.db.execute("DELETE FROM articles WHERE first_seen < ?", (cutoff,)).rowcount
            listings = self.db.execute("DELETE FROM listings WHERE stored_at < ?", (cutoff,)).rowcount
            self.listing_bytes = None
            listings += self._evict_listings()
        self.db.execute("VACUUM")
        return Pruned(removed, listings, drops)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.db.close()

    def _transaction(self):
        return Transaction(self.db)


def integrity_problems(db: sqlite3.Connection) -> list[str]:
    """What SQLite's integrity check finds wrong in the whole file (reads every page); empty when whole."""
    try:
        rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        if not is_corruption(exc):
            raise
        return [str(exc)]
    return [] if rows == ["ok"] else rows
