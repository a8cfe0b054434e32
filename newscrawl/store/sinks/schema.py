"""The article tables of the sinks, versioned: each version is a list of statements that takes the
schema from the version before to it; a store records its version and is only ever migrated forward.

A database at a version this code does not know (written by a newer newscrawl) is refused, with a
message, rather than written into.
"""
from __future__ import annotations

# The columns both databases store alike (the article's own text fields), part of version 1 of both: never
# change it (a later version adds or alters columns with a migration of its own).
_ARTICLE_COLUMNS = ("canonical_url TEXT NOT NULL UNIQUE, url TEXT NOT NULL, site TEXT, title TEXT, published TEXT, "
                    "text TEXT NOT NULL, html TEXT NOT NULL, lang TEXT,")

# SQLite article store (sqlite_store.py). ``articles_fts`` is contentless: it holds the index of
# title and text as tokens.index_text gives them, its rowid the article's id.
SQLITE_MIGRATIONS: list[list[str]] = [
    [  # version 1
        f"""CREATE TABLE articles (
            id INTEGER PRIMARY KEY,
            {_ARTICLE_COLUMNS}
            authors TEXT NOT NULL,
            discovered_via TEXT,
            fetched_at TEXT NOT NULL,
            score REAL NOT NULL,
            rendered INTEGER NOT NULL,
            duplicate_of TEXT,
            content_hash TEXT NOT NULL,
            first_seen TEXT NOT NULL,
            last_seen TEXT NOT NULL,
            updates INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX articles_site ON articles (site)",
        "CREATE INDEX articles_published ON articles (published)",
        "CREATE INDEX articles_first_seen ON articles (first_seen)",
        "CREATE VIRTUAL TABLE articles_fts USING fts5(title, text, content='', tokenize='unicode61 remove_diacritics 2')",
    ],
]

# PostgreSQL (postgres.py). ``search`` is the tsvector of title (weight A) and text (weight B) in
# the text-search configuration of the article's language (``ts_config``), else 'simple'.
POSTGRES_MIGRATIONS: list[list[str]] = [
    [  # version 1
        """CREATE TABLE IF NOT EXISTS newscrawl_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)""",
        f"""CREATE TABLE articles (
            id BIGSERIAL PRIMARY KEY,
            {_ARTICLE_COLUMNS}
            authors JSONB NOT NULL,
            discovered_via TEXT,
            fetched_at TIMESTAMPTZ,
            score DOUBLE PRECISION NOT NULL,
            rendered BOOLEAN NOT NULL,
            duplicate_of TEXT,
            content_hash TEXT NOT NULL,
            first_seen TIMESTAMPTZ NOT NULL,
            last_seen TIMESTAMPTZ NOT NULL,
            updates INTEGER NOT NULL DEFAULT 0,
            ts_config REGCONFIG NOT NULL,
            search TSVECTOR NOT NULL
        )""",
        "CREATE INDEX articles_site ON articles (site)",
        "CREATE INDEX articles_first_seen ON articles (first_seen)",
        "CREATE INDEX articles_search ON articles USING GIN (search)",
    ],
]


class SchemaTooNew(RuntimeError):
    """The database's schema version is newer than this code knows."""


def pending_migrations(current: int, migrations: list[list[str]], where: str) -> list[tuple[int, list[str]]]:
    """(version, statements) still to apply to a store at version ``current`` (0: empty)."""
    if current > len(migrations):
        raise SchemaTooNew(f"{where} has article schema version {current}, newer than this newscrawl knows "
                           f"({len(migrations)}); upgrade newscrawl or use another database")
    return [(version, migrations[version - 1]) for version in range(current + 1, len(migrations) + 1)]
