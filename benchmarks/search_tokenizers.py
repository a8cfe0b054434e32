"""Which full-text tokenizer finds what a reader expects: unicode61 with CJK character pairs, or trigram.

    python benchmarks/search_tokenizers.py [--shared ../shared] [--per-page 2]

Documents: the Chinese pages of cx_zh and the German and English pages of fundus-dev
(../shared/eval), each with the title newscrawl's extractor finds and the gold text. Queries are
what a reader who saw the headline types: for Chinese, 2- and 4-character pieces of the title;
for German and English, title words of 5+ letters; and for German, the tail of a long compound
("Bundesregierung" -> "regierung"), a part a reader may search on its own. A query succeeds when
its page is among the first 10 matches (hit@10) or first (hit@1); MRR is the mean reciprocal rank.

Variants, built from the same rows in one run:
- ``pairs, words``: the article store (newscrawl.store.sinks: unicode61, CJK runs as overlapping pairs),
  searched for whole words only (BM25, the title weighted);
- ``pairs+inside``: the same, then, when fewer than 10 words matched, articles holding the query's
  words (4+ characters) inside longer words: newscrawl.store.search as shipped;
- ``trigram``: SQLite's trigram tokenizer (case-folded substrings of 3 characters); a query
  shorter than 3 characters cannot use the index and is answered with LIKE over title and text,
  unranked (title matches first).
Also prints the index size, the time to build it and the mean time of a query.
"""
from __future__ import annotations

import argparse
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common import load_score_module, shared_dir, skip_without_shared, use_repo_package

use_repo_package()

from newscrawl.extract import extract  # noqa: E402
from newscrawl.store.search import search  # noqa: E402
from newscrawl.store.sinks.base import row_of  # noqa: E402
from newscrawl.store.sinks.sqlite_store import SqliteStore  # noqa: E402
from newscrawl.store.sinks.tokens import CJK_RUN  # noqa: E402

SETS = {"cx_zh": ("zh",), "fundus-dev": ("de", "en")}
TOP = 10
MIN_WORD = 5  # letters of a German or English title word used as a query
MIN_COMPOUND = 12  # letters of a German word whose tail is a query
COMPOUND_TAIL = 8  # letters of that tail
_WORD = re.compile(r"[^\W\d_]+")


def documents(shared: Path) -> list[dict]:
    score = load_score_module(shared)
    docs = []
    for name, languages in SETS.items():
        for page in score.load_dataset(str(shared / "eval" / name)):
            if page.get("lang") not in languages:
                continue
            url = page.get("url") or f"http://{name}.test/{page['id']}"
            title = page.get("title") or extract(page["html"], url).title
            if title and page.get("text"):
                docs.append({"canonical_url": url + f"#{name}-{page['id']}", "url": url, "site": name,
                             "title": title, "text": page["text"], "lang": page["lang"],
                             "fetched_at": "2026-01-01T00:00:00+00:00"})
    return docs


def queries(docs: list[dict], per_page: int, rng: random.Random) -> list[tuple[str, str, str]]:
    """(query class, query, the URL of the page it is for)."""
    found = []
    for doc in docs:
        title, url = doc["title"], doc["canonical_url"]
        if doc["lang"] == "zh":
            runs = CJK_RUN.findall(title)
            for size in (2, 4):
                pieces = sorted({run[i:i + size] for run in runs for i in range(len(run) - size + 1)})
                found += [(f"zh {size} chars", piece, url) for piece in rng.sample(pieces, min(per_page, len(pieces)))]
            continue
        words = sorted({word for word in _WORD.findall(title) if len(word) >= MIN_WORD})
        found += [(f"{doc['lang']} title word", word, url) for word in rng.sample(words, min(per_page, len(words)))]
        if doc["lang"] == "de":
            long_words = [word for word in words if len(word) >= MIN_COMPOUND]
            found += [("de compound tail", word[-COMPOUND_TAIL:].lower(), url) for word in long_words[:1]]
    return found


def build_pairs(docs: list[dict], folder: Path) -> tuple[sqlite3.Connection, float, int]:
    store = SqliteStore(folder / "pairs.sqlite")
    store.open()
    started = time.perf_counter()
    store.commit([row_of(doc) for doc in docs])
    elapsed = time.perf_counter() - started
    size = store.connection.execute("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'articles_fts%'").fetchone()[0]
    return store.connection, elapsed, size


def build_trigram(docs: list[dict], folder: Path) -> tuple[sqlite3.Connection, float, int]:
    connection = sqlite3.connect(folder / "trigram.sqlite")
    connection.execute("CREATE VIRTUAL TABLE articles_fts USING fts5(url UNINDEXED, title, text, tokenize='trigram')")
    started = time.perf_counter()
    with connection:
        connection.executemany("INSERT INTO articles_fts (url, title, text) VALUES (?, ?, ?)",
                               [(doc["canonical_url"], doc["title"], doc["text"]) for doc in docs])
    elapsed = time.perf_counter() - started
    size = connection.execute("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'articles_fts%'").fetchone()[0]
    return connection, elapsed, size


def ranked_words(connection: sqlite3.Connection, query: str) -> list[str]:
    return [match.url for match in search(connection, query, limit=TOP, inside_words=False)]


def ranked_inside(connection: sqlite3.Connection, query: str) -> list[str]:
    return [match.url for match in search(connection, query, limit=TOP)]


def ranked_trigram(connection: sqlite3.Connection, query: str) -> list[str]:
    if len(query) >= 3:
        phrase = '"' + query.replace('"', '""') + '"'
        return [url for (url,) in connection.execute(
            "SELECT url FROM articles_fts WHERE articles_fts MATCH ? ORDER BY bm25(articles_fts, 0, 10.0, 1.0) "
            "LIMIT ?", (phrase, TOP))]
    pattern = f"%{query}%"
    return [url for (url,) in connection.execute(
        "SELECT url FROM articles_fts WHERE title LIKE ? OR text LIKE ? ORDER BY title LIKE ? DESC, rowid LIMIT ?",
        (pattern, pattern, pattern, TOP))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", help="the shared data folder (default ../shared)")
    parser.add_argument("--per-page", type=int, default=2, help="queries of each class per page (default 2)")
    options = parser.parse_args()
    shared = shared_dir(options.shared)
    skip_without_shared(shared)
    docs = documents(shared)
    asked = queries(docs, options.per_page, random.Random(20261127))
    with tempfile.TemporaryDirectory() as folder:
        pairs = build_pairs(docs, Path(folder))
        variants = {"pairs, words": (pairs, ranked_words), "pairs+inside": (pairs, ranked_inside),
                    "trigram": (build_trigram(docs, Path(folder)), ranked_trigram)}
        per_language = ", ".join(f"{lang} {sum(doc['lang'] == lang for doc in docs)}" for lang in ("zh", "de", "en"))
        print(f"{len(docs)} pages ({per_language}), {len(asked)} queries")
        for name, ((connection, seconds, size), ranked) in variants.items():
            started = time.perf_counter()
            for _, query, _ in asked:
                ranked(connection, query)
            per_query = (time.perf_counter() - started) / len(asked)
            print(f"{name:16} index {size / 1e6:.2f} MB, built in {seconds * 1000:.0f} ms, "
                  f"{per_query * 1000:.2f} ms per query")
        print(f"\n{'queries':18} {'n':>4}  " + "  ".join(f"{name:>21}" for name in variants))
        print(f"{'':18} {'':>4}  " + "  ".join(f"{'hit@1 hit@10   MRR':>21}" for _ in variants))
        by_class: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for kind, query, url in asked:
            by_class[kind].append((query, url))
        for kind in sorted(by_class):
            cells = []
            for (connection, _, _), ranked in variants.values():
                ranks = []
                for query, url in by_class[kind]:
                    matches = ranked(connection, query)
                    ranks.append(matches.index(url) + 1 if url in matches else None)
                hit1 = sum(rank == 1 for rank in ranks) / len(ranks)
                hit10 = sum(rank is not None for rank in ranks) / len(ranks)
                mrr = statistics.fmean(1 / rank if rank else 0.0 for rank in ranks)
                cells.append(f"{hit1:5.3f} {hit10:6.3f} {mrr:5.3f}")
            print(f"{kind:18} {len(by_class[kind]):>4}  " + "  ".join(f"{cell:>21}" for cell in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
