"""A long crawl over many sites: pages/s and peak RSS at 10% and 100%, with and without the state.

    python benchmarks/crawl_scale.py [--sites 1000] [--sections 5] [--articles 10] [--check]

Serves a loopback web of SITES sites, each on its own address (127.0.x.y, one
port) with a home page, SECTIONS section pages and SECTIONS x ARTICLES
article pages (~3 KB, distinct random text), generated on request by one
asyncio child process that counts the pages it served. Then runs the real
``scrapy crawl news`` over all of it twice: with the incremental state (a
fresh SQLite file, near-duplicate fingerprints, durable JSONL) and with
``NEWSCRAWL_STATE_ENABLED=0``. For each run it samples the crawl process's
VmHWM (peak RSS) from /proc, and prints pages/s and the peak RSS once 10% of
the pages were served and at the end.

Before them an untimed crawl of the home pages only (``--no-warm-up`` skips it) opens
every host of the fresh server once and loads what a first crawl loads: otherwise the
run with the state, which goes first, would be the only one to pay for that (with
crawl_speed.py's smaller web the first crawl of a fresh server was always the slowest).

``--pairs N`` makes N pairs of runs, the order alternating within a pair, and checks
the median of the pairs' ratios.

Goals: peak RSS at the end <= 1.3 x peak RSS at 10%, and the state
run's pages/s >= 0.9 x the run without state. ``--check`` exits 1 when missed.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from common import use_repo_package
from loopback_web import answer_requests, free_port, loopback_hosts, random_sentence

use_repo_package()

from newscrawl.demo.run import PROJECT_ROOT, write_sites_file  # noqa: E402

RSS_GOAL = 1.3  # peak RSS at 100% / at 10%
THROUGHPUT_GOAL = 0.9  # pages/s with state / without
SCALE_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "0",
    "DOWNLOAD_DELAY": "0",
    "CONCURRENT_REQUESTS": "64",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "4",
    "DOWNLOAD_TIMEOUT": "30",
    "RETRY_TIMES": "0",
    "LOG_LEVEL": "INFO",
    "NEWSCRAWL_PROGRESS_INTERVAL": "60",
    "NEWSCRAWL_MAX_DEPTH": "2",
}
def _html(title: str, body: str, og_type: str) -> bytes:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
            f'<meta property="og:type" content="{og_type}"></head><body><header><nav><a href="/">Home</a>'
            f"</nav></header><main>{body}</main><footer><p>Copyright</p></footer></body></html>").encode()


def page(site: int, path: str, sections: int, articles: int) -> tuple[str, bytes] | None:
    """(content type, body) of a page of the loopback web, or None for 404."""
    if path == "/robots.txt":
        return "text/plain", b"User-agent: *\nAllow: /\n"
    if path == "/":
        links = "".join(f'<li><a href="/s/{k}/">Section {k}</a></li>' for k in range(sections))
        return "text/html; charset=utf-8", _html(f"Site {site}", f"<ul>{links}</ul>", "website")
    parts = path.strip("/").split("/")
    if len(parts) == 2 and parts[0] == "s" and parts[1].isdigit() and int(parts[1]) < sections:
        section = int(parts[1])
        links = "".join(f'<li><a href="/a/2024/05/{section * articles + n + 10000}.html">Story {n}</a></li>'
                        for n in range(articles))
        return "text/html; charset=utf-8", _html(f"Section {section}", f"<ul>{links}</ul>", "website")
    if len(parts) == 4 and parts[0] == "a" and parts[3].endswith(".html"):
        number = int(parts[3][:-5]) - 10000
        if not 0 <= number < sections * articles:
            return None
        rng = random.Random(site * 1_000_003 + number)
        title = f"Site {site} story {number}: {random_sentence(rng)[:50]}"
        paragraphs = "".join("<p>" + " ".join(random_sentence(rng) for _ in range(4)) + "</p>" for _ in range(4))
        body = (f'<article><h1>{title}</h1><time datetime="2024-05-{1 + number % 28:02d}T08:00:00Z">'
                f"May {1 + number % 28}</time>{paragraphs}</article>")
        return "text/html; charset=utf-8", _html(title, body, "article")
    return None


def _response(reply: tuple[str, bytes] | None) -> bytes:
    if reply is None:
        return b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"
    content_type, body = reply
    return f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body


async def _serve(hosts: list[str], port: int, sections: int, articles: int, served, ready) -> None:
    for index, host in enumerate(hosts):
        def reply(path, site=index):
            if path != "/robots.txt":
                served.value += 1
            return _response(page(site, path, sections, articles))

        async def handle(reader, writer, reply=reply):
            await answer_requests(reader, writer, reply)

        await asyncio.start_server(handle, host, port, backlog=256)
    ready.send(True)
    await asyncio.Event().wait()


def _server_child(hosts, port, sections, articles, served, ready) -> None:
    asyncio.run(_serve(hosts, port, sections, articles, served, ready))


@dataclass
class Run:
    label: str
    pages: int
    articles: int
    seconds: float
    rss_10: int  # peak RSS (kB) when 10% of the pages were served
    rss_end: int  # peak RSS (kB) at the end
    crawl_cpu: float  # CPU seconds of the crawl process and its descendants (extraction workers)
    main_cpu: float  # CPU seconds of the crawl process alone
    # (both from the last /proc reading, <= 0.25 s before the end)
    server_cpu: float  # CPU seconds of the loopback web's process during the crawl

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds

    @property
    def crawl_cpu_ms(self) -> float:
        return 1000 * self.crawl_cpu / max(self.pages, 1)

    @property
    def main_cpu_ms(self) -> float:
        return 1000 * self.main_cpu / max(self.pages, 1)

    @property
    def server_cpu_ms(self) -> float:
        return 1000 * self.server_cpu / max(self.pages, 1)


def _peak_rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def proc_stat(pid: int | str) -> tuple[int, float] | None:
    """(parent pid, CPU seconds used so far: utime + stime) of one process, from /proc; None when it
    is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # exited meanwhile
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _process_table() -> dict[int, tuple[int, float]]:
    """pid -> (parent pid, CPU seconds used so far: utime + stime) of every process, from /proc."""
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = proc_stat(entry)
            if stat is not None:
                table[int(entry)] = stat
    return table


def _tree_cpu(table: dict[int, tuple[int, float]], root: int) -> dict[int, float]:
    """CPU seconds of ``root`` and each of its descendants (the crawl's forkserver and its workers)."""
    found, frontier = {}, [root]
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    while frontier:
        pid = frontier.pop()
        if pid in table:
            found[pid] = table[pid][1]
            frontier += children.get(pid, [])
    return found


def run_crawl(label: str, sites_file: Path, workdir: Path, settings: dict, served, total_pages: int,
              server_pid: int) -> Run:
    output = workdir / f"{label.replace(' ', '-')}.jsonl"
    command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"sites={sites_file}", "-O", str(output)]
    for name, value in {**SCALE_SETTINGS, **settings}.items():
        command += ["-s", f"{name}={value}"]
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONPATH=str(PROJECT_ROOT))
    served.value = 0
    server_cpu = _process_table()[server_pid][1]
    log = (workdir / f"{label.replace(' ', '-')}.log").open("w")
    process = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    rss_10 = rss_end = 0
    tree_cpu: dict[int, float] = {}  # last CPU reading of the crawl process and of each descendant
    while process.poll() is None:
        table = _process_table()
        tree_cpu.update(_tree_cpu(table, process.pid))
        peak = _peak_rss_kb(process.pid)
        if peak:
            rss_end = max(rss_end, peak)
            if not rss_10 and served.value >= total_pages // 10:
                rss_10 = peak
        time.sleep(0.25)
    server_cpu = _process_table()[server_pid][1] - server_cpu
    main_cpu = tree_cpu.pop(process.pid, 0.0)
    crawl_cpu = main_cpu + sum(tree_cpu.values())
    log.close()
    if process.returncode != 0:
        raise SystemExit(f"crawl '{label}' failed with code {process.returncode}; see {log.name}")
    summary = json.loads(output.with_name(output.stem + ".summary.json").read_text(encoding="utf-8"))
    run = Run(label, summary["totals"]["pages"], summary["totals"]["articles"], summary["elapsed_seconds"],
              rss_10, rss_end, crawl_cpu, main_cpu, server_cpu)
    print(f"{run.label}: {run.pages} pages in {run.seconds:.1f} s, {run.pages_per_s:.1f} pages/s, peak RSS "
          f"{run.rss_10 / 1024:.0f} MB at 10%, {run.rss_end / 1024:.0f} MB at 100%; CPU per page "
          f"{run.crawl_cpu_ms:.2f} ms crawl and workers ({run.main_cpu_ms:.2f} ms crawl process), "
          f"{run.server_cpu_ms:.2f} ms loopback web", flush=True)
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sites", type=int, default=1000)
    parser.add_argument("--sections", type=int, default=5)
    parser.add_argument("--articles", type=int, default=10, help="articles per section")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                        help="skip the untimed crawl of the home pages before the runs")
    parser.add_argument("--pairs", type=int, default=1,
                        help="pairs of runs, the order alternating (with the state first in the first pair); "
                             "the median of the pairs' ratios is reported")
    options = parser.parse_args(argv)
    hosts = loopback_hosts(options.sites)
    port = free_port(hosts)
    per_site = 1 + options.sections * (1 + options.articles)
    total_pages = per_site * options.sites
    print(f"loopback web: {options.sites} sites x {per_site} pages = {total_pages} pages "
          f"({options.sites * options.sections * options.articles} articles)", flush=True)
    context = multiprocessing.get_context("fork")
    served = context.Value("q", 0, lock=False)
    parent, child = context.Pipe()
    server = context.Process(target=_server_child, daemon=True,
                             args=(hosts, port, options.sections, options.articles, served, child))
    server.start()
    if not parent.poll(120) or not parent.recv():
        raise SystemExit("loopback web did not start")
    configs = [{"name": f"site-{i}", "start_urls": [f"http://{host}:{port}/"]} for i, host in enumerate(hosts)]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            workdir = Path(tmp)
            sites_file = write_sites_file(configs, workdir / "sites.yaml")
            if options.warm_up:
                run_crawl("warm-up", sites_file, workdir, {"NEWSCRAWL_STATE_ENABLED": "0", "NEWSCRAWL_MAX_DEPTH": "0"},
                          served, options.sites, server.pid)
            pairs = []
            for number in range(1, options.pairs + 1):
                order = (True, False) if number % 2 else (False, True)  # with the state first in odd pairs
                runs = {state: _run_pair_half(state, number, sites_file, workdir, served, total_pages,
                                               server.pid)
                        for state in order}
                pairs.append((runs[True], runs[False]))
    finally:
        server.kill()
    print(f"{'run':18} {'pages':>6} {'articles':>8} {'seconds':>8} {'pages/s':>8} {'RSS@10%':>9} {'RSS@100%':>9} "
          f"{'ratio':>6} {'CPU ms/page':>11}")
    for run in (run for pair in pairs for run in pair):
        print(f"{run.label:18} {run.pages:6d} {run.articles:8d} {run.seconds:8.1f} {run.pages_per_s:8.1f} "
              f"{run.rss_10 / 1024:7.0f}MB {run.rss_end / 1024:7.0f}MB {run.rss_end / max(run.rss_10, 1):6.2f} {run.crawl_cpu_ms:11.2f}")
    ratios = [with_state.pages_per_s / without.pages_per_s for with_state, without in pairs]
    throughput = statistics.median(ratios)
    rss_ratio = max(run.rss_end / max(run.rss_10, 1) for pair in pairs for run in pair)
    print(f"pages/s with state / without: {throughput:.2f} (goal >= {THROUGHPUT_GOAL}"
          + (f"; median of pairs {', '.join(f'{r:.2f}' for r in ratios)}" if len(ratios) > 1 else "")
          + f"); peak RSS end / 10%: {rss_ratio:.2f} (goal <= {RSS_GOAL})")
    missed = throughput < THROUGHPUT_GOAL or rss_ratio > RSS_GOAL
    return 1 if options.check and missed else 0


def _run_pair_half(state: bool, number: int, sites_file: Path, workdir: Path, served, total_pages: int,
                   server_pid: int) -> Run:
    """One crawl of a pair: with a fresh state file of its own, or with the state off."""
    suffix = f" #{number}" if number > 1 else ""
    if state:
        return run_crawl(f"with state{suffix}", sites_file, workdir,
                         {"STATE_PATH": str(workdir / f"state-{number}.sqlite")}, served, total_pages, server_pid)
    return run_crawl(f"without state{suffix}", sites_file, workdir, {"NEWSCRAWL_STATE_ENABLED": "0"},
                     served, total_pages, server_pid)


if __name__ == "__main__":
    sys.exit(main())
