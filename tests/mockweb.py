"""The mock web of the crawl tests: the demo sites served on 127.0.0.x, plus crawl helpers."""
from __future__ import annotations

import datetime
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from newscrawl.demo import DemoServer, crawl, write_sites_file
from newscrawl.demo.server import loopback_works

ITEM_KEYS = ["url", "canonical_url", "site", "title", "published", "text", "html", "lang", "authors",
             "discovered_via", "fetched_at", "score", "rendered", "duplicate_of"]
# Text of page furniture that must never reach an item.
BOILERPLATE = ("All rights reserved", "Please enable JavaScript", "版权所有", "window.dataLayer", "More stories")

needs_loopback = pytest.mark.skipif(not loopback_works(), reason="127.0.0.2+ cannot be bound on this machine")


@dataclass
class CrawlRun:
    web: DemoServer
    returncode: int
    stderr: str
    items: list[dict]
    summary: dict
    output: Path
    workdir: Path  # the crawl's working directory

    def site_summary(self, name: str) -> dict:
        return self.summary["sites"][name]

    def stats(self) -> dict:
        return crawl_stats(self.stderr, self.workdir)


def crawl_stats(stderr: str, cwd: Path | None = None) -> dict:
    """The Scrapy stats a crawl dumped in its log, with the per-site counters read back from the site
    summary file the log names (a relative path is under ``cwd``, the crawl's working directory)."""
    match = re.search(r"Dumping Scrapy stats:\n(\{.*?\})\n\d{4}-", stderr, re.S)
    assert match, stderr[-3000:]
    stats = eval(match.group(1), {"datetime": datetime})  # noqa: S307 (our own crawl's pprint of its stats)
    written = re.search(r"Site summary written to (.+)", stderr)
    if written:
        path = Path(written.group(1).strip())
        summary = json.loads(((cwd or Path.cwd()) / path).read_text(encoding="utf-8"))
        stats.update(site_counters(summary))
    return stats


def site_counters(summary: dict) -> dict:
    """The ``newscrawl/site/<site>/...`` counters a site summary file holds, as the crawl counted them."""
    counters = {}
    for site, figures in summary["sites"].items():
        for head, value in figures.items():
            for rest, count in value.items() if isinstance(value, dict) else [("", value)]:
                counters[f"newscrawl/site/{site}/{head}" + (f"/{rest}" if rest else "")] = count
    return counters


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run_crawl(web: DemoServer, workdir: Path, output: Path | None, settings: dict | None = None,
              args: tuple[str, ...] = ()) -> CrawlRun:
    """Crawl the web's sites from ``workdir``; output None uses the default output path."""
    sites = write_sites_file([s.config for s in web.sites], workdir / "sites.yaml")
    result = crawl(sites, output, settings=settings, cwd=workdir, args=args)
    if output is None:
        found = sorted((workdir / "output").glob("news-*.jsonl"))
        output = found[-1] if found else workdir / "output" / "missing.jsonl"
    summary_path = output.with_name(output.name.rsplit(".", 1)[0] + ".summary.json")
    summary = json.loads(summary_path.read_text(encoding="utf-8")) if summary_path.exists() else {}
    items = read_jsonl(output) if output.exists() else []
    return CrawlRun(web, result.returncode, result.stderr, items, summary, output, workdir)
