"""Judging each site's history across runs: what needs a person, most urgent first."""
from __future__ import annotations

from dataclasses import dataclass, field
from statistics import median

from ..report.run_report import FAILED_PREFIXES, stop_in_words
from .options import HealthOptions
from .runs import Run, SiteRun, short_time

# Kinds of finding, in the order a person should look at them (the report's sort order).
SILENT = "silent"
JUMPED = "jumped"
SCORE_FELL = "score fell"
ROBOTS = "robots"
FAILING = "failing"
KIND_ORDER = (SILENT, JUMPED, SCORE_FELL, ROBOTS, FAILING)
ROBOTS_STOP = "failed:robots"
CLOSED_EARLY = "crawl_closed:"  # the stop reason of a site whose run ended first (progress.stop_reason)
ROBOTS_SERIES = "robots rejections"  # pages robots.txt forbade (its own finding when it forbade all)


@dataclass(frozen=True)
class Finding:
    kind: str
    detail: str  # one line, in words, with the numbers behind it


@dataclass(frozen=True)
class SiteHealth:
    name: str
    history: list[SiteRun | None]  # one entry per run read, None where the run did not crawl the site
    findings: list[Finding] = field(default_factory=list)
    last_article: str | None = None  # when its newest article was first seen (the state), else when the last
    # run that emitted one started

    @property
    def needs_a_look(self) -> bool:
        return bool(self.findings)

    def sort_key(self) -> tuple:
        ranks = [KIND_ORDER.index(f.kind) for f in self.findings]
        return (min(ranks, default=len(KIND_ORDER)), -len(ranks), -silent_streak(self.history), self.name)


def silent_streak(history: list[SiteRun | None]) -> int:
    """Runs in a row, up to the latest one that crawled the site, in which it emitted no article.
    Runs that did not crawl it, or ended before it was done (``crawl_closed:``), are passed over."""
    streak = 0
    for entry in reversed(history):
        if entry is None or entry.stopped.startswith(CLOSED_EARLY):
            continue
        if entry.articles:
            break
        streak += 1
    return streak


def _crawled(history: list[SiteRun | None]) -> list[SiteRun]:
    return [entry for entry in history if entry is not None]


def _pooled_score(entries: list[SiteRun], options: HealthOptions) -> float | None:
    scored = [e for e in entries if e.score_sum is not None and e.articles]
    articles = sum(e.articles for e in scored)
    if articles < options.min_scored_articles:
        return None
    return sum(e.score_sum for e in scored) / articles


def _recent_run_count(entries: list[SiteRun], options: HealthOptions) -> int:
    """Latest runs, back from the last, until they hold enough scored articles (at most recent_runs)."""
    articles = 0
    for count, entry in enumerate(reversed(entries[-options.recent_runs:]), 1):
        articles += entry.articles if entry.score_sum is not None else 0
        if articles >= options.min_scored_articles:
            return count
    return min(len(entries), options.recent_runs)


def _score_fall(entries: list[SiteRun], options: HealthOptions) -> Finding | None:
    recent_runs = _recent_run_count(entries, options)
    recent = _pooled_score(entries[-recent_runs:], options)
    usual = _pooled_score(entries[-recent_runs - options.baseline_runs:-recent_runs], options)
    if recent is None or usual is None or usual - recent < options.score_fall:
        return None
    articles = sum(e.articles for e in entries[-recent_runs:])
    runs = "the latest run" if recent_runs == 1 else f"the last {recent_runs} runs"
    return Finding(SCORE_FELL, f"mean extraction score {recent:.2f} over {runs} ({articles} articles), "
                               f"usually {usual:.2f} (a redesign?)")


def _jumped(latest: int, earlier: list[int], options: HealthOptions) -> float | None:
    """The usual level (median of ``earlier``) when ``latest`` jumped above it, else None."""
    if not earlier:
        return None
    usual = median(earlier)
    if latest > options.jump_factor * usual and latest > usual + options.jump_min_increase:
        return usual
    return None


def _series(entries: list[SiteRun]) -> dict[str, list[int]]:
    """Per counted thing (``errors`` in total, ``error <kind>``, ``drop <reason>``, robots.txt
    refusals): its count in each entry."""
    series: dict[str, list[int]] = {}

    def put(name: str, index: int, value: int) -> None:
        series.setdefault(name, [0] * len(entries))[index] = value

    for index, entry in enumerate(entries):
        put("errors", index, entry.error_count)
        put(ROBOTS_SERIES, index, entry.robots_rejected)
        for kind, value in entry.errors.items():
            put(f"error {kind}", index, value)
        for reason, value in entry.dropped.items():
            put(f"drop {reason}", index, value)
    return series


def _robots_block(latest: SiteRun) -> Finding | None:
    """Whether robots.txt kept the latest run from the site's pages (all of them, or every article)."""
    if latest.stopped == ROBOTS_STOP:
        return Finding(ROBOTS, f"robots.txt forbade every page ({latest.robots_rejected} refused)")
    if latest.robots_rejected and not latest.articles:
        return Finding(ROBOTS, f"robots.txt forbade {latest.robots_rejected} pages and no article came")
    return None


def judge_site(name: str, history: list[SiteRun | None], options: HealthOptions,
               last_article: str | None = None) -> SiteHealth:
    entries = _crawled(history)
    findings: list[Finding] = []
    if not entries:
        return SiteHealth(name, history, findings, last_article)
    latest = entries[-1]
    streak = silent_streak(history)
    if streak >= options.silent_runs:
        since = f"; last new article {short_time(last_article)}" if last_article else "; none in the runs read"
        findings.append(Finding(SILENT, f"no new article in the last {streak} runs{since}"))
    blocked = _robots_block(latest)
    for thing, counts in sorted(_series(entries[-1 - options.baseline_runs:]).items()):
        usual = _jumped(counts[-1], counts[:-1], options)
        if usual is not None and not (thing == ROBOTS_SERIES and blocked):
            findings.append(Finding(JUMPED, f"{thing}: {counts[-1]} in the latest run, usually {usual:g}"))
    fell = _score_fall(entries, options)
    if fell:
        findings.append(fell)
    if blocked:
        findings.append(blocked)
    elif latest.stopped.startswith(FAILED_PREFIXES) or latest.stopped == "browser_missing":
        findings.append(Finding(FAILING, f"latest run: {stop_in_words(latest.stopped)}"))
    return SiteHealth(name, history, findings, last_article)


def last_article_in_runs(name: str, runs: list[Run]) -> str | None:
    """When the latest run in which the site emitted an article started."""
    for run in reversed(runs):
        entry = run.sites.get(name)
        if entry is not None and entry.articles:
            return run.when
    return None


def judge_sites(runs: list[Run], options: HealthOptions,
                last_articles: dict[str, str] | None = None) -> list[SiteHealth]:
    """Every site of the runs, judged; the ones that need a look first (by kind, then most findings)."""
    names = sorted({name for run in runs for name in run.sites})
    judged = []
    for name in names:
        history = [run.sites.get(name) for run in runs]
        last = (last_articles or {}).get(name) or last_article_in_runs(name, runs)
        judged.append(judge_site(name, history, options, last))
    return sorted(judged, key=SiteHealth.sort_key)


def sites_by_kind(sites: list[SiteHealth]) -> dict[str, int]:
    """How many of ``sites`` have a finding of each kind, in KIND_ORDER."""
    kinds = [{f.kind for f in site.findings} for site in sites]
    return {kind: n for kind in KIND_ORDER if (n := sum(kind in found for found in kinds))}
