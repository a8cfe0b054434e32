"""The hourly cycle at scale: N sites of real pages, a first crawl and the next hour's, with the README's commands.

    python benchmarks/hourly_cycle.py [--sites 10000] [--pool 1500] [--keep DIR] [--check]

One asyncio child process serves SITES sites, each on its own loopback address
(127.0.x.y, one port): robots.txt naming a sitemap, a home page announcing an RSS
feed, the feed, the sitemap and 3 articles, real pages of ``../shared/eval``
(20-80 KB each, on which the extractor alone finds an article; their
rel=canonical and og:url tags are removed so each copy is its own article, and
their links point off the site, so only what the site lists is fetched). Pages
are dealt to sites in turn from a pool of POOL pages, and bytes are shared, so the
server's memory does not grow with the sites. Listings carry an ETag and answer
``If-None-Match`` with 304.

Cycle 1 runs the README's server command in a fresh directory, with a job
directory: ``scrapy crawl news -a sites=sites.yaml -s JOBDIR=jobs/news
-s LOG_FILE=logs/news.log`` (state in ``.newscrawl/``, output in ``output/``).
Then every site publishes one more article ("the next hour": listed first in its
feed, sitemap and home page) and cycle 2 runs the same command. Per cycle it
prints: wall time, the requests the server answered by kind (robots, home,
feed, sitemap, new articles, articles of an earlier cycle, 304s, 404s), new
articles emitted vs served, the crawl process's peak RSS and CPU seconds (and
those of its extraction workers together), time from start to the first article line
written, and the log's size. Before the cycles it prints the CPU milliseconds ``extract()``
takes per page while the pool is chosen: the same code's cycles took twice as long on
one machine of this 2-core kind as on another (2026-11-28), and that figure moved with them,
so it tells runs on different machines apart.

Goals (``--check`` exits 1 when one fails): next-hour cycle <= 5 minutes, peak
RSS of the crawl process <= 1 GB, first article <= 30 s, robots.txt requests
<= sites, no article of an earlier cycle fetched again. Without ../shared this
exits 0 with a message.
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import common
from crawl_realpages import _LINK_URL_RE, _META_URL_RE, charset_of
from crawl_scale import _peak_rss_kb, _process_table, _tree_cpu
from loopback_web import free_port, loopback_hosts, serve_hosts

common.use_repo_package()

from newscrawl.demo.run import PROJECT_ROOT, write_sites_file  # noqa: E402  (after the repo package is on the path)
from newscrawl.extract import extract  # noqa: E402  (after the repo package is on the path)

DATASETS = ("cx_bbc", "dragnet", "cleanportaleval", "cx_zh", "fundus-dev", "cleaneval")
FIRST_ARTICLES = 3  # articles of a site in cycle 1; each later cycle adds one
PAGE_BYTES = (20_000, 80_000)  # real pages of this size go into the pool
GOALS = {"next_hour_seconds": 300, "peak_rss_mb": 1024, "first_article_seconds": 30}
KINDS = ("robots", "home", "feed", "sitemap", "article_new", "article_earlier", "not_modified", "not_found")
ROBOTS, HOME, FEED, SITEMAP, NEW, EARLIER, NOT_MODIFIED, NOT_FOUND = range(len(KINDS))
# A real page's own links would lead to 404s here (its site is not served): they point off the site
# instead, so the crawl sees the same links (and link density) but fetches only what the site lists.
_HREF_RE = re.compile(rb"""\bhref\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)""", re.IGNORECASE)
OFFSITE_HREF = b'href="https://elsewhere.example/"'
COMMAND = ["crawl", "news", "-a", "sites=sites.yaml", "-s", "JOBDIR=jobs/news", "-s", "LOG_FILE=logs/news.log"]


@dataclass
class PoolPage:
    raw: bytes  # without rel=canonical / og:url tags
    content_type: str


def load_pool(shared: Path, size: int, timing: list[float] | None = None) -> list[PoolPage]:
    """Up to ``size`` real article pages of 20-80 KB from ../shared/eval, in dataset order.

    With ``timing`` (a list), the CPU seconds of each ``extract()`` made to choose the pages are appended to it.
    """
    score = common.load_score_module(shared)
    pool = []
    for folder in common.datasets_in(shared / "eval", [n for n in DATASETS if (shared / "eval" / n).is_dir()]):
        for row in score.load_dataset(str(folder), None):
            if not PAGE_BYTES[0] <= len(row["raw"]) <= PAGE_BYTES[1]:
                continue
            codec = charset_of(row["raw"], row["html"], score)
            raw = _HREF_RE.sub(OFFSITE_HREF, _META_URL_RE.sub(b"", _LINK_URL_RE.sub(b"", row["raw"])))
            started = time.process_time()
            is_article = extract(raw.decode(codec, "replace"), "http://127.0.0.1/news/story.html").is_article
            if timing is not None:
                timing.append(time.process_time() - started)
            if is_article:
                pool.append(PoolPage(raw, f"text/html; charset={codec}"))
            if len(pool) >= size:
                return pool
    return pool


# --- the loopback web ------------------------------------------------------------------------------

def _head(status: str, content_type: str, length: int, etag: str | None = None) -> bytes:
    tag = f"ETag: {etag}\r\n" if etag else ""
    return (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n{tag}\r\n"
            ).encode("latin-1")


class Site:
    """One site's pages at cycle ``cycle`` (1, 2, ...); built on request from its number."""

    def __init__(self, number: int, base: str, pool: list[PoolPage]):
        self.number, self.base, self.pool = number, base, pool

    def articles(self, cycle: int) -> range:
        return range(FIRST_ARTICLES + cycle - 1)

    def first_new(self, cycle: int) -> int:
        return 0 if cycle == 1 else FIRST_ARTICLES + cycle - 2

    def url(self, article: int) -> str:
        return f"{self.base}/news/2026/story-{self.number}-{article}.html"

    def page(self, article: int) -> PoolPage:
        return self.pool[(self.number * 7 + article) % len(self.pool)]

    def listing(self, path: str, cycle: int) -> tuple[str, bytes] | None:
        newest_first = [self.url(k) for k in reversed(self.articles(cycle))]
        if path == "/robots.txt":
            return "text/plain", f"User-agent: *\nAllow: /\nSitemap: {self.base}/sitemap.xml\n".encode()
        if path == "/":
            links = "".join(f'<li><a href="{u}">Story {n}</a></li>' for n, u in enumerate(newest_first))
            return "text/html; charset=utf-8", (
                f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Site {self.number}</title>'
                '<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head>'
                f"<body><h1>Site {self.number}</h1><ul>{links}</ul></body></html>").encode()
        if path == "/feed.xml":
            items = "".join(f"<item><title>Story {n}</title><link>{escape(u)}</link></item>"
                            for n, u in enumerate(newest_first))
            return "application/rss+xml", (
                f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>Site {self.number}'
                f"</title><link>{self.base}/</link><description>news</description>{items}</channel></rss>").encode()
        if path == "/sitemap.xml":
            locs = "".join(f"<url><loc>{escape(u)}</loc></url>" for u in newest_first)
            return "application/xml", ('<?xml version="1.0" encoding="utf-8"?><urlset xmlns='
                                       f'"http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>').encode()
        return None

    def answer(self, path: str, etag_asked: str | None, cycle: int, counts) -> tuple[bytes, bytes]:
        kind = {"/robots.txt": ROBOTS, "/": HOME, "/feed.xml": FEED, "/sitemap.xml": SITEMAP}.get(path)
        if kind is not None:
            counts[kind] += 1
            etag = f'"{kind}-{cycle if kind != ROBOTS else 0}"'
            if etag_asked == etag:
                counts[NOT_MODIFIED] += 1
                return _head("304 Not Modified", "text/plain", 0, etag), b""
            content_type, body = self.listing(path, cycle)
            return _head("200 OK", content_type, len(body), etag), body
        prefix = f"/news/2026/story-{self.number}-"
        if path.startswith(prefix) and path.endswith(".html") and path[len(prefix):-5].isdigit():
            article = int(path[len(prefix):-5])
            if article in self.articles(cycle):
                counts[NEW if article >= self.first_new(cycle) else EARLIER] += 1
                page = self.page(article)
                return _head("200 OK", page.content_type, len(page.raw)), page.raw
        counts[NOT_FOUND] += 1
        return _head("404 Not Found", "text/plain", 9), b"not found"


def _etag_asked(head: bytes) -> str | None:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"if-none-match":
            return value.strip().decode("latin-1")
    return None


def _server_child(sites: list[Site], hosts: list[str], port: int, cycle, counts, ready) -> None:
    def reply_of(site: Site):
        def reply(path: str, head: bytes) -> bytes:
            reply_head, body = site.answer(path, _etag_asked(head), cycle.value, counts)
            return reply_head + body
        return reply

    asyncio.run(serve_hosts({host: reply_of(site) for site, host in zip(sites, hosts)}, port, ready, with_head=True))


# --- the crawls ------------------------------------------------------------------------------------

@dataclass
class Cycle:
    number: int
    seconds: float
    requests: dict[str, int]
    emitted: int
    served_new: int
    listed_new: int
    peak_rss_mb: float
    workers_rss_mb: float
    first_article: float | None
    log_bytes: int
    exit_code: int
    crawl_cpu: float  # CPU seconds of the crawl process itself (last look, every 0.25 s)
    workers_cpu: float  # CPU seconds of its extraction workers together


def _jsonl_files(workdir: Path) -> set[Path]:
    return set((workdir / "output").glob("*.jsonl"))


def _lines(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def run_cycle(number: int, workdir: Path, sites: int, cycle_value, counts) -> Cycle:
    cycle_value.value = number
    for index in range(len(KINDS)):
        counts[index] = 0
    before = _jsonl_files(workdir)
    log = workdir / "logs" / "news.log"
    log.unlink(missing_ok=True)
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONPATH=str(PROJECT_ROOT))
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "scrapy", *COMMAND], cwd=workdir, env=env,
                               stdout=subprocess.DEVNULL, stderr=(workdir / "logs" / f"stderr-{number}.txt").open("w"))
    first_article = None
    peak = workers_peak = 0
    crawl_cpu, workers_cpu = 0.0, {}
    while process.poll() is None:
        time.sleep(0.25)
        peak = max(peak, _peak_rss_kb(process.pid) or 0)
        tree = _tree_cpu(_process_table(), process.pid)
        crawl_cpu = tree.get(process.pid, crawl_cpu)
        workers_cpu.update((pid, cpu) for pid, cpu in tree.items() if pid != process.pid)
        workers_peak = max(workers_peak, sum(_peak_rss_kb(pid) or 0 for pid in tree if pid != process.pid))
        if first_article is None:
            for path in _jsonl_files(workdir) - before:
                if path.stat().st_size > 0:
                    first_article = time.monotonic() - started
    seconds = time.monotonic() - started
    new_files = _jsonl_files(workdir) - before
    emitted = sum(_lines(path) for path in new_files)
    new_per_site = FIRST_ARTICLES if number == 1 else 1
    return Cycle(number, seconds, dict(zip(KINDS, counts[:])), emitted, counts[NEW], sites * new_per_site,
                 peak / 1024, workers_peak / 1024, first_article, log.stat().st_size if log.exists() else 0,
                 process.returncode, crawl_cpu, sum(workers_cpu.values()))


def print_cycle(cycle: Cycle) -> None:
    label = "cycle 1 (first crawl)" if cycle.number == 1 else f"cycle {cycle.number} (the next hour)"
    first = f"{cycle.first_article:.1f} s" if cycle.first_article is not None else "none"
    print(f"{label}: {cycle.seconds:.0f} s wall, exit {cycle.exit_code}; first article after {first}")
    print("  requests: " + ", ".join(f"{kind} {n}" for kind, n in cycle.requests.items()))
    print(f"  new articles: {cycle.emitted} emitted of {cycle.served_new} served ({cycle.listed_new} listed)")
    print(f"  peak RSS: crawl process {cycle.peak_rss_mb:.0f} MB, extraction workers together "
          f"{cycle.workers_rss_mb:.0f} MB; log {cycle.log_bytes / 1e6:.2f} MB")
    print(f"  CPU: crawl process {cycle.crawl_cpu:.1f} s, extraction workers together {cycle.workers_cpu:.1f} s")


def failed_goals(cycles: list[Cycle], sites: int) -> list[str]:
    problems = []
    last = cycles[-1]
    if last.seconds > GOALS["next_hour_seconds"]:
        problems.append(f"next-hour cycle {last.seconds:.0f} s > {GOALS['next_hour_seconds']} s")
    for cycle in cycles:
        if cycle.exit_code != 0:
            problems.append(f"cycle {cycle.number} exited {cycle.exit_code}")
        if cycle.peak_rss_mb > GOALS["peak_rss_mb"]:
            problems.append(f"cycle {cycle.number} peak RSS {cycle.peak_rss_mb:.0f} MB > {GOALS['peak_rss_mb']} MB")
        if cycle.first_article is None or cycle.first_article > GOALS["first_article_seconds"]:
            problems.append(f"cycle {cycle.number} first article not within {GOALS['first_article_seconds']} s")
        if cycle.requests["robots"] > sites:
            problems.append(f"cycle {cycle.number} fetched robots.txt {cycle.requests['robots']} times for {sites} sites")
        if cycle.requests["article_earlier"]:
            problems.append(f"cycle {cycle.number} fetched {cycle.requests['article_earlier']} known articles again")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", type=int, default=10_000)
    parser.add_argument("--pool", type=int, default=1500, help="real pages dealt to the sites")
    parser.add_argument("--cycles", type=int, default=2)
    parser.add_argument("--shared", help="shared data folder (default ../shared)")
    parser.add_argument("--keep", help="run in this folder and keep it (sites file, state, job, output, log)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal fails")
    options = parser.parse_args(argv)
    shared = common.shared_dir(options.shared)
    common.skip_without_shared(shared)
    extraction_seconds: list[float] = []
    pool = load_pool(shared, options.pool, extraction_seconds)
    hosts = loopback_hosts(options.sites)
    port = free_port(hosts[:50])
    sites = [Site(n, f"http://{host}:{port}", pool) for n, host in enumerate(hosts)]
    print(f"{options.sites} sites on loopback, {len(pool)} real pages of "
          f"{sum(len(p.raw) for p in pool) / len(pool) / 1000:.1f} KB on average; load "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"this machine's speed: extract() takes {1000 * sum(extraction_seconds) / len(extraction_seconds):.2f} ms "
          f"of CPU a page on the {len(extraction_seconds)} pages tried for the pool (compare runs on other machines "
          "by it)")
    cycle_value = multiprocessing.Value("i", 1, lock=False)
    counts = multiprocessing.Array("q", len(KINDS), lock=False)
    parent, child = multiprocessing.Pipe()
    server = multiprocessing.get_context("fork").Process(
        target=_server_child, args=(sites, hosts, port, cycle_value, counts, child), daemon=True)
    server.start()
    if not parent.poll(120) or not parent.recv():
        server.kill()
        raise SystemExit("the loopback web did not start")
    cycles = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(options.keep or tmp)
            (workdir / "logs").mkdir(parents=True, exist_ok=True)
            write_sites_file([{"name": f"site-{n:05d}", "start_urls": [f"{site.base}/"]}
                              for n, site in enumerate(sites)], workdir / "sites.yaml")
            print("command: python -m scrapy " + " ".join(COMMAND))
            for number in range(1, options.cycles + 1):
                cycles.append(run_cycle(number, workdir, options.sites, cycle_value, counts))
                print_cycle(cycles[-1])
                print(f"  load {os.getloadavg()[0]:.1f}", flush=True)
    finally:
        server.kill()
        server.join()
    problems = failed_goals(cycles, options.sites)
    print("goals: " + ("met" if not problems else "NOT met: " + "; ".join(problems)))
    return 1 if options.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
