"""What every article sink does, and the row it stores for an article.

A sink gets batches of articles in the order they were written to the JSONL output and commits
each batch whole (one transaction) or raises :class:`SinkError`. It upserts by canonical URL, so
a batch given twice (a replay after a crash) leaves the same rows: an article already stored with
the same title and text only has its ``last_seen`` moved; one whose title or text changed is
updated and counted as such.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ...config.paths import resolve
from ..state import DEFAULT_STATE_PATH

# The article fields a sink stores, in the order of the JSONL line (newscrawl.items.ArticleItem).
ARTICLE_FIELDS = ("url", "canonical_url", "site", "title", "published", "text", "html", "lang", "authors",
                  "discovered_via", "fetched_at", "score", "rendered", "duplicate_of")


def state_directory(settings) -> Path:
    """The directory of the state file (STATE_PATH under NEWSCRAWL_HOME), where sinks keep their files."""
    return resolve(settings, settings.get("STATE_PATH") or DEFAULT_STATE_PATH).parent


class SinkError(RuntimeError):
    """A sink could not be opened or could not commit a batch; the message names the sink and why."""


@dataclass(frozen=True)
class Committed:
    """What one commit did: new rows, and rows whose title or text changed."""

    written: int = 0
    updated: int = 0


@dataclass(frozen=True)
class ArticleRow:
    """One article as a sink stores it (``authors`` as a JSON list, ``content_hash`` of title and text)."""

    canonical_url: str
    url: str
    site: str | None
    title: str | None
    published: str | None
    text: str
    html: str
    lang: str | None
    authors: str
    discovered_via: str | None
    fetched_at: str
    score: float
    rendered: bool
    duplicate_of: str | None
    content_hash: str


def content_hash(title: str | None, text: str) -> str:
    """Digest of what makes an article changed for a reader: its title and text."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update((title or "").encode("utf-8"))
    digest.update(b"\0")
    digest.update(text.encode("utf-8"))
    return digest.hexdigest()


def row_of(item) -> ArticleRow:
    """The row of an ArticleItem, or of a JSONL line read back as a dict (recovery after a crash)."""
    get = item.get if isinstance(item, dict) else lambda name: getattr(item, name, None)
    text = get("text") or ""
    return ArticleRow(
        canonical_url=get("canonical_url"), url=get("url"), site=get("site"), title=get("title"),
        published=get("published"), text=text, html=get("html") or "", lang=get("lang"),
        authors=json.dumps(list(get("authors") or []), ensure_ascii=False),
        discovered_via=get("discovered_via"), fetched_at=get("fetched_at") or "",
        score=float(get("score") or 0.0), rendered=bool(get("rendered")), duplicate_of=get("duplicate_of"),
        content_hash=content_hash(get("title"), text))


def last_of_each(rows: list[ArticleRow]) -> list[ArticleRow]:
    """One row per canonical URL, the last written (a batch may hold an article twice after a replay)."""
    return list({row.canonical_url: row for row in rows}.values())


class Sink:
    """The interface of an article sink. ``name`` names it in stats (``newscrawl/sink/<name>/...``)."""

    name = "sink"

    def describe(self) -> str:
        """Where it writes, for messages (never a password)."""
        raise NotImplementedError

    def open(self) -> None:
        """Connect, and create or migrate the schema; SinkError when it cannot."""
        raise NotImplementedError

    def commit(self, rows: list[ArticleRow]) -> Committed:
        """Upsert ``rows`` in one transaction; SinkError when it failed (nothing of it committed)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError
