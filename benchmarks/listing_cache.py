"""Size of the incremental state after runs over large sitemaps that change every run.

    python benchmarks/listing_cache.py [--runs 3] [--sitemaps 50] [--size 4000000] [--bound-mib M] [--check]

One loopback site (``tests/sitemapweb.py``) lists ``--sitemaps`` sitemaps of ``--size`` bytes in its
robots.txt, new URLs every run, each with an ETag, so the crawl keeps every one it may for
conditional requests. The crawl runs ``--runs`` times on one state; after each run the state's bytes
on disk (file, write-ahead log, shared memory) are printed. ``--bound-mib`` sets
NEWSCRAWL_LISTING_CACHE_MIB (default: the project's); a large value shows the unbounded growth.
``--check`` exits 1 when the state passed GOAL_MB.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "tests"))

from incremental_web import crawl_command, crawl_env  # noqa: E402
from newscrawl.demo import write_sites_file  # noqa: E402
from sitemapweb import SitemapWeb, state_bytes  # noqa: E402

GOAL_MB = 50  # the state after three runs of 50 sitemaps of 4 MB stays below this (MB of 10^6 bytes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sitemaps", type=int, default=50)
    parser.add_argument("--size", type=int, default=4_000_000, help="bytes of each sitemap")
    parser.add_argument("--bound-mib", type=float, help="NEWSCRAWL_LISTING_CACHE_MIB (default: the project's)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when the state passed {GOAL_MB} MB")
    options = parser.parse_args()
    web = SitemapWeb(options.sitemaps, options.size)
    largest = 0
    try:
        with tempfile.TemporaryDirectory(prefix="listing-cache-") as folder:
            workdir = Path(folder)
            sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")
            state = workdir / "state.sqlite"
            settings = {"STATE_PATH": str(state), "NEWSCRAWL_MAX_PAGES": "1",
                        "NEWSCRAWL_MAX_SITEMAPS": str(options.sitemaps), "DOWNLOAD_TIMEOUT": "120"}
            if options.bound_mib is not None:
                settings["NEWSCRAWL_LISTING_CACHE_MIB"] = str(options.bound_mib)
            for run in range(options.runs):
                web.edition = run
                started = time.monotonic()
                result = subprocess.run(crawl_command(sites, workdir / f"run{run}.jsonl", settings), cwd=workdir,
                                        env=crawl_env(), text=True, capture_output=True, timeout=1800)
                if result.returncode != 0:
                    print(result.stderr[-3000:], file=sys.stderr)
                    return 2
                size = state_bytes(state)
                largest = max(largest, size)
                stored = re.search(r"'newscrawl/conditional/stored': (\d+)", result.stderr)
                print(f"run {run + 1}: {stored.group(1) if stored else 0} of {options.sitemaps} sitemaps offered to "
                      f"the cache, state {size / 1e6:.1f} MB ({time.monotonic() - started:.0f} s)")
    finally:
        web.stop()
    print(f"largest state: {largest / 1e6:.1f} MB (goal < {GOAL_MB} MB)")
    return 1 if options.check and largest >= GOAL_MB * 1e6 else 0


if __name__ == "__main__":
    sys.exit(main())
