"""The words a full-text index sees: CJK runs as overlapping character pairs, other text as it is.

Chinese and Japanese are written without spaces, so a word tokenizer (SQLite's unicode61,
PostgreSQL's parsers) takes a whole run of Han or kana characters for one word, and a search for
a two-character word inside it finds nothing. Here each such run becomes its overlapping pairs
("北京经济" -> "北京 京经 经济"), the usual bigram indexing of CJK search engines; a query is
turned the same way into a phrase of pairs, and a single character into a prefix query.
``benchmarks/search_tokenizers.py`` compares this with SQLite's trigram tokenizer.
"""
from __future__ import annotations

import re

# Han (CJK unified ideographs, extension A, compatibility), hiragana, katakana (and its phonetic
# extensions, half-width forms): scripts written without spaces between words. Hangul is written
# with spaces and left to the word tokenizer.
CJK_RUN = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]+")
# Characters of a query with a meaning in FTS5's query syntax; a reader's query is taken as words.
_QUERY_WORD = re.compile(r"[^\s\"'()*:^+\-{},.;!?，。！？；：、“”《》（）]+")


def pairs(run: str) -> list[str]:
    """The overlapping character pairs of a CJK run (the run itself when it is one character)."""
    if len(run) < 2:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]


def index_text(text: str | None) -> str:
    """``text`` with each CJK run replaced by its pairs, separated by spaces."""
    if not text:
        return ""
    return CJK_RUN.sub(lambda match: f" {' '.join(pairs(match.group()))} ", text)


def query_terms(query: str) -> list[str]:
    """The query's words, and its CJK runs as phrases of pairs: each term as FTS5 query syntax.

    "经济 Berlin" -> ['"经济"', '"berlin"']; "北京经济" -> ['"北京 京经 经济"']; "京" -> ['"京" *'].
    """
    terms = []
    for word in _QUERY_WORD.findall(query):
        position = 0
        for match in CJK_RUN.finditer(word):
            terms += _plain_terms(word[position:match.start()])
            run = match.group()
            terms.append(f'"{run}" *' if len(run) == 1 else f'"{" ".join(pairs(run))}"')
            position = match.end()
        terms += _plain_terms(word[position:])
    return terms


def _plain_terms(part: str) -> list[str]:
    return [f'"{part.lower()}"'] if part else []


def fts_query(query: str) -> str | None:
    """An FTS5 MATCH expression finding articles with every word of ``query``; None: no word in it."""
    terms = query_terms(query)
    return " AND ".join(terms) if terms else None
