"""What each article sink costs a crawl: pages/s with JSONL only, JSONL + the SQLite store, and
JSONL + PostgreSQL, measured in one run.

    python benchmarks/sink_speed.py [--pages 600] [--sites 20] [--rounds 2] [--postgres-url URL] [--check]

The loopback web serves real news pages of ../shared/eval (fundus-dev, realworld-trafilatura,
cleaneval: their raw bytes, each page under one URL, so none is a duplicate of another), spread
over SITES sites with a home page linking them. Each round crawls it three times with the real
``scrapy crawl news``, each run with a state and store of its own, in a rotating order:
``-s NEWSCRAWL_ARTICLES_DB_ENABLED=0`` (JSONL only), the default (JSONL + SQLite store), and
JSONL + PostgreSQL (store off, ``-s POSTGRES_URL``). PostgreSQL is the server at --postgres-url,
else a throwaway one started as the tests do (tests/pg_cluster.py); its tables are dropped before
each of its runs; an untimed JSONL-only crawl comes first (the first crawl of a fresh server is
the slowest). Printed: pages/s and CPU ms per page (crawl process and workers) of each run, then per sink the median over rounds of its
pages/s over the JSONL-only run's, its cost (1 - that), and its CPU per page over the JSONL-only
run's (steadier than wall time when other jobs share the machine). Goal: each sink costs at most 10%.
``--check`` exits 1 when one costs more.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
from pathlib import Path

from common import REPO_ROOT, load_score_module, shared_dir, skip_without_shared, use_repo_package
from loopback_web import free_port, loopback_hosts, serving

use_repo_package()

from newscrawl.demo.run import crawl, write_sites_file  # noqa: E402

GOAL_COST = 0.10  # the goal: a sink costs at most 10% of the crawl's throughput
DATASETS = ("fundus-dev", "realworld-trafilatura", "cleaneval")
SPEED_SETTINGS = {"CONCURRENT_REQUESTS": "64", "CONCURRENT_REQUESTS_PER_DOMAIN": "4", "DOWNLOAD_TIMEOUT": "30",
                  "RETRY_TIMES": "0", "LOG_LEVEL": "INFO", "NEWSCRAWL_PROGRESS_INTERVAL": "30"}
RUNS = {"jsonl": {"NEWSCRAWL_ARTICLES_DB_ENABLED": "0"}, "jsonl+sqlite": {},
        "jsonl+postgres": {"NEWSCRAWL_ARTICLES_DB_ENABLED": "0"}}


def real_pages(shared: Path, limit: int) -> list[bytes]:
    score = load_score_module(shared)
    pages: list[bytes] = []
    for name in DATASETS:
        folder = shared / "eval" / name
        if (folder / "truth.jsonl").is_file():
            pages += [page["raw"] for page in score.load_dataset(str(folder))]
    return pages[:limit]


def build_web(pages: list[bytes], sites: int) -> dict[str, dict[str, tuple[str, bytes]]]:
    web = {}
    for index, host in enumerate(loopback_hosts(sites)):
        routes = {f"/p/{index}/{number}.html": ("text/html", body)
                  for number, body in enumerate(pages[index::sites])}
        links = "".join(f'<li><a href="{path}">Story {n}</a></li>' for n, path in enumerate(routes))
        routes["/"] = ("text/html; charset=utf-8",
                       f"<html><head><title>Site {index}</title></head><body><ul>{links}</ul></body></html>".encode())
        routes["/robots.txt"] = ("text/plain", b"User-agent: *\nAllow: /\n")
        web[host] = routes
    return web


class Postgres:
    """The server PostgreSQL runs use: the given URL, or a throwaway cluster (tests/pg_cluster.py)."""

    def __init__(self, url: str | None):
        self.url, self.cluster, self.folder = url, None, None

    def __enter__(self) -> Postgres:
        if self.url is None:
            sys.path.insert(0, str(REPO_ROOT / "tests"))
            from pg_cluster import PostgresCluster, postgres_available

            if not postgres_available():
                print("no PostgreSQL server binaries or psycopg: the jsonl+postgres runs are skipped")
                return self
            self.folder = tempfile.mkdtemp(prefix="newscrawl-postgres-")
            self.cluster = PostgresCluster(Path(self.folder)).init()
            self.url = self.cluster.url
        return self

    def reset(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute("DROP TABLE IF EXISTS articles, newscrawl_meta")

    def __exit__(self, *_) -> None:
        if self.cluster is not None:
            import shutil

            self.cluster.stop()
            shutil.rmtree(self.folder, ignore_errors=True)


def run_once(sites_file: Path, workdir: Path, name: str, postgres: Postgres) -> dict:
    settings = {**SPEED_SETTINGS, **RUNS[name], "STATE_PATH": str(workdir / f"{name}.state.sqlite")}
    if name == "jsonl+postgres":
        postgres.reset()
        settings["POSTGRES_URL"] = postgres.url
    cpu_before = _children_cpu()
    result = crawl(sites_file, workdir / f"{name}.jsonl", settings=settings, cwd=workdir, timeout=3600)
    cpu = _children_cpu() - cpu_before
    if result.returncode != 0:
        sys.stderr.write(result.stderr[-3000:])
        raise SystemExit(f"the {name} crawl failed with code {result.returncode}")
    summary = json.loads((workdir / f"{name}.summary.json").read_text(encoding="utf-8"))
    pages, elapsed = summary["totals"]["pages"], summary["elapsed_seconds"]
    return {"pages": pages, "articles": summary["totals"]["articles"], "elapsed": elapsed,
            "pages_per_s": pages / elapsed, "cpu_ms": 1000 * cpu / max(pages, 1)}


def _children_cpu() -> float:
    """User + system CPU seconds of finished child processes (the crawl and its extraction workers;
    not the PostgreSQL server, which pg_ctl detaches)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shared", help="the shared data folder (default ../shared)")
    parser.add_argument("--pages", type=int, default=600, help="real pages served (default 600)")
    parser.add_argument("--sites", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three runs; medians are reported")
    parser.add_argument("--postgres-url", help="a PostgreSQL database to write to (its articles table is dropped)")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="skip the untimed JSONL-only crawl before the rounds")
    parser.add_argument("--check", action="store_true", help=f"exit 1 when a sink costs more than {GOAL_COST:.0%}")
    options = parser.parse_args(argv)
    shared = shared_dir(options.shared)
    skip_without_shared(shared)
    pages = real_pages(shared, options.pages)
    web = build_web(pages, options.sites)
    hosts = list(web)
    port = free_port(hosts)
    configs = [{"name": f"site-{i}", "start_urls": [f"http://{host}:{port}/"], "max_depth": 1}
               for i, host in enumerate(hosts)]
    print(f"loopback web: {len(hosts)} sites, {len(pages)} real pages, {sum(map(len, pages)) / 1e6:.1f} MB")
    ratios: dict[str, list[float]] = {"jsonl+sqlite": [], "jsonl+postgres": []}
    cpu_ratios: dict[str, list[float]] = {"jsonl+sqlite": [], "jsonl+postgres": []}
    with tempfile.TemporaryDirectory() as tmp, serving(web, port), Postgres(options.postgres_url) as postgres:
        names = [name for name in RUNS if name != "jsonl+postgres" or postgres.url]
        sites_file = write_sites_file(configs, Path(tmp) / "sites.yaml")
        if options.warm_up:  # the first crawl of a fresh server and fresh workers is the slowest
            (Path(tmp) / "warm-up").mkdir()
            run_once(sites_file, Path(tmp) / "warm-up", "jsonl", postgres)
        print(f"{'round':5} {'run':16} {'pages':>6} {'articles':>8} {'seconds':>8} {'pages/s':>8} {'CPU ms/page':>11}")
        for number in range(1, options.rounds + 1):
            workdir = Path(tmp) / f"round-{number}"
            workdir.mkdir()
            order = names[number - 1:] + names[:number - 1]  # each run first in one round
            runs = {name: run_once(sites_file, workdir, name, postgres) for name in order}
            for name in order:
                run = runs[name]
                print(f"{number:5d} {name:16} {run['pages']:6d} {run['articles']:8d} {run['elapsed']:8.1f} "
                      f"{run['pages_per_s']:8.1f} {run['cpu_ms']:11.1f}", flush=True)
            for name in names[1:]:
                ratios[name].append(runs[name]["pages_per_s"] / runs["jsonl"]["pages_per_s"])
                cpu_ratios[name].append(runs[name]["cpu_ms"] / runs["jsonl"]["cpu_ms"])
    failed = False
    for name, values in ratios.items():
        if not values:
            continue
        ratio = statistics.median(values)
        cost = 1 - ratio
        failed |= cost > GOAL_COST
        print(f"{name}: {ratio:.3f} of JSONL only's pages/s (median of {len(values)}; rounds: "
              f"{', '.join(f'{value:.3f}' for value in values)}), cost {cost:+.1%} (goal <= {GOAL_COST:.0%}); "
              f"CPU per page {statistics.median(cpu_ratios[name]):.3f} of JSONL only's")
    return 1 if options.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
