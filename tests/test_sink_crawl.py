"""Article sinks in real crawls of the mock web (tests/incremental_web.py): the SQLite store (on by
default) and PostgreSQL (a server the tests start, tests/pg_cluster.py).

- a crawl writes every article once to each sink, and says so in its report;
- a later run that fetches a changed article updates its row (counted as updated);
- SIGKILL at several points, then a finishing run: each sink holds exactly the uninterrupted set,
  and everything the state recorded is in it;
- a sink that is down at the start: exit 2, one line, no request;
- the PostgreSQL server stopped mid-crawl: exit 74, nothing recorded that PostgreSQL lacks; once it
  is back, the next run completes the set.
"""
from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from incremental_web import IncrementalWeb, crawl_command, crawl_env, kill_group, start_crawl
from mockweb import needs_loopback
from newscrawl.commands.crawl import EXIT_BAD_CONFIG, EXIT_OUTPUT_ERROR
from newscrawl.demo import write_sites_file
from newscrawl.demo.stories import Story

pytestmark = needs_loopback

SLOW = {"CONCURRENT_REQUESTS": "1"}  # one page at a time: articles arrive 0.2 s apart
NO_RECORDING = {"NEWSCRAWL_JSONL_SYNC_SECONDS": "3600", "NEWSCRAWL_JSONL_SYNC_ITEMS": "100000"}
PROMPT_RECORDING = {"NEWSCRAWL_STATE_RECORD_SECONDS": "0"}  # record at every sync (each second)
SINKS = ["sqlite", pytest.param("postgres", marks=pytest.mark.needs_postgres)]


@pytest.fixture
def web():
    served = IncrementalWeb(article_delay=0.2).start()
    served.publish_first_edition()
    yield served
    served.stop()


@pytest.fixture
def pg_server(kind, request):
    """The PostgreSQL server when ``kind`` is postgres, else None."""
    return request.getfixturevalue("postgres") if kind == "postgres" else None


def sink_settings(pg_server) -> dict:
    """Settings for a crawl with the sink under test (the SQLite store is always on)."""
    return {"POSTGRES_URL": pg_server.url} if pg_server is not None else {}


def stored_rows(pg_server, workdir: Path) -> dict[str, str]:
    """canonical URL -> text of every row of the sink under test (PostgreSQL's, else the store's)."""
    query = "SELECT canonical_url, text FROM articles"
    if pg_server is None:
        with sqlite3.connect(workdir / ".newscrawl" / "articles.sqlite") as connection:
            return dict(connection.execute(query).fetchall())
    with pg_server.connect() as connection:
        return dict(connection.execute(query).fetchall())


def recorded(workdir: Path) -> set[str]:
    """Canonical URLs the state recorded as emitted."""
    with sqlite3.connect(workdir / ".newscrawl" / "state.sqlite") as connection:
        return {url for (url,) in connection.execute("SELECT canonical_url FROM articles")}


def run(sites: Path, output: Path, cwd: Path, settings: dict) -> subprocess.CompletedProcess:
    return subprocess.run(crawl_command(sites, output, settings), cwd=cwd, env=crawl_env(), text=True,
                          capture_output=True, timeout=120)


def union(workdir: Path) -> dict[str, str]:
    """canonical URL -> text of every line of every output in ``workdir`` (asserting each appears once)."""
    items = [json.loads(line) for path in sorted(workdir.glob("attempt*.jsonl"))
             for line in path.read_bytes().splitlines()]
    canonicals = [item["canonical_url"] for item in items]
    assert len(canonicals) == len(set(canonicals)), "an article was emitted twice"
    return {item["canonical_url"]: item["text"] for item in items}


def wait_for_lines(process, path: Path, count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists() or len(path.read_bytes().splitlines()) < count:
        assert process.poll() is None, f"crawl ended before writing {count} lines: {process.stderr.read()[-2000:]}"
        assert time.monotonic() < deadline, f"no {count} lines in {path} after {timeout} s"
        time.sleep(0.05)


@pytest.mark.parametrize("kind", SINKS)
def test_a_crawl_writes_every_article_once_and_a_changed_one_is_updated(web, tmp_path, kind, pg_server):
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    settings = sink_settings(pg_server)
    first = run(sites, tmp_path / "attempt1.jsonl", tmp_path, settings)
    assert first.returncode == 0, first.stderr[-3000:]
    assert f"sink {kind}: {len(web.all_urls())} written, 0 updated, 0 failed" in first.stderr
    rows = stored_rows(pg_server, tmp_path)
    assert set(rows) == web.all_urls() and rows == union(tmp_path)

    path, (story, credit) = next(iter(web.harbor.articles.items()))
    changed = Story(story.key, story.date, story.title, story.author,
                    ("The refit overran: the cranes return next spring, the port authority now says. " * 3,))
    web.harbor.articles[path] = (changed, credit)
    # a fresh state (the old one would skip every known URL): every article fetched again, one changed
    again = run(sites, tmp_path / "again.jsonl", tmp_path, {**settings, "STATE_PATH": str(tmp_path / "fresh.sqlite"),
                                                            "ARTICLES_DB": str(tmp_path / ".newscrawl" / "articles.sqlite")})
    assert again.returncode == 0, again.stderr[-3000:]
    assert f"sink {kind}: 0 written, 1 updated, 0 failed" in again.stderr
    rows = stored_rows(pg_server, tmp_path)
    assert set(rows) == web.all_urls()
    assert "cranes return next spring" in rows[web.harbor.base + path]


@pytest.mark.parametrize("kind", SINKS)
def test_sigkill_at_several_points_leaves_exactly_the_uninterrupted_set(web, tmp_path, kind, pg_server):
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    base = {**SLOW, **sink_settings(pg_server)}
    process = start_crawl(sites, tmp_path / "attempt1.jsonl", tmp_path, base)  # killed at start-up
    time.sleep(1.0)
    kill_group(process)
    # killed after 2 lines written, none synced to the sinks or recorded
    process = start_crawl(sites, tmp_path / "attempt2.jsonl", tmp_path, {**base, **NO_RECORDING})
    wait_for_lines(process, tmp_path / "attempt2.jsonl", 2)
    kill_group(process)
    # killed after 2 more lines, committed to the sinks and recorded every second
    process = start_crawl(sites, tmp_path / "attempt3.jsonl", tmp_path, {**base, **PROMPT_RECORDING})
    wait_for_lines(process, tmp_path / "attempt3.jsonl", 2)
    time.sleep(1.5)  # at least one sync: committed and recorded before the kill
    kill_group(process)
    assert recorded(tmp_path) <= set(stored_rows(pg_server, tmp_path))  # nothing recorded the sink lacks
    finished = run(sites, tmp_path / "attempt4.jsonl", tmp_path, base)
    assert finished.returncode == 0, finished.stderr[-3000:]

    assert stored_rows(pg_server, tmp_path) == union(tmp_path)
    assert set(union(tmp_path)) == web.all_urls()


def test_a_sink_down_at_the_start_stops_before_any_request(web, tmp_path):
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    result = run(sites, tmp_path / "attempt1.jsonl", tmp_path, {"POSTGRES_URL": "postgresql://news@127.0.0.1:1/news"})
    assert result.returncode == EXIT_BAD_CONFIG
    lines = [line for line in result.stderr.splitlines() if line.startswith("newscrawl:")]
    assert len(lines) == 1 and lines[0].startswith("newscrawl: article sink postgres: PostgreSQL database news "
                                                   "at 127.0.0.1:1: connection")
    (tmp_path / "store-is-a-directory").mkdir()
    result = run(sites, tmp_path / "attempt1.jsonl", tmp_path, {"ARTICLES_DB": str(tmp_path / "store-is-a-directory")})
    assert result.returncode == EXIT_BAD_CONFIG
    assert "newscrawl: article sink sqlite: the article store" in result.stderr
    assert web.requested() == []
    assert not (tmp_path / "attempt1.jsonl").exists()


@pytest.mark.needs_postgres
def test_the_postgres_server_stopped_mid_crawl_stops_it_cleanly(web, tmp_path, postgres):
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    settings = {**SLOW, **PROMPT_RECORDING, "POSTGRES_URL": postgres.url}
    process = start_crawl(sites, tmp_path / "attempt1.jsonl", tmp_path, settings)
    wait_for_lines(process, tmp_path / "attempt1.jsonl", 2)
    postgres.stop()
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        postgres.start()
    assert process.returncode == EXIT_OUTPUT_ERROR, stderr[-3000:]
    assert "newscrawl: article sink postgres: PostgreSQL database news" in stderr
    assert recorded(tmp_path) <= set(stored_rows(postgres, tmp_path))
    finished = run(sites, tmp_path / "attempt2.jsonl", tmp_path, settings)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert stored_rows(postgres, tmp_path) == union(tmp_path)
    assert set(union(tmp_path)) == web.all_urls()



def test_keeping_only_the_sinks_leaves_no_jsonl_and_survives_a_kill(web, tmp_path):
    """NEWSCRAWL_ONLY_SINKS: no -o, the lines go to a journal beside the state, deleted at a clean end;
    a run killed after writing some is completed by the next, each article once in the store."""
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    command = [part for part in crawl_command(sites, tmp_path / "unused.jsonl", {**SLOW, "NEWSCRAWL_ONLY_SINKS": "1"})
               if part not in ("-o", str(tmp_path / "unused.jsonl"))]
    journal = tmp_path / ".newscrawl" / "sinks.journal.jsonl"
    process = subprocess.Popen(command, cwd=tmp_path, env=crawl_env(), text=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, start_new_session=True)
    wait_for_lines(process, journal, 2)
    kill_group(process)
    finished = subprocess.run(command, cwd=tmp_path, env=crawl_env(), text=True, capture_output=True, timeout=120)
    assert finished.returncode == 0, finished.stderr[-3000:]
    assert set(stored_rows(None, tmp_path)) == web.all_urls()
    assert recorded(tmp_path) == web.all_urls()
    assert not journal.exists() and not list(tmp_path.rglob("*.jsonl"))
    assert re.search(r"^articles written: \d+$", finished.stderr, re.M)  # no file named


def test_keeping_only_the_sinks_with_none_configured_is_refused(web, tmp_path):
    sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
    result = run(sites, tmp_path / "out.jsonl", tmp_path, {"NEWSCRAWL_ONLY_SINKS": "1",
                                                           "NEWSCRAWL_ARTICLES_DB_ENABLED": "0"})
    assert result.returncode == EXIT_BAD_CONFIG
    assert "newscrawl: NEWSCRAWL_ONLY_SINKS is set but no article sink is" in result.stderr
    assert web.requested() == []
