"""``python -m newscrawl.demo`` run twice, as a new user would: its own files, the same articles each time.

The first run also logs at DEBUG to a file: no line of it may carry a page (a dropped page used to be
logged with its whole HTML).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mockweb import needs_loopback, read_jsonl
from newscrawl.demo.run import PROJECT_ROOT

pytestmark = needs_loopback
MAX_LOG_LINE_CHARS = 2000  # a log line longer than this is carrying content, not saying what happened


def _demo(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "newscrawl.demo", *args], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=300)


def _article_set(items: list[dict]) -> set[tuple]:
    """What an article is, whatever port the demo sites got this time. By canonical URL: which copy of a
    page that has two (Valley Ledger's print edition) is fetched first changes from run to run."""
    return {(item["site"], urlsplit(item["canonical_url"]).path, item["title"], item["published"], item["text"])
            for item in items}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("demo")
    debug_log = workdir / "debug.log"
    first = _demo(workdir, "-s", "LOG_LEVEL=DEBUG", "-s", f"LOG_FILE={debug_log}")
    first_items = read_jsonl(workdir / "output" / "demo" / "articles.jsonl") if first.returncode == 0 else []
    second = _demo(workdir)
    return workdir, debug_log, first, first_items, second


def test_demo_keeps_its_files_under_output_demo(runs):
    workdir, _, first, _, second = runs
    assert first.returncode == 0, first.stderr[-3000:]
    assert second.returncode == 0, second.stderr[-3000:]
    demo = workdir / "output" / "demo"
    assert (demo / "articles.jsonl").is_file() and (demo / "articles.summary.json").is_file()
    assert (demo / "state.sqlite").is_file()
    assert not (workdir / ".newscrawl").exists()  # the real crawl's state is never touched
    assert sorted(p.name for p in workdir.iterdir()) == ["debug.log", "output"]


def test_every_demo_run_gives_the_same_articles(runs):
    workdir, _, _, first_items, second = runs
    second_items = read_jsonl(workdir / "output" / "demo" / "articles.jsonl")
    assert len(first_items) == 16
    assert _article_set(second_items) == _article_set(first_items)
    assert all(item["duplicate_of"] is None for item in first_items + second_items)
    summary = json.loads((workdir / "output" / "demo" / "articles.summary.json").read_text(encoding="utf-8"))
    assert summary["totals"]["articles"] == 16
    assert not any(site.get("near_duplicates") for site in summary["sites"].values())


def test_demo_ends_with_the_crawl_report(runs):
    workdir, _, _, _, second = runs
    lines = second.stderr.rstrip("\n").splitlines()
    assert lines[-7:] == ["--- newscrawl: end of the crawl (finished) ---",
                          f"articles written: 16, to {workdir / 'output' / 'demo' / 'articles.jsonl'}",
                          "sink sqlite: 16 written, 0 updated, 0 failed",
                          "sites with articles: 3 of 3", "sites that failed: 0 of 3",
                          f"per-site summary: {workdir / 'output' / 'demo' / 'articles.summary.json'}",
                          "exit status 0: the crawl ran"]


def test_no_debug_log_line_carries_a_page(runs):
    _, debug_log, _, _, _ = runs
    lines = debug_log.read_text(encoding="utf-8").splitlines()
    assert any(" Dropped http" in line for line in lines) and any(" Scraped http" in line for line in lines)
    longest = max(lines, key=len)
    assert len(longest) <= MAX_LOG_LINE_CHARS, longest[:300]
    assert not any("<html" in line.lower() or "<!doctype" in line.lower() for line in lines)


def test_the_crawl_runs_on_pythons_own_event_loop(runs):
    """Scrapy names the asyncio loop under its reactor at DEBUG: Python's selector loop, which
    newscrawl/settings.py names (uvloop's lost connection resets: tests/test_crawl_resets.py), and the
    demo's articles all came out on it."""
    _, debug_log, first, first_items, _ = runs
    assert first.returncode == 0, first.stderr[-3000:]
    loops = re.findall(r"Using asyncio event loop: (\S+)", debug_log.read_text(encoding="utf-8"))
    assert loops == ["asyncio.unix_events._UnixSelectorEventLoop"]
    assert first_items
