"""Remembered drops: a page judged no article is not fetched again for a while, in a bounded table.

The crawl tests run the real crawl three times over three loopback sites (manysites_web.py) with
one state: a stub at an article-shaped URL is dropped as too short in the first run and not
requested in the second; once the remembered period is over (a period of under a second in the
third run) it is requested again. The same short page at a listing-shaped URL is fetched every run.
"""
from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from manysites_web import STUB, ManySitesWeb
from mockweb import crawl_stats, needs_loopback
from newscrawl.demo import crawl, write_sites_file
from newscrawl.store.incremental import DropMemory, Ledger, is_dead_end
from newscrawl.store.state import RememberedDrop, SqliteState
from newscrawl.store.state_admin import main as state_admin

SITES = 3
SETTINGS = {"NEWSCRAWL_EXTRACT_WORKERS": "0"}
DAY = 86400


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """(paths requested per run, stats per run) of three runs over one state; the third remembers
    drops for 0.5 s only and starts a second after the second run ended."""
    web = ManySitesWeb(SITES).start()
    workdir = tmp_path_factory.mktemp("drops")
    try:
        sites = write_sites_file(web.sites_config(), workdir / "sites.yaml")
        requested, stats = [], []
        for run, extra in enumerate(({}, {}, {"NEWSCRAWL_REMEMBER_DROPS_DAYS": str(0.5 / DAY)}), 1):
            if run == 3:
                time.sleep(1)
            done = crawl(sites, workdir / f"run{run}.jsonl", cwd=workdir, settings={**SETTINGS, **extra})
            assert done.returncode == 0, done.stderr[-3000:]
            requested.append([hit.path for hit in web.hits])
            stats.append(crawl_stats(done.stderr, workdir))
            web.clear()
        yield SimpleNamespace(requested=requested, stats=stats, state=workdir / ".newscrawl" / "state.sqlite")
    finally:
        web.stop()


@needs_loopback
def test_a_page_dropped_as_no_article_is_not_fetched_on_the_next_run(runs):
    first, second, _ = runs.requested
    assert first.count(STUB) == SITES
    assert runs.stats[0]["newscrawl/dropped/too_short"] == 2 * SITES  # the stub and the contact page
    assert runs.stats[0]["newscrawl/state/drops_remembered"] == SITES  # the stub only
    assert STUB not in second
    assert runs.stats[1]["newscrawl/skipped/remembered_drop"] == SITES
    assert runs.stats[1]["newscrawl/site/site-000/skipped/remembered_drop"] == 1


@needs_loopback
def test_a_short_page_at_a_listing_shaped_url_is_fetched_every_run(runs):
    """It may be a section front whose teasers were cut as navigation: new articles are found there."""
    assert [paths.count("/contact.html") for paths in runs.requested] == [SITES] * 3


@needs_loopback
def test_a_remembered_drop_expires(runs):
    assert runs.requested[2].count(STUB) == SITES
    assert "newscrawl/skipped/remembered_drop" not in runs.stats[2]


@needs_loopback
def test_state_admin_shows_the_remembered_drops(runs, capsys):
    assert state_admin(["info", "--state", str(runs.state)]) == 0
    assert '"remembered_drops": 3' in capsys.readouterr().out


# --- the state's table -----------------------------------------------------------------------------


def _drop(number: int, dropped_at: int, reason: str = "too_short") -> RememberedDrop:
    return RememberedDrop((f"https://a.test/{number}.html",), reason, dropped_at)


def test_a_drop_counts_from_its_time_on(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    state.add_drops([_drop(1, 1_000_000)], max_rows=10)
    assert state.is_remembered_drop("https://a.test/1.html", since=1_000_000 - 7 * DAY)
    assert not state.is_remembered_drop("https://a.test/1.html", since=1_000_001)  # older than the period
    assert not state.is_remembered_drop("https://a.test/2.html", since=0)


def test_the_table_keeps_at_most_its_bound_forgetting_the_oldest(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite")
    forgotten = 0
    for batch in range(3):
        forgotten += state.add_drops([_drop(n, 1000 + n) for n in range(batch * 10, batch * 10 + 10)], max_rows=15)
    assert state.counts()["remembered_drops"] == 15
    assert forgotten == 15
    assert not state.is_remembered_drop("https://a.test/14.html", since=0)
    assert state.is_remembered_drop("https://a.test/15.html", since=0)
    state.close()
    reopened = SqliteState(tmp_path / "state.sqlite")  # the bound holds across runs (counted again)
    reopened.add_drops([_drop(100, 5000)], max_rows=15)
    assert reopened.counts()["remembered_drops"] == 15


def test_prune_forgets_expired_drops_and_those_beyond_the_bound(tmp_path, capsys):
    path = tmp_path / "state.sqlite"
    state = SqliteState(path)
    now = int(time.time())
    state.add_drops([_drop(n, now - 10 * DAY) for n in range(4)] + [_drop(n, now - n) for n in range(4, 10)],
                    max_rows=100)
    state.close()
    assert state_admin(["prune", "--days", "90", "--drop-days", "7", "--max-drops", "5", "--state", str(path)]) == 0
    out = capsys.readouterr().out
    assert "5 remembered drop(s)" in out and '"remembered_drops": 5' in out
    reopened = SqliteState(path)
    assert not reopened.is_remembered_drop("https://a.test/9.html", since=0)  # beyond the bound: the oldest
    assert reopened.is_remembered_drop("https://a.test/4.html", since=0)


class _Stats(dict):
    def inc_value(self, key, count=1):
        self[key] = self.get(key, 0) + count


def test_the_ledger_writes_drops_in_batches_and_when_it_closes(tmp_path, monkeypatch):
    monkeypatch.setattr("newscrawl.store.incremental.DROP_BATCH", 3)
    state = SqliteState(tmp_path / "state.sqlite")
    ledger = Ledger(state, _Stats(), 0.8, drop_memory=DropMemory(days=7, max_rows=100))
    for number in range(4):
        ledger.remember_drop((f"https://a.test/{number}.html?utm_source=x", f"https://a.test/{number}.html"),
                             "a", "too_short")
    assert state.counts()["remembered_drops"] == 3  # one batch written, one drop waiting
    assert ledger.is_remembered_drop("https://a.test/0.html")
    ledger.close()
    reopened = SqliteState(tmp_path / "state.sqlite")
    assert reopened.counts()["remembered_drops"] == 4  # canonical URLs: the tracking copy is the same key
    assert Ledger(reopened, _Stats(), 0.8, drop_memory=DropMemory(days=7)).is_remembered_drop("https://a.test/3.html")
    forgetful = Ledger(reopened, _Stats(), 0.8, drop_memory=DropMemory(days=0))
    assert not forgetful.is_remembered_drop("https://a.test/3.html")


@pytest.mark.parametrize("reason, via, kind, remembered", [
    ("too_short", "link", "article", True),
    ("too_short", "sitemap", "unknown", True),
    ("not_article", "feed", "list", True),
    ("too_short", "link", "list", False),  # a listing-shaped page: maybe a section front
    ("too_short", "link", "unknown", False),
    ("no_body", "sitemap", "article", False),  # no content block: a page of bare links
    ("link_page", "sitemap", "article", False),
    ("extract_error", "feed", "article", False),  # a fault, not a verdict on the page
])
def test_only_a_verdict_on_a_page_that_leads_nowhere_is_remembered(reason, via, kind, remembered):
    assert is_dead_end(SimpleNamespace(discovered_via=via, url_kind=kind), reason) is remembered
