"""Progress a person can follow: a periodic log line, and a per-site summary file at the end."""
from __future__ import annotations

import json
import logging
import time
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import NotConfigured
from twisted.internet import task

from ..run.counters import PREFIX, SITE_PREFIX
from ..crawl.failures import got_response
from ..config.paths import resolve

logger = logging.getLogger(__name__)


def _sum_prefix(stats_dict: dict, prefix: str) -> int:
    return sum(v for k, v in stats_dict.items() if k.startswith(prefix) and isinstance(v, (int, float)))


def crawl_totals(stats_dict: dict) -> dict[str, int]:
    return {
        "pages": stats_dict.get(f"{PREFIX}pages", 0),
        "articles": stats_dict.get(f"{PREFIX}articles", 0),
        "dropped": _sum_prefix(stats_dict, f"{PREFIX}dropped/"),
        "errors": _sum_prefix(stats_dict, f"{PREFIX}errors/"),
    }


class ProgressLogExtension:
    """Every NEWSCRAWL_PROGRESS_INTERVAL seconds, log pages, articles and drops per minute."""

    def __init__(self, stats, interval: float):
        self.stats = stats
        self.interval = interval
        self.task: task.LoopingCall | None = None
        self.last = crawl_totals({})
        self.last_time = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler):
        interval = crawler.settings.getfloat("NEWSCRAWL_PROGRESS_INTERVAL", 60.0)
        if not crawler.settings.getbool("NEWSCRAWL_PROGRESS_ENABLED", True) or interval <= 0:
            raise NotConfigured
        ext = cls(crawler.stats, interval)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.last_time = time.monotonic()
        self.task = task.LoopingCall(self.log)
        self.task.start(self.interval, now=False)

    def log(self) -> None:
        now = time.monotonic()
        totals = crawl_totals(self.stats.get_stats())
        minutes = max(now - self.last_time, 1e-6) / 60
        rates = {k: (totals[k] - self.last[k]) / minutes for k in totals}
        logger.info(
            "Progress: %d pages (%.0f/min), %d articles (%.0f/min), %d dropped (%.0f/min), %d errors",
            totals["pages"], rates["pages"], totals["articles"], rates["articles"],
            totals["dropped"], rates["dropped"], totals["errors"],
        )
        self.last, self.last_time = totals, now

    def spider_closed(self) -> None:
        if self.task and self.task.running:
            self.task.stop()
        self.log()


def _nest(flat: dict) -> dict:
    """{"dropped/list_page": 2, "pages": 5} -> {"dropped": {"list_page": 2}, "pages": 5}."""
    nested: dict = {}
    for key, value in sorted(flat.items()):
        head, _, rest = key.partition("/")
        if rest:
            nested.setdefault(head, {})
            if isinstance(nested[head], dict):
                nested[head][rest] = value
        else:
            nested.setdefault(head, value)
    return nested


def _most_counted(counts: dict) -> str:
    return max(sorted(counts), key=lambda kind: counts[kind])


def stop_reason(summary: dict, close_reason: str) -> str:
    """Why a site stopped, from its counters (see site_summaries)."""
    errors = summary["errors"]
    if summary.get("rejected", {}).get("max_pages") or summary.get("listings", {}).get("cut_at_budget"):
        return "max_pages"
    if errors.get("browser_missing"):
        return "browser_missing"  # render: always without a browser (newscrawl.render)
    if close_reason != "finished":
        return f"crawl_closed:{close_reason}"
    if summary["pages"]:
        return "exhausted"
    counted = {kind: n for kind, n in errors.items() if isinstance(n, int)}
    no_answer = {kind: n for kind, n in counted.items() if not got_response(kind)}
    if not summary.get("responses") and no_answer:
        return f"unreachable:{_most_counted(no_answer)}"
    if summary.get("rejected", {}).get("robots"):
        return "failed:robots"
    return f"failed:{_most_counted(counted)}" if counted else "exhausted"


def site_summaries(stats_dict: dict, close_reason: str) -> dict[str, dict]:
    """Per-site counters with the reason each site stopped (``stopped``).

    ``exhausted``: it ran out of pages to fetch; ``max_pages``: it hit its page budget;
    ``unreachable:<kind>``: no request got an answer (``dns``, ``connection_refused``, ``timeout``...);
    ``failed:robots``: robots.txt forbade its pages; ``failed:<kind>``: it answered, but no page came
    (``http_<status>``, ``timeout``...: the most frequent error); ``browser_missing``;
    ``crawl_closed:<reason>``: the crawl ended first (shutdown...).
    """
    per_site: dict[str, dict] = {}
    for key, value in stats_dict.items():
        if key.startswith(SITE_PREFIX):
            site, _, rest = key[len(SITE_PREFIX):].partition("/")
            per_site.setdefault(site, {})[rest] = value
    summaries = {}
    for site, flat in sorted(per_site.items()):
        summary = {"pages": 0, "articles": 0, "dropped": {}, "errors": {}, **_nest(flat)}
        summary["stopped"] = stop_reason(summary, close_reason)
        summaries[site] = summary
    return summaries


def summary_json(summary: dict) -> str:
    """The summary as JSON with one line per top-level entry and one line per site, which ``grep``
    answers whole. A site of tests/manysites_web.py takes 318 bytes (indented JSON: 557 bytes in 30
    lines), so 3.2 MB at 10,000 such sites."""
    head = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in summary.items() if key != "sites"]
    sites = [f"    {json.dumps(name, ensure_ascii=False)}: "
             f"{json.dumps(figures, ensure_ascii=False, separators=(',', ':'))}"
             for name, figures in summary.get("sites", {}).items()]
    body = ",\n".join([*head, '  "sites": {' + ("\n" + ",\n".join(sites) + "\n  }" if sites else "}")])
    return "{\n" + body + "\n}\n"


def summary_path_for(feed_uri: str | None, spider_name: str, output_dir: Path = Path("output")) -> Path:
    """<output stem>.summary.json next to a local output file, else in ``output_dir``."""
    if feed_uri and "%(" not in feed_uri:
        parts = urlsplit(feed_uri)
        local = parts.path if parts.scheme == "file" else feed_uri if len(parts.scheme) <= 1 else None
        if local and local not in ("-",):
            path = Path(local)
            return path.with_name(f"{path.name.rsplit('.', 1)[0]}.summary.json")
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return output_dir / f"{spider_name}-{stamp}.summary.json"


class SiteSummaryExtension:
    """At the end, write articles, drops by reason, errors and stop reason per site as JSON."""

    def __init__(self, crawler, path: str | None):
        self.crawler = crawler
        self.path = path

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NEWSCRAWL_SUMMARY_ENABLED", True):
            raise NotConfigured
        ext = cls(crawler, crawler.settings.get("NEWSCRAWL_SUMMARY_PATH"))
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def _feed_uri(self) -> str | None:
        feeds = self.crawler.settings.getdict("FEEDS")
        return str(next(iter(feeds))) if feeds else None

    def spider_closed(self, reason: str) -> None:
        stats_dict = self.crawler.stats.get_stats()
        feed_uri = self._feed_uri()
        name = self.crawler.spider.name if self.crawler.spider else "crawl"
        settings = self.crawler.settings
        output_dir = resolve(settings, settings.get("NEWSCRAWL_OUTPUT_DIR", "output"))
        path = resolve(settings, self.path) if self.path else summary_path_for(feed_uri, name, output_dir)
        finished = datetime.now(timezone.utc)
        started = stats_dict.get("start_time")
        summary = {
            "spider": name,
            "close_reason": reason,
            "started_at": started.replace(microsecond=0).isoformat() if started else None,
            "finished_at": finished.replace(microsecond=0).isoformat(),
            "elapsed_seconds": round((finished - started).total_seconds(), 3) if started else None,
            "output": feed_uri,
            "totals": crawl_totals(stats_dict),
            "sites": site_summaries(stats_dict, reason),
        }
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(summary_json(summary), encoding="utf-8")
        except OSError as exc:
            logger.error("cannot write the site summary to %s: %s", path, exc)
            return
        self.crawler.newscrawl_summary_path = path  # named by the end-of-run report (run_report.py)
        logger.info("Site summary written to %s", path)
