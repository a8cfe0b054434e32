"""A crafted history of hourly runs for the health report, written as the crawl writes its summaries.

Each run's per-site counters go into a test crawler's stats under the crawl's own keys, and the
crawl's summary extension (progress.SiteSummaryExtension) writes the file, so the files have the
format runs write. Six sites, six runs:

- ``steady-news``: 3-5 articles a run scoring ~0.8, a few list pages dropped: looks as usual;
- ``silent-daily``: articles in the first three runs, none in the last three: silent;
- ``redesigned``: four articles a run, mean score 0.85 then 0.45 in the last two runs: score fell;
- ``error-burst``: 0-1 HTTP 503 a run, 25 in the last: errors jumped;
- ``drop-burst``: 0-2 pages dropped as ``not_article`` a run, 20 in the last: drops jumped;
- ``robots-closed``: robots.txt forbids every page in the last run.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

from scrapy.utils.test import get_crawler

from newscrawl.run.counters import SITE_PREFIX
from newscrawl.report.progress import SiteSummaryExtension

RUNS = 6
FIRST_RUN = datetime(2026, 11, 2, 5, 5, tzinfo=timezone.utc)


def _site(articles: int, score: float, **counters) -> dict:
    return {"pages": articles + counters.pop("extra_pages", 6), "responses": articles + 8, "articles": articles,
            "article_score_sum": round(articles * score, 4), "dropped/list_page": 4, **counters}


def site_counters(run: int) -> dict[str, dict]:
    """The per-site counters of run ``run`` (0 = the oldest)."""
    last = run == RUNS - 1
    robots_closed = ({"pages": 0, "responses": 1, "rejected/robots": 12} if last else _site(2, 0.7))
    return {
        "steady-news": _site(3 + run % 3, 0.8 + 0.01 * (run % 2), **{"errors/http_404": run % 2}),
        "silent-daily": _site(0 if run >= 3 else 2 + run, 0.75),
        "redesigned": _site(4, 0.45 if run >= 4 else 0.85),
        "error-burst": _site(3, 0.8, **{"errors/http_503": 25 if last else run % 2}),
        "drop-burst": _site(3, 0.8, **{"dropped/not_article": 20 if last else run % 3}),
        "robots-closed": robots_closed,
    }


def write_run(path: Path, started: datetime, sites: dict[str, dict], close_reason: str = "finished") -> Path:
    """A summary file at ``path`` of a run that started at ``started`` with these per-site counters."""
    crawler = get_crawler(settings_dict={"NEWSCRAWL_SUMMARY_PATH": str(path)})
    crawler.stats.set_value("start_time", started)
    for site, counters in sites.items():
        for key, value in counters.items():
            crawler.stats.set_value(f"{SITE_PREFIX}{site}/{key}", value)
            crawler.stats.inc_value(f"newscrawl/{key}", value)
    SiteSummaryExtension.from_crawler(crawler).spider_closed(close_reason)
    return path


def write_history(folder: Path) -> list[Path]:
    """The six runs' summaries in ``folder``, one hour apart, oldest first."""
    paths = []
    for run in range(RUNS):
        started = FIRST_RUN + timedelta(hours=run)
        paths.append(write_run(folder / f"news-{started:%Y%m%dT%H%M%SZ}.summary.json", started, site_counters(run)))
    return paths
