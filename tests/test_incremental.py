"""Incremental runs against a mock web that changes between runs (``scrapy crawl`` in subprocesses).

Run 1 emits every article (the syndicated copy marked ``duplicate_of`` the
original); run 2, with nothing new, emits nothing, downloads no article again
and gets 304 for the feeds and start pages; run 3 emits exactly the articles
published since.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from incremental_web import IncrementalWeb
from mockweb import needs_loopback, read_jsonl
from newscrawl.demo import crawl, write_sites_file
from newscrawl.demo.stories import HARBOR, VALLEY

pytestmark = needs_loopback


@dataclass
class Run:
    returncode: int
    stderr: str
    items: list[dict]
    requests: list  # what the web served during this run


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("incremental")
    web = IncrementalWeb().start()
    web.publish_first_edition()
    sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")

    def run(number: int) -> Run:
        before = len(web.requests)
        output = workdir / f"run{number}.jsonl"
        result = crawl(sites, output, settings={"NEWSCRAWL_EXTRACT_WORKERS": 0}, cwd=workdir)
        items = read_jsonl(output) if output.exists() else []
        return Run(result.returncode, result.stderr, items, web.requests[before:])

    try:
        first, second = run(1), run(2)
        new_urls = {web.harbor.publish(HARBOR[5]), web.valley.publish(VALLEY[2])}
        third = run(3)
        yield {"web": web, "runs": (first, second, third), "new": new_urls, "workdir": workdir}
    finally:
        web.stop()


def test_first_run_emits_every_article_once(runs):
    first = runs["runs"][0]
    assert first.returncode == 0, first.stderr[-3000:]
    canonicals = [item["canonical_url"] for item in first.items]
    assert len(canonicals) == len(set(canonicals)) == 8
    assert set(canonicals) == runs["web"].all_urls() - runs["new"]


def test_syndicated_copy_is_marked_near_duplicate(runs):
    first = runs["runs"][0]
    by_title = {item["title"]: item for item in first.items}
    pair = [by_title[HARBOR[0].title], by_title["Cranes are back on the east quay"]]
    assert {item["site"] for item in pair} == {"harbor-news", "valley-post"}
    # whichever copy was emitted first is the original; the other names it
    first_copy, later_copy = sorted(pair, key=lambda item: item["duplicate_of"] is not None)
    assert first_copy["duplicate_of"] is None
    assert later_copy["duplicate_of"] == first_copy["canonical_url"]
    assert sum(1 for item in first.items if item["duplicate_of"]) == 1  # other stories are not flagged


def test_second_run_emits_nothing_and_downloads_no_article_again(runs):
    second = runs["runs"][1]
    assert second.returncode == 0, second.stderr[-3000:]
    assert second.items == []
    assert not [r for r in second.requests if r.path.endswith(".html")]
    assert "'newscrawl/skipped/known': 8" in second.stderr


def test_feeds_and_start_pages_are_refetched_with_validators(runs):
    second = runs["runs"][1]
    listings = [r for r in second.requests if r.path in ("/", "/feed.xml")]
    assert len(listings) == 4  # home page and feed of both sites
    assert all(r.conditional and r.status == 304 for r in listings)


def test_third_run_emits_only_the_new_articles(runs):
    third = runs["runs"][2]
    assert third.returncode == 0, third.stderr[-3000:]
    assert {item["canonical_url"] for item in third.items} == runs["new"]
    assert all(item["duplicate_of"] is None for item in third.items)
    fetched = [r.path for r in third.requests if r.path.endswith(".html")]
    assert sorted(fetched) == sorted(urlsplit(url).path for url in runs["new"])


def test_state_file_is_in_the_default_place(runs):
    workdir: Path = runs["workdir"]
    assert (workdir / ".newscrawl" / "state.sqlite").is_file()
    summary = json.loads((workdir / "run3.summary.json").read_text(encoding="utf-8"))
    assert summary["totals"]["articles"] == 2
