"""PostgreSQL as an article sink: ``-s POSTGRES_URL=postgresql://user@host/db``.

Each batch of the crawl's syncs is one transaction: the stored state of the batch's canonical URLs
is read, new articles are inserted and changed ones (title or text) updated, with psycopg's
pipelined ``executemany``. The ``search`` column is the tsvector of title (weight A) and text
(weight B) in the text-search configuration of the article's language when the server has one
(``german`` for ``de``...), else ``simple``; CJK runs are indexed as character pairs
(tokens.index_text), so ``plainto_tsquery('simple', index_text(query))`` finds Chinese words. The
schema is created on first use and migrated forward (schema.POSTGRES_MIGRATIONS, the version in
``newscrawl_meta``), under an advisory lock so crawlers sharing a database migrate it once.
"""
from __future__ import annotations

import datetime as dt

from ...run.clock import utc_now
from .base import ArticleRow, Committed, Sink, SinkError, last_of_each
from .schema import POSTGRES_MIGRATIONS, SchemaTooNew, pending_migrations
from .tokens import index_text

CONNECT_TIMEOUT_SECONDS = 10  # a server that does not answer the connection within this is down
_MIGRATION_LOCK = 0x6E657773  # pg_advisory_xact_lock key held while the schema is migrated ("news")
# ISO 639-1 code of the article's language -> PostgreSQL's text-search configuration for it (the
# snowball configurations PostgreSQL 15 ships); used when the server has it, else 'simple'.
TS_CONFIGS = {
    "ar": "arabic", "hy": "armenian", "eu": "basque", "ca": "catalan", "da": "danish", "nl": "dutch",
    "en": "english", "fi": "finnish", "fr": "french", "de": "german", "el": "greek", "hi": "hindi",
    "hu": "hungarian", "id": "indonesian", "ga": "irish", "it": "italian", "lt": "lithuanian",
    "ne": "nepali", "no": "norwegian", "nb": "norwegian", "nn": "norwegian", "pt": "portuguese",
    "ro": "romanian", "ru": "russian", "sr": "serbian", "es": "spanish", "sv": "swedish", "ta": "tamil",
    "tr": "turkish", "yi": "yiddish",
}
FALLBACK_CONFIG = "simple"

_COLUMNS = ("canonical_url", "url", "site", "title", "published", "text", "html", "lang", "authors",
            "discovered_via", "fetched_at", "score", "rendered", "duplicate_of", "content_hash")
_CAST = {"authors": "::jsonb"}  # columns whose value is sent as text and stored as another type
_SEARCH = ("setweight(to_tsvector(%(ts_config)s::regconfig, %(title_tokens)s), 'A') || "
           "setweight(to_tsvector(%(ts_config)s::regconfig, %(text_tokens)s), 'B')")
_INSERT = (f"INSERT INTO articles ({', '.join(_COLUMNS)}, first_seen, last_seen, ts_config, search) VALUES "
           f"({', '.join(f'%({name})s{_CAST.get(name, str())}' for name in _COLUMNS)}, %(seen)s, %(seen)s, %(ts_config)s::regconfig, "
           f"{_SEARCH}) ON CONFLICT (canonical_url) DO NOTHING")
_UPDATE = (f"UPDATE articles SET {', '.join(f'{name} = %({name})s{_CAST.get(name, str())}' for name in _COLUMNS)}, last_seen = %(seen)s, "
           f"updates = updates + 1, ts_config = %(ts_config)s::regconfig, search = {_SEARCH} "
           f"WHERE canonical_url = %(canonical_url)s")


def _moment(text: str) -> dt.datetime:
    """An ISO 8601 time of an item as an aware datetime (UTC when it names no zone)."""
    moment = dt.datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def _one_line(error: Exception) -> str:
    """A driver error on one line (libpq's messages span several: "connection refused\n\tIs the server...")."""
    return " ".join(str(error).split())


class PostgresSink(Sink):
    """Articles upserted into PostgreSQL (see the module docstring)."""

    name = "postgres"

    def __init__(self, url: str):
        self.url = url
        self.connection = None
        self.configs: set[str] = set()  # text-search configurations the server has

    @classmethod
    def from_settings(cls, settings) -> PostgresSink:
        return cls(settings.get("POSTGRES_URL"))

    def describe(self) -> str:
        """The server and database, without the password."""
        try:
            from psycopg.conninfo import conninfo_to_dict

            parts = conninfo_to_dict(self.url)
        except Exception:  # noqa: BLE001 - a URL psycopg cannot parse is described as unparsable
            return "PostgreSQL (POSTGRES_URL cannot be parsed)"
        where = f"{parts.get('host') or 'localhost'}:{parts.get('port') or 5432}"
        return f"PostgreSQL database {parts.get('dbname') or parts.get('user') or '?'} at {where}"

    def open(self) -> None:
        if self.connection is not None:
            return
        try:
            import psycopg
        except ImportError as error:
            raise SinkError("POSTGRES_URL is set but psycopg is not installed (pip install -r requirements.txt)"
                            ) from error
        try:
            self.connection = psycopg.connect(self.url, connect_timeout=CONNECT_TIMEOUT_SECONDS)
            self._migrate()
            self.configs = {name for (name,) in self.connection.execute("SELECT cfgname FROM pg_ts_config")}
            self.connection.commit()
        except (psycopg.Error, SchemaTooNew) as error:
            self.close()
            raise SinkError(f"{self.describe()}: {_one_line(error)}") from error

    def _migrate(self) -> None:
        connection = self.connection
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            current = 0
            if connection.execute("SELECT to_regclass('newscrawl_meta')").fetchone()[0] is not None:
                found = connection.execute(
                    "SELECT value FROM newscrawl_meta WHERE name = 'schema_version'").fetchone()
                current = int(found[0]) if found else 0
            for version, statements in pending_migrations(current, POSTGRES_MIGRATIONS, self.describe()):
                for statement in statements:
                    connection.execute(statement)
                connection.execute("INSERT INTO newscrawl_meta (name, value) VALUES ('schema_version', %s) "
                                   "ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value", (str(version),))

    def ts_config(self, lang: str | None) -> str:
        """The text-search configuration for a language code ('de', 'en-GB'...): its own, else 'simple'."""
        config = TS_CONFIGS.get((lang or "").split("-")[0].lower())
        return config if config in self.configs else FALLBACK_CONFIG

    def commit(self, rows: list[ArticleRow]) -> Committed:
        if self.connection is None:
            raise SinkError(f"{self.describe()} is not open")
        import psycopg

        rows = last_of_each(rows)
        try:
            with self.connection.transaction():
                committed = self._upsert(rows)
        except psycopg.Error as error:
            raise SinkError(f"{self.describe()}: {_one_line(error)}") from error
        return committed

    def _upsert(self, rows: list[ArticleRow]) -> Committed:
        stored = {url: (content_hash, first_seen, last_seen) for url, content_hash, first_seen, last_seen
                  in self.connection.execute(
                      "SELECT canonical_url, content_hash, first_seen, last_seen FROM articles "
                      "WHERE canonical_url = ANY(%s) FOR UPDATE", ([row.canonical_url for row in rows],))}
        inserts, updates, earlier, later = [], [], [], []
        for row in rows:
            seen = _moment(row.fetched_at or utc_now())
            before = stored.get(row.canonical_url)
            if before is None:
                inserts.append(self._values(row, seen))
                continue
            content_hash, first_seen, last_seen = before
            if seen < first_seen:  # a replayed line older than the stored row saw the article first
                earlier.append((seen, row.canonical_url))
            if seen < last_seen:  # never overwrite newer text with an older line
                continue
            if content_hash == row.content_hash:
                later.append((seen, row.canonical_url))
            else:
                updates.append(self._values(row, seen))
        with self.connection.cursor() as cursor:
            if inserts:
                cursor.executemany(_INSERT, inserts)
            if updates:
                cursor.executemany(_UPDATE, updates)
            if earlier:
                cursor.executemany("UPDATE articles SET first_seen = %s WHERE canonical_url = %s", earlier)
            if later:
                cursor.executemany("UPDATE articles SET last_seen = %s WHERE canonical_url = %s", later)
        return Committed(len(inserts), len(updates))

    def _values(self, row: ArticleRow, seen: dt.datetime) -> dict:
        values = {name: getattr(row, name) for name in _COLUMNS}
        values["fetched_at"] = seen
        values["seen"] = seen
        values["ts_config"] = self.ts_config(row.lang)
        values["title_tokens"] = index_text(row.title)
        values["text_tokens"] = index_text(row.text)
        return values

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            finally:
                self.connection = None


def search(connection, query: str, limit: int = 10) -> list[tuple[str | None, str]]:
    """(title, canonical URL) of the best matches of ``query`` in PostgreSQL: every word of it, in
    any configuration the stored articles use (stemmed there), CJK as character pairs; ranked by
    ``ts_rank`` (the title weighs more, weight A)."""
    configs = [name for (name,) in connection.execute("SELECT DISTINCT ts_config::text FROM articles")]
    if not configs:
        return []
    words = index_text(query)
    matched = " || ".join("plainto_tsquery(%s::regconfig, %s)" for _ in configs)
    parameters = [value for config in configs for value in (config, words)]
    return [(title, url) for title, url, _ in connection.execute(
        f"SELECT title, canonical_url, max(ts_rank(search, q)) AS rank FROM articles, "
        f"unnest(ARRAY[{matched}]) AS q WHERE search @@ q GROUP BY id, title, canonical_url "
        f"ORDER BY rank DESC, id LIMIT %s", (*parameters, limit))]
