"""Stats keys of the crawl, counted crawl-wide and per site.

``newscrawl/<key>`` holds the crawl total and ``newscrawl/site/<site>/<key>``
the share of one site (read back by the per-site summary).
"""
from __future__ import annotations

PREFIX = "newscrawl/"
SITE_PREFIX = "newscrawl/site/"


def count(stats, key: str, site: str | None = None, value: float = 1) -> None:
    stats.inc_value(f"{PREFIX}{key}", value)
    if site:
        stats.inc_value(f"{SITE_PREFIX}{site}/{key}", value)


def site_stats(stats_dict: dict, site: str) -> dict[str, int]:
    """The per-site counters of ``site``, keyed without the site prefix."""
    prefix = f"{SITE_PREFIX}{site}/"
    return {k[len(prefix):]: v for k, v in stats_dict.items() if k.startswith(prefix)}
