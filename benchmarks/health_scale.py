"""The site-health report at crawl scale: time, peak memory and page size on synthetic summaries.

    python3 benchmarks/health_scale.py [--sites 10000] [--runs 24]

Writes ``--runs`` hourly summaries of ``--sites`` sites in a temporary folder (0-4 articles a site
and run scoring 0.8; every 97th site silent in the last four runs, every 89th scoring 0.45 in the
last three, so the report has something to list), then runs ``python -m newscrawl.health`` on them
in a process of its own and prints its wall time, peak RSS, the page's size and its summary line.
"""
from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from common import REPO_ROOT

FIRST_RUN = datetime(2026, 11, 1, tzinfo=timezone.utc)
SILENT_EVERY, REDESIGNED_EVERY = 97, 89


def site_entry(index: int, run: int, runs: int, rng: random.Random) -> dict:
    articles = 0 if index % SILENT_EVERY == 0 and run >= runs - 4 else rng.randint(0, 4)
    score = 0.45 if index % REDESIGNED_EVERY == 0 and run >= runs - 3 else 0.8
    return {"pages": articles + 5, "articles": articles, "article_score_sum": round(articles * score, 4),
            "dropped": {"list_page": rng.randint(0, 5), "not_article": rng.randint(0, 2)},
            "errors": {"http_404": rng.randint(0, 1)} if index % 3 else {}, "responses": articles + 7,
            "stopped": "exhausted"}


def write_summaries(folder: Path, sites: int, runs: int) -> None:
    rng = random.Random(1)
    for run in range(runs):
        started = FIRST_RUN + timedelta(hours=run)
        entries = {f"site-{i:05d}": site_entry(i, run, runs, rng) for i in range(sites)}
        summary = {"spider": "news", "close_reason": "finished", "started_at": started.isoformat(),
                   "finished_at": (started + timedelta(minutes=9)).isoformat(), "output": None,
                   "totals": {key: sum(e[key] for e in entries.values()) for key in ("pages", "articles")},
                   "sites": entries}
        (folder / f"news-{started:%Y%m%dT%H%M%SZ}.summary.json").write_text(json.dumps(summary, indent=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=24)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="health-scale-") as temporary:
        folder = Path(temporary)
        write_summaries(folder, options.sites, options.runs)
        size = sum(p.stat().st_size for p in folder.glob("*.summary.json"))
        page = folder / "site-health.html"
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "newscrawl.health", str(folder), "-o", str(page),
                               "--max-runs", str(options.runs)], cwd=REPO_ROOT, capture_output=True, text=True)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"{options.sites:,} sites x {options.runs} runs ({size / 2**20:.0f} MiB of summaries): "
              f"{elapsed:.1f} s, peak RSS {peak_mib:.0f} MiB, page {page.stat().st_size / 1024:.0f} KiB")
        print(done.stdout.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
