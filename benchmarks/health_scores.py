"""How much a steady site's mean extraction score wanders by chance: the ground of the health
report's ``score_fall`` (newscrawl/health/options.py).

    python3 benchmarks/health_scores.py [--dataset cx_bbc] [--draws 100000] [--shared DIR]

Extracts every page of one site's dataset in ../shared/eval (cx_bbc: 175 BBC News articles), then
draws, many times, two disjoint groups of its articles, as the report compares the recent runs'
articles with the usual ones, and prints how far the recent mean falls under the usual one: its
99th and 99.9th percentiles, and the share of draws at or past the report's ``score_fall``.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys

from common import load_score_module, shared_dir, skip_without_shared, use_repo_package

use_repo_package()

from newscrawl.extract import extract  # noqa: E402
from newscrawl.health.options import HealthOptions  # noqa: E402

# (recent, usual) articles: the fewest the report judges (min_scored_articles on both sides), and
# three recent against ten runs of three.
GROUPS = ((3, 30), (5, 5), (5, 30), (8, 30))


def site_scores(dataset) -> list[float]:
    """The extraction score of each page the extractor takes for an article."""
    scores = []
    for page in dataset:
        result = extract(page["html"], page.get("url"))
        if result.score > 0:
            scores.append(float(result.score))
    return scores


def falls(scores: list[float], recent: int, usual: int, draws: int, rng: random.Random) -> list[float]:
    """Usual mean minus recent mean, over ``draws`` pairs of disjoint random groups."""
    found = []
    for _ in range(draws):
        picked = rng.sample(scores, recent + usual)
        found.append(statistics.fmean(picked[recent:]) - statistics.fmean(picked[:recent]))
    return sorted(found)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", default="cx_bbc", help="a dataset of one site's pages")
    parser.add_argument("--draws", type=int, default=100_000)
    parser.add_argument("--shared", help="the shared data folder (default ../shared)")
    options = parser.parse_args()
    shared = shared_dir(options.shared)
    skip_without_shared(shared)
    dataset = load_score_module(shared).load_dataset(str(shared / "eval" / options.dataset))
    scores = site_scores(dataset)
    threshold = HealthOptions().score_fall
    print(f"{options.dataset}: {len(scores)} of {len(dataset)} pages scored as articles; score mean "
          f"{statistics.fmean(scores):.3f}, standard deviation {statistics.pstdev(scores):.3f}")
    rng = random.Random(1)
    for recent, usual in GROUPS:
        found = falls(scores, recent, usual, options.draws, rng)
        def at(share: float, found: list[float] = found) -> float:
            return found[min(len(found) - 1, int(share * len(found)))]
        beyond = sum(1 for fall in found if fall >= threshold) / len(found)
        print(f"{recent} recent vs {usual} usual articles: fall p99 {at(0.99):.3f}, p99.9 {at(0.999):.3f}; "
              f"falls of {threshold:g} or more: {beyond:.4%} of {len(found):,} draws")
    return 0


if __name__ == "__main__":
    sys.exit(main())
