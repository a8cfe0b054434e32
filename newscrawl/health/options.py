"""When the health report calls a site's history a problem: every bound of the judgement, in one place.

These are choices about what is worth a person's look, not measurements; the report prints the ones
it used, and each can be changed on the command line (``python -m newscrawl.health --help``).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HealthOptions:
    # Runs read, newest first (summary files; hourly runs: one day). Bounds the report's cost.
    max_runs: int = 24
    # Runs in a row, up to the latest, in which a site emitted no new article before it is "silent".
    # Three hourly runs: a news site that publishes daily can be quiet at night; three days of
    # daily runs mean the same for one that publishes weekly.
    silent_runs: int = 3
    # Most latest runs pooled for the site's current mean extraction score: from the latest run back
    # until they hold ``min_scored_articles`` (one hourly run often has one or two articles).
    recent_runs: int = 6
    # Earlier runs whose median (counts) or pooled mean (scores) is the site's usual level.
    baseline_runs: int = 10
    # Errors of a kind, or drops of a reason, "jumped" when the latest run counts more than
    # ``jump_factor`` times the usual level and more than ``jump_min_increase`` above it: 6 where
    # there were none, 31 where there were 10.
    jump_factor: float = 3.0
    jump_min_increase: int = 5
    # The mean extraction score (0..1, newscrawl.extract's ``score``) "fell" when the recent mean is
    # this much under the usual one: a redesign that moves the article body out of the extractor's
    # reach yields shorter or link-heavier texts, which score lower. By chance, on one site's articles
    # (cx_bbc, 174 articles scoring 0.95 on average, standard deviation 0.056), a mean of 5 falls this
    # far under the mean of 30 others in 0.02% of draws, a mean of 3 in 0.45%: too often at 10,000
    # sites, hence ``min_scored_articles`` (`python3 benchmarks/health_scores.py`).
    score_fall: float = 0.15
    # Articles each pooled mean (recent and usual) needs to count; with fewer the score is not judged.
    min_scored_articles: int = 5
