"""Rendering throughput and memory: script-built pages through Chromium, 1 and 4 browser contexts.

    python benchmarks/render_speed.py [--pages 300] [--contexts 1 4] [--check] [-s NAME=VALUE ...]

Serves PAGES script-built article pages (newscrawl/demo/scripted.py: an empty
app shell that JavaScript fills with headline, date and paragraphs) on
loopback, split over as many sites as contexts (each render: always site gets
its own browser context), and runs the real ``scrapy crawl news`` once per
context count. While it runs, the resident memory of the whole process tree
(Scrapy, extraction workers, Playwright driver, Chromium and its renderers) is
sampled with psutil, together with how many article pages the server has
handed to the browser. Prints pages/s (first to last article served), the
articles emitted, peak RSS, and the peak RSS up to page 100 against the peak
over pages 100-PAGES (also as PSS, which splits pages shared between processes
among them: the tree's real footprint, but it rises when processes that shared
pages exit). ``--check`` exits 1 when a run is below 8 pages/s or its RSS
grows more than 10% after page 100 (the goals).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from common import use_repo_package

use_repo_package()

from newscrawl.demo import DemoServer, write_sites_file  # noqa: E402
from newscrawl.demo.run import LOOPBACK_SETTINGS, PROJECT_ROOT  # noqa: E402
from newscrawl.demo.scripted import scripted_site  # noqa: E402
from newscrawl.demo.stories import HARBOR, VALLEY, Story  # noqa: E402

GOAL_PAGES_PER_SECOND = 8.0
GOAL_RSS_GROWTH = 0.10  # peak RSS over pages 100-N may exceed the peak up to page 100 by this fraction
RSS_CHECKPOINT = 100  # pages
SAMPLE_SECONDS = 0.5
BENCH_SETTINGS = {"LOG_LEVEL": "INFO", "NEWSCRAWL_PROGRESS_INTERVAL": "30", "NEWSCRAWL_MAX_PAGES": "100000",
                  "DOWNLOAD_TIMEOUT": "30", "PLAYWRIGHT_DEFAULT_NAVIGATION_TIMEOUT": "30000",
                  "NEWSCRAWL_STATE_ENABLED": "0"}
SENTENCES = [s.strip().rstrip(".") + "." for story in (*HARBOR, *VALLEY) for p in story.paragraphs
             for s in p.split(". ") if s.strip()]


def make_stories(count: int, offset: int) -> tuple[Story, ...]:
    """Distinct synthetic stories (sentences of the demo stories, rotated), dated over May 2024."""
    stories = []
    for n in range(offset, offset + count):
        paragraphs = tuple(" ".join(SENTENCES[(n * 7 + p * 3 + k) % len(SENTENCES)] for k in range(3))
                           for p in range(4))
        stories.append(Story(f"story-{n}", f"2024-05-{1 + n % 28:02d}T{n % 24:02d}:00:00+00:00",
                             f"Story number {n}: {SENTENCES[n % len(SENTENCES)][:50]}", "Desk Writer", paragraphs))
    return tuple(stories)


def builders(pages: int, sites: int):
    per_site = [pages // sites + (1 if i < pages % sites else 0) for i in range(sites)]
    offsets = [sum(per_site[:i]) for i in range(sites)]
    return [lambda base, i=i: scripted_site(base, f"app-{i}", f"App {i}", make_stories(per_site[i], offsets[i]))
            for i in range(sites)]


@dataclass
class Sample:
    seconds: float
    pages: int
    rss: int
    pss: int


@dataclass
class RunResult:
    contexts: int
    wall: float
    pages: int
    articles: int
    rendered: int
    samples: list[Sample] = field(default_factory=list)
    first: float = 0.0
    last: float = 0.0
    returncode: int = 0
    cpu_seconds: float = 0.0
    cpu_kinds: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average at start and end

    @property
    def pages_per_second(self) -> float:
        return (self.pages - 1) / (self.last - self.first) if self.last > self.first else 0.0

    def peak(self, low: int, high: int, kind: str = "rss") -> int:
        return max((getattr(s, kind) for s in self.samples if low <= s.pages <= high), default=0)


def tree_cpu(root: psutil.Process, seen: dict[int, tuple[str, float]]) -> None:
    """Record the CPU seconds (user + system) of every process of the tree, by pid, with its kind."""
    for proc in [root, *root.children(recursive=True)]:
        try:
            times = proc.cpu_times()
            kind = proc.name() if proc.pid != root.pid else "scrapy"
        except psutil.Error:
            continue
        seen[proc.pid] = (kind, max(seen.get(proc.pid, ("", 0.0))[1], times.user + times.system))


def cpu_by_kind(seen: dict[int, tuple[str, float]]) -> dict[str, float]:
    kinds: dict[str, float] = {}
    for kind, seconds in seen.values():
        kinds[kind] = kinds.get(kind, 0.0) + seconds
    return dict(sorted(kinds.items(), key=lambda kv: -kv[1]))


def tree_memory(root: psutil.Process) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) over the process and its descendants, in bytes. RSS counts a page
    shared by several processes (Chromium's zygote-forked renderers share much) once per process;
    PSS divides it among them, so the PSS sum is the tree's real footprint."""
    rss = pss = 0
    for proc in [root, *root.children(recursive=True)]:
        try:
            info = proc.memory_full_info()
        except psutil.Error:
            continue
        rss += info.rss
        pss += getattr(info, "pss", info.rss)
    return rss, pss


class ArticleClock:
    """Article pages the server handed out, with the time of the first and the last."""

    def __init__(self, web: DemoServer):
        self.web = web
        self.seen = 0
        self.first = self.last = 0.0
        self.articles = {url.split("/", 3)[3] for site in web.sites for url in site.articles}

    def poll(self) -> int:
        now = time.monotonic()
        with self.web._lock:
            new = [p for _, p in self.web.requests[self.seen:]]
            self.seen = len(self.web.requests)
        hits = sum(1 for p in new if p.lstrip("/") in self.articles)
        if hits:
            self.first = self.first or now
            self.last = now
        return hits


def run(pages: int, contexts: int, overrides: dict[str, str], workdir: Path) -> RunResult:
    web = DemoServer().start(builders=builders(pages, contexts))
    try:
        sites = write_sites_file([s.config for s in web.sites], workdir / "sites.yaml")
        output = workdir / "articles.jsonl"
        settings = {**LOOPBACK_SETTINGS, **BENCH_SETTINGS, "PLAYWRIGHT_MAX_CONTEXTS": str(contexts), **overrides}
        command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"sites={sites}", "-O", str(output)]
        for name, value in settings.items():
            command += ["-s", f"{name}={value}"]
        env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])))
        log = (workdir / "crawl.log").open("w")
        started = time.monotonic()
        child = subprocess.Popen(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
        root = psutil.Process(child.pid)
        clock, served, samples, cpu = ArticleClock(web), 0, [], {}
        load_start = os.getloadavg()[0]
        while child.poll() is None:
            served += clock.poll()
            samples.append(Sample(time.monotonic() - started, served, *tree_memory(root)))
            tree_cpu(root, cpu)
            time.sleep(SAMPLE_SECONDS)
        wall = time.monotonic() - started
        served += clock.poll()
        items = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()] if output.exists() else []
        return RunResult(contexts, wall, served, len(items), sum(1 for i in items if i.get("rendered")), samples,
                         clock.first, clock.last, child.returncode, sum(v for _, v in cpu.values()), cpu_by_kind(cpu),
                         (load_start, os.getloadavg()[0]))
    finally:
        web.stop()


def report(result: RunResult, pages: int) -> list[str]:
    print(f"{result.contexts} context(s): {result.pages} article pages served, {result.articles} articles "
          f"emitted ({result.rendered} rendered), {result.pages_per_second:.1f} pages/s "
          f"(first to last article; {result.wall:.1f} s wall incl. start-up), exit {result.returncode}")
    print(f"  CPU of the process tree: {result.cpu_seconds:.0f} s = {1000 * result.cpu_seconds / max(result.pages, 1):.0f}"
          f" ms/page incl. start-up (so at most {os.cpu_count() * max(result.pages, 1) / max(result.cpu_seconds, 1e-9):.1f}"
          f" pages/s on {os.cpu_count()} idle CPUs); load average {result.load[0]:.1f} -> {result.load[1]:.1f}")
    print("  CPU by process: " + ", ".join(f"{kind} {seconds:.0f} s" for kind, seconds in result.cpu_kinds.items()))
    problems = []
    for kind in ("rss", "pss"):
        before = result.peak(0, RSS_CHECKPOINT, kind)
        after = result.peak(RSS_CHECKPOINT, pages, kind)
        growth = after / before - 1 if before else float("nan")
        print(f"  peak {kind.upper()} of the process tree: {result.peak(0, 10**9, kind) / 2**20:.0f} MiB; up to page "
              f"{RSS_CHECKPOINT}: {before / 2**20:.0f} MiB, pages {RSS_CHECKPOINT}-{pages}: {after / 2**20:.0f} MiB "
              f"({growth:+.1%})")
        if kind == "rss" and not growth <= GOAL_RSS_GROWTH:  # the goal's measure; PSS is shown for insight
            problems.append(f"{result.contexts} context(s): {kind.upper()} grew {growth:+.1%} after page {RSS_CHECKPOINT}")
    if result.pages_per_second < GOAL_PAGES_PER_SECOND:
        problems.append(f"{result.contexts} context(s): {result.pages_per_second:.1f} pages/s < {GOAL_PAGES_PER_SECOND}")
    if result.rendered < pages:
        problems.append(f"{result.contexts} context(s): {result.rendered} of {pages} articles rendered")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--contexts", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--check", action="store_true", help="exit 1 below the goals")
    parser.add_argument("-s", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting for the crawls")
    options = parser.parse_args(argv)
    overrides = dict(item.split("=", 1) for item in options.settings)
    print(f"render_speed: {options.pages} script-built pages, {os.cpu_count()} CPUs, "
          f"settings {overrides or 'defaults'}", flush=True)
    problems = []
    for contexts in options.contexts:
        with tempfile.TemporaryDirectory(prefix="render-speed-") as tmp:
            result = run(options.pages, contexts, overrides, Path(tmp))
            if result.returncode:
                print((Path(tmp) / "crawl.log").read_text()[-3000:], file=sys.stderr)
            problems += report(result, options.pages)
    for line in problems:
        print("GOAL MISSED:", line)
    return 1 if options.check and problems else 0


if __name__ == "__main__":
    sys.exit(main())
