"""The block a person reads at the end of a crawl, and the exit status that goes with it.

Printed by the crawl command (newscrawl/commands/crawl.py) after Scrapy's own last lines: articles
written and where, how many sites gave articles, each site that failed and why, where the per-site
summary is, and the exit status with its meaning.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..crawl.failures import kind_in_words
from .progress import site_summaries
from ..store.sinks.fanout import sink_counts
from ..store.sinks.journal import is_journal

# Failed sites named one line each; the others are counted (the summary file has all of them).
MAX_LISTED_FAILURES = 20
# Stop reasons of a site that gave no page (progress.stop_reason), besides browser_missing.
FAILED_PREFIXES = ("unreachable:", "failed:")


def stop_in_words(stopped: str) -> str:
    """A per-site ``stopped`` value in words: ``unreachable:dns`` -> ``unreachable (DNS lookup failed)``."""
    state, _, kind = stopped.partition(":")
    if stopped == "browser_missing":
        return f"not crawled ({kind_in_words(stopped)})"
    return f"{state} ({kind_in_words(kind)})" if kind else state


@dataclass(frozen=True)
class RunReport:
    close_reason: str
    articles: int
    output: str | None
    summary_path: str | None
    sites: dict[str, dict] = field(default_factory=dict)  # progress.site_summaries
    sinks: dict[str, dict[str, int]] = field(default_factory=dict)  # sinks.fanout.sink_counts

    @classmethod
    def from_crawler(cls, crawler) -> RunReport | None:
        """The report of a crawl that ran (None when the spider never opened)."""
        stats = crawler.stats.get_stats()
        close_reason = stats.get("finish_reason")
        if close_reason is None:
            return None
        feeds = crawler.settings.getdict("FEEDS")
        summary_path = getattr(crawler, "newscrawl_summary_path", None)
        return cls(close_reason=close_reason,
                   articles=stats.get("newscrawl/jsonl/lines", stats.get("newscrawl/articles", 0)),
                   output=str(next(iter(feeds))) if feeds and not is_journal(crawler.settings, next(iter(feeds)))
                   else None,
                   summary_path=str(summary_path) if summary_path else None,
                   sites=site_summaries(stats, close_reason), sinks=sink_counts(stats))

    @property
    def failed(self) -> dict[str, str]:
        """Site name -> its stop reason, for the sites that gave no page."""
        return {name: s["stopped"] for name, s in self.sites.items()
                if s["stopped"].startswith(FAILED_PREFIXES) or s["stopped"] == "browser_missing"}

    @property
    def reached_no_site(self) -> bool:
        """True when there were sites and every one was unreachable (no request got an answer)."""
        return bool(self.sites) and all(s["stopped"].startswith("unreachable:") for s in self.sites.values())

    def lines(self, exit_status: int, exit_meaning: str) -> list[str]:
        with_articles = sum(1 for s in self.sites.values() if s.get("articles"))
        failed = self.failed
        lines = [f"--- newscrawl: end of the crawl ({self.close_reason}) ---",
                 f"articles written: {self.articles}" + (f", to {self.output}" if self.output else ""),
                 *(f"sink {name}: {counts['written']} written, {counts['updated']} updated, "
                   f"{counts['failed']} failed" for name, counts in self.sinks.items()),
                 f"sites with articles: {with_articles} of {len(self.sites)}",
                 f"sites that failed: {len(failed)} of {len(self.sites)}"]
        for name, stopped in list(failed.items())[:MAX_LISTED_FAILURES]:
            example = self.sites[name].get("first_failure")
            lines.append(f"  {name}: {stop_in_words(stopped)}" + (f": {example}" if example else ""))
        if len(failed) > MAX_LISTED_FAILURES:
            lines.append(f"  ... and {len(failed) - MAX_LISTED_FAILURES} more (see the per-site summary)")
        lines.append(f"per-site summary: {self.summary_path or 'not written'}")
        lines.append(f"exit status {exit_status}: {exit_meaning}")
        return lines
