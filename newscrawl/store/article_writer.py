"""What the state keeps of an emitted article, and the SQLite write of a batch of them.

Shared by the state (state.SqliteState, which writes through an ArticleWriter in a thread or hands
the batches to the recorder process) and by that process (recorder.py), which runs the same write
on a connection of its own.
"""
from __future__ import annotations

import hashlib
import sqlite3
import struct
from dataclasses import dataclass
from pathlib import Path

from ..crawl.fingerprint import Fingerprint

_KEY = struct.Struct(">q")


def url_key(url: str) -> int:
    """A signed 64-bit key of a (canonical) URL; collisions are negligible below billions of URLs."""
    return _KEY.unpack(hashlib.blake2b(url.encode("utf-8"), digest_size=8).digest())[0]


@dataclass(frozen=True, slots=True)  # slots: no per-instance dict (thousands are pending at once)
class ArticleRecord:
    """What the state keeps of one emitted article."""

    canonical_url: str
    url: str
    site: str | None
    first_seen: str  # ISO 8601 UTC
    fingerprint: Fingerprint | None
    duplicate_of: str | None = None

    def keys(self) -> set[int]:
        """The 64-bit keys of its canonical and fetched URLs."""
        return {url_key(self.canonical_url), url_key(self.url)}

    def all_keys(self) -> list[int]:
        """Its URL keys and the band keys of its fingerprint (what the key filter holds of it)."""
        return [*self.keys(), *(self.fingerprint.bands if self.fingerprint else ())]


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the state file in autocommit mode, WAL journal."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a commit survives a process crash; on power loss the last commits may
    # roll back, which only makes the next run recover (or refetch) those articles again.
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA busy_timeout=10000")
    return db


class ArticleWriter:
    """Writes recorded articles into the state file, on a connection of its own."""

    def __init__(self, path: Path):
        self.db = connect(path)

    def write(self, records: list[ArticleRecord], output: str | None, committed: int | None) -> None:
        """The articles not recorded yet, their URL and band keys, and how far ``output`` is recorded,
        in one transaction; rows go in a few statements of many rows each (:func:`_insert_rows`), URL
        and band keys in key order."""
        with Transaction(self.db):
            fresh = self._unrecorded(records)
            first_id = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM articles").fetchone()[0]
            article_rows, url_rows, band_rows = [], [], []
            for article_id, record in enumerate(fresh, first_id):
                signature = record.fingerprint.signature if record.fingerprint else None
                article_rows.append((article_id, record.canonical_url, record.url, record.site, record.first_seen,
                                     signature, record.duplicate_of))
                url_rows += [(key, article_id) for key in record.keys()]
                if record.fingerprint:
                    band_rows += [(band, article_id) for band in record.fingerprint.bands]
            _insert_rows(self.db, "INSERT OR IGNORE INTO articles (id, canonical_url, url, site, first_seen, "
                                  "signature, duplicate_of)", article_rows)
            # In key order: each index page is visited once per batch, in file order (random keys in
            # arrival order cost ~2x the CPU once the state holds tens of thousands of articles).
            _insert_rows(self.db, "INSERT OR IGNORE INTO urls (key, article_id)", sorted(url_rows))
            _insert_rows(self.db, "INSERT OR IGNORE INTO bands (key, article_id)", sorted(band_rows))
            if output is not None and committed is not None:
                self.db.execute("INSERT OR REPLACE INTO outputs VALUES (?, ?)", (output, committed))

    def _unrecorded(self, records: list[ArticleRecord]) -> list[ArticleRecord]:
        """``records`` without the ones whose canonical URL is recorded already (or repeated)."""
        by_canonical = {}
        for record in records:
            by_canonical.setdefault(record.canonical_url, record)
        urls = list(by_canonical)
        for start in range(0, len(urls), ROWS_PER_STATEMENT):
            chunk = urls[start:start + ROWS_PER_STATEMENT]
            for (known,) in self.db.execute(
                    f"SELECT canonical_url FROM articles WHERE canonical_url IN ({','.join('?' * len(chunk))})",
                    chunk):
                del by_canonical[known]
        return list(by_canonical.values())

    def close(self) -> None:
        self.db.close()


class Transaction:
    """BEGIN IMMEDIATE ... COMMIT (or ROLLBACK on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, traceback) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


# Rows per INSERT statement: enough that a batch of 2,000 articles (~30,000 rows) takes ~120 statements,
# few enough that the compiled statement stays small (the sqlite3 module caches it for reuse; statements of
# thousands of rows held tens of MB: peak RSS of a 300-site crawl rose from 198 to 259 MB).
ROWS_PER_STATEMENT = 256


def _insert_rows(db: sqlite3.Connection, head: str, rows: list[tuple]) -> None:
    """``head VALUES (...), (...), ...`` with ROWS_PER_STATEMENT rows per statement.

    One statement per row (``executemany``) let go of the GIL around every row's step and took it
    back after, so a batch of 2,000 articles (~30,000 rows) made the event loop's thread hand over
    the GIL tens of thousands of times: with the state on, that thread sat idle ~5% of a 300-site
    crawl (/proc CPU against wall time, 2026-11-22). The last chunk is padded with copies of its
    last row, so every statement has the same text and is compiled once (``head`` must ignore
    repeated rows: INSERT OR IGNORE).
    """
    if not rows:
        return
    width = len(rows[0])
    sql = f"{head} VALUES {','.join(['(' + ','.join('?' * width) + ')'] * ROWS_PER_STATEMENT)}"
    for start in range(0, len(rows), ROWS_PER_STATEMENT):
        chunk = rows[start:start + ROWS_PER_STATEMENT]
        chunk += [chunk[-1]] * (ROWS_PER_STATEMENT - len(chunk))
        db.execute(sql, [value for row in chunk for value in row])
