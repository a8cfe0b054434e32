"""``python -m newscrawl.store.search "query"``: the best matches in the article store, one block each.

Every word of the query must be in the title or text (Chinese and Japanese matched as character
pairs, newscrawl.store.sinks.tokens); matches are ranked by BM25 with the title weighing
``TITLE_WEIGHT`` times the text. When they fill fewer places than asked, articles holding the
words inside longer words follow (German compounds). Each match prints its title, publish date, site, URL and a
snippet of the text around the first word found. Exit 0 with matches or none, 2 when the store
cannot be read or the query has no word.
"""
from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from .sinks.base import SinkError
from .sinks.sqlite_store import articles_db_path, connect
from .sinks.tokens import fts_query

# BM25 weight of the title column against the text (1.0): a query word in the headline says more
# about what the article is about than one in its body (benchmarks/search_tokenizers.py measures it).
TITLE_WEIGHT = 10.0
# Characters of each query word before it is also looked for inside longer words, when the word
# matches fill fewer than --limit places: German compounds ("regierung" in "Bundesregierung") were
# found first for 0.07 of such queries without it (benchmarks/search_tokenizers.py); two-letter
# words ("ai", "eu") are inside too many others to be worth it.
MIN_INSIDE_CHARS = 4
SNIPPET_CHARS = 160  # characters of text shown around the first query word found
EXIT_ERROR = 2


@dataclass(frozen=True)
class Match:
    title: str | None
    published: str | None
    site: str | None
    url: str
    snippet: str


def default_db() -> Path:
    """The store a crawl with the default settings writes: articles.sqlite beside the default state
    (under the environment's NEWSCRAWL_HOME when it is set, as for the crawl)."""
    return articles_db_path({})


def search(connection: sqlite3.Connection, query: str, site: str | None = None, since: str | None = None,
           limit: int = 10, inside_words: bool = True) -> list[Match]:
    """The best ``limit`` matches of ``query`` (ValueError when it has no word); ``inside_words``
    false: word matches only."""
    expression = fts_query(query)
    if expression is None:
        raise ValueError(f"the query {query!r} has no word to search for")
    where, values = ["articles_fts MATCH ?"], [expression]
    if site:
        where.append("a.site = ?")
        values.append(site)
    if since:
        where.append("coalesce(a.published, a.first_seen) >= ?")
        values.append(since)
    filters = "".join(f" AND {condition}" for condition in where[1:])
    rows = connection.execute(
        f"SELECT a.title, a.published, a.site, a.canonical_url, a.text FROM articles_fts "
        f"JOIN articles a ON a.id = articles_fts.rowid WHERE articles_fts MATCH ?{filters} "
        f"ORDER BY bm25(articles_fts, ?, 1.0), a.id LIMIT ?", (*values, TITLE_WEIGHT, limit)).fetchall()
    if inside_words and len(rows) < limit:
        rows += _inside_words(connection, query, filters, values[1:], {row[3] for row in rows}, limit - len(rows))
    return [Match(title, published, site_name, url, snippet(text, query)) for title, published, site_name, url, text
            in rows]


def _inside_words(connection: sqlite3.Connection, query: str, filters: str, values: list, found: set[str],
                  limit: int) -> list[tuple]:
    """Articles holding every query word inside a longer word ("regierung" in "Bundesregierung"),
    after the word matches: a scan of title and text, for queries whose words all have at least
    ``MIN_INSIDE_CHARS`` characters (shorter ones are inside too many words to mean anything)."""
    words = [word for word in query.split() if word]
    if not words or any(len(word) < MIN_INSIDE_CHARS for word in words):
        return []
    contains = " AND ".join("(instr(lower(a.title), ?) OR instr(lower(a.text), ?))" for _ in words)
    rows = connection.execute(
        f"SELECT a.title, a.published, a.site, a.canonical_url, a.text FROM articles a WHERE {contains}{filters} "
        f"ORDER BY {' + '.join('(instr(lower(a.title), ?) > 0)' for _ in words)} DESC, a.id LIMIT ?",
        (*[word.lower() for word in words for _ in (0, 1)], *values, *[word.lower() for word in words],
         limit + len(found))).fetchall()
    return [row for row in rows if row[3] not in found][:limit]


def snippet(text: str, query: str, width: int = SNIPPET_CHARS) -> str:
    """About ``width`` characters of ``text`` around the first place a query word occurs (its start if none)."""
    words = [word for word in re.split(r"\s+", query.strip()) if word]
    found = [position for position in (text.lower().find(word.lower()) for word in words) if position >= 0]
    start = max(0, min(found) - width // 3) if found else 0
    piece = " ".join(text[start:start + width].split())
    return ("…" if start > 0 else "") + piece + ("…" if start + width < len(text) else "")


def print_matches(matches: list[Match], out=None) -> None:
    out = out or sys.stdout
    for number, match in enumerate(matches, 1):
        print(f"{number}. {match.title or '(no title)'}", file=out)
        print(f"   {match.published or 'no date'} | {match.site or '-'} | {match.url}", file=out)
        print(f"   {match.snippet}", file=out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.store.search", description=__doc__.split("\n\n")[0])
    parser.add_argument("query", help="words to find (all of them); Chinese and Japanese as written")
    parser.add_argument("--db", type=Path, default=None,
                        help="the article store (default: articles.sqlite beside the default state, "
                             f"{default_db()})")
    parser.add_argument("--site", help="only articles of this site (its name in sites.yaml)")
    parser.add_argument("--since", help="only articles published (else first seen) on or after this date, "
                                        "YYYY-MM-DD")
    parser.add_argument("--limit", type=int, default=10, help="matches shown (default 10)")
    options = parser.parse_args(argv)
    if options.since and not re.fullmatch(r"\d{4}-\d{2}-\d{2}([T ].*)?", options.since):
        parser.error(f"--since {options.since!r}: expected a date as YYYY-MM-DD")
    if options.limit < 1:
        parser.error("--limit must be 1 or more")
    path = options.db or default_db()
    try:
        connection = connect(path, create=False)
    except SinkError as error:
        hint = "" if options.db else " (give --db; the demo's store is output/demo/articles.sqlite)"
        print(f"newscrawl.store.search: {error}{hint}", file=sys.stderr)
        return EXIT_ERROR
    try:
        matches = search(connection, options.query, options.site, options.since, options.limit)
    except ValueError as error:
        print(f"newscrawl.store.search: {error}", file=sys.stderr)
        return EXIT_ERROR
    finally:
        connection.close()
    if not matches:
        print(f"no article matches {options.query!r} in {path}", file=sys.stderr)
    print_matches(matches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
