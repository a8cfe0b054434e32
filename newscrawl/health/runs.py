"""Reading what earlier runs recorded: their summary files (one per run) and the incremental state.

A run's summary (``<output name>.summary.json``, written by ``progress.SiteSummaryExtension``) gives
per site the articles it emitted, its pages, drops by reason, errors by kind, pages robots.txt
forbade, the sum of its articles' extraction scores and why it stopped. The state gives per site
when its newest article was first seen, and the articles first seen per day.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..store.state import SQLITE_MAGIC, state_file_problem

SUMMARY_SUFFIX = ".summary.json"


def short_time(iso: str | None) -> str:
    """``2026-11-02T05:05:00+00:00`` -> ``2026-11-02 05:05`` (times are UTC throughout)."""
    return (iso or "?").replace("T", " ")[:16]


class UnreadableInput(ValueError):
    """A summary or state file that cannot be read; the message names the file and what is wrong."""


@dataclass(frozen=True)
class SiteRun:
    """One site in one run."""

    articles: int
    pages: int
    errors: dict[str, int]
    dropped: dict[str, int]
    robots_rejected: int
    stopped: str
    score_sum: float | None  # None: the run did not record scores

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def mean_score(self) -> float | None:
        """The mean extraction score of the articles it emitted (None without articles or scores)."""
        if self.score_sum is None or not self.articles:
            return None
        return self.score_sum / self.articles


@dataclass(frozen=True)
class Run:
    """One run's summary."""

    source: str
    started_at: str | None
    finished_at: str
    close_reason: str
    totals: dict[str, int]
    sites: dict[str, SiteRun]

    @property
    def when(self) -> str:
        return self.started_at or self.finished_at


@dataclass(frozen=True)
class StateHistory:
    """What the state says of the articles: per site the newest first-seen time, and articles per day."""

    last_article: dict[str, str] = field(default_factory=dict)  # site -> ISO 8601 UTC
    articles_per_day: dict[str, int] = field(default_factory=dict)  # YYYY-MM-DD -> articles first seen


@dataclass(frozen=True)
class Inputs:
    runs: list[Run]
    state: StateHistory | None
    unreadable: list[str]  # one line per file that was skipped, naming it and why


def _counts(value, where: str) -> dict[str, int]:
    """A summary's object of counts (``{"http_404": 2}``), checked: every value a whole number."""
    if not isinstance(value, dict):
        raise UnreadableInput(f"{where}: expected an object of counts, found {type(value).__name__}")
    for key, count in value.items():
        if type(count) is not int:  # noqa: E721 (bool is an int subclass, and not a count)
            raise UnreadableInput(f"{where}.{key}: not a count ({count!r})")
    return value


def _number(summary: dict, key: str, where: str) -> float:
    value = summary.get(key, 0)
    if type(value) not in (int, float):
        raise UnreadableInput(f"{where}: '{key}' is not a number ({value!r})")
    return value


def site_run(summary: dict, where: str) -> SiteRun:
    """A site's entry of a summary file (``where`` names it in errors)."""
    if not isinstance(summary, dict):
        raise UnreadableInput(f"{where}: expected an object, found {type(summary).__name__}")
    score = summary.get("article_score_sum")
    return SiteRun(articles=int(_number(summary, "articles", where)),
                   pages=int(_number(summary, "pages", where)),
                   errors=_counts(summary.get("errors", {}), f"{where}.errors"),
                   dropped=_counts(summary.get("dropped", {}), f"{where}.dropped"),
                   robots_rejected=int(_counts(summary.get("rejected", {}), f"{where}.rejected").get("robots", 0)),
                   stopped=str(summary.get("stopped", "")),
                   score_sum=float(_number(summary, "article_score_sum", where)) if score is not None else None)


def read_summary(path: Path) -> Run:
    """One run from its summary file; UnreadableInput names the file and what is wrong."""
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UnreadableInput(f"{path}: cannot be read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UnreadableInput(f"{path}: not a JSON summary ({exc})") from None
    if not isinstance(summary, dict) or not isinstance(summary.get("sites"), dict):
        raise UnreadableInput(f"{path}: not a run summary (no 'sites' object)")
    finished = summary.get("finished_at")
    if not isinstance(finished, str):
        raise UnreadableInput(f"{path}: not a run summary (no 'finished_at' time)")
    sites = {str(name): site_run(entry, f"{path}: sites.{name}") for name, entry in summary["sites"].items()}
    totals = summary.get("totals") if isinstance(summary.get("totals"), dict) else {}
    return Run(source=str(path), started_at=summary.get("started_at"), finished_at=finished,
               close_reason=str(summary.get("close_reason", "")),
               totals={k: v for k, v in totals.items() if type(v) in (int, float)}, sites=sites)


def is_state_file(path: Path) -> bool:
    """Whether ``path`` is a SQLite file (the incremental state) rather than a summary."""
    try:
        with path.open("rb") as handle:
            return handle.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def read_state(path: Path) -> StateHistory:
    """Per site the newest article's first-seen time, and articles first seen per day, read-only."""
    problem = state_file_problem(path)
    if problem:
        raise UnreadableInput(problem)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise UnreadableInput(f"{path}: cannot be opened ({exc})") from None
    try:
        last = {site: seen for site, seen in db.execute(
            "SELECT site, max(first_seen) FROM articles WHERE site IS NOT NULL GROUP BY site")}
        per_day = dict(db.execute("SELECT substr(first_seen, 1, 10), count(*) FROM articles GROUP BY 1 ORDER BY 1"))
    except sqlite3.Error as exc:
        raise UnreadableInput(f"{path}: not a newscrawl state ({exc})") from None
    finally:
        db.close()
    return StateHistory(last, per_day)


def summary_files(path: Path) -> list[Path]:
    """The summary files in a directory (and below it), or ``path`` itself."""
    if path.is_dir():
        return sorted(path.rglob(f"*{SUMMARY_SUFFIX}"))
    return [path]


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def read_inputs(paths: list[Path], max_runs: int) -> Inputs:
    """The last ``max_runs`` runs among the summaries found in ``paths`` (oldest first) and the state
    among them; a file that cannot be read is skipped and named in ``unreadable``. Only the newest
    files are read (by modification time), so a directory of a year of hourly runs costs ``max_runs``."""
    summaries: list[Path] = []
    state: StateHistory | None = None
    unreadable: list[str] = []
    for path in paths:
        if not path.exists():
            unreadable.append(f"{path}: no such file or directory")
        elif path.is_file() and is_state_file(path):
            try:
                state = read_state(path)
            except UnreadableInput as exc:
                unreadable.append(str(exc))
        else:
            summaries += summary_files(path)
    runs: list[Run] = []
    for file in sorted(dict.fromkeys(summaries), key=_modified, reverse=True):
        if len(runs) >= max_runs:
            break
        try:
            runs.append(read_summary(file))
        except UnreadableInput as exc:
            unreadable.append(str(exc))
    runs.sort(key=lambda run: (run.when, run.finished_at, run.source))
    return Inputs(runs, state, unreadable)
