"""The listing bodies kept for conditional requests are bounded (``NEWSCRAWL_LISTING_CACHE_MIB``): the
ones stored longest ago are evicted, and ``state_admin prune`` covers them.

Before: every feed, sitemap and start page with a validator was kept, up to 4 MB each, with no
bound: three runs of 50 sitemaps of 4 MB left a 600 MB state. The crawl test here is that case
scaled down (3 runs of 12 sitemaps of 256 KB that do not compress, a 1 MiB bound);
``benchmarks/listing_cache.py`` runs it at full size.
"""
from __future__ import annotations

import os
import subprocess

from incremental_web import crawl_command, crawl_env
from mockweb import needs_loopback
from sitemapweb import SitemapWeb, state_bytes
from newscrawl.demo import write_sites_file
from newscrawl.store.state import CachedListing, SqliteState
from newscrawl.store.state_admin import main as state_admin

MIB = 1024 * 1024


def _listing(url: str, size: int) -> CachedListing:
    return CachedListing(url, '"v1"', None, "application/xml", os.urandom(size))  # random: does not compress


def _stored(state: SqliteState) -> list[str]:
    return [url for (url,) in state.db.execute("SELECT url FROM listings ORDER BY stored_at, rowid")]


def test_listings_past_the_bound_evict_the_ones_stored_longest_ago(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite", filter_mib=0, listing_cache_mib=1)
    for number in range(6):
        assert state.save_listing(_listing(f"http://a.test/sitemap-{number}.xml", 300_000))
    assert _stored(state) == [f"http://a.test/sitemap-{n}.xml" for n in (3, 4, 5)]  # 3 x ~300 KB fit in 1 MiB
    assert state.listing("http://a.test/sitemap-0.xml") is None
    assert state.listing("http://a.test/sitemap-5.xml").etag == '"v1"'
    assert state.save_listing(_listing("http://a.test/sitemap-3.xml", 300_000))  # replaced: now the newest
    assert _stored(state) == [f"http://a.test/sitemap-{n}.xml" for n in (4, 5, 3)]
    summed = state.db.execute("SELECT sum(length(body)) FROM listings").fetchone()[0]
    assert state.counts()["listing_bytes"] == summed <= MIB  # the running total is the sum
    assert not state.save_listing(_listing("http://a.test/huge.xml", 2 * MIB))  # larger than the whole bound
    assert _stored(state) == [f"http://a.test/sitemap-{n}.xml" for n in (4, 5, 3)]
    state.close()
    reopened = SqliteState(tmp_path / "state.sqlite", filter_mib=0, listing_cache_mib=0.5)
    assert reopened.save_listing(_listing("http://a.test/sitemap-4.xml", 1000))  # replaced first thing after opening
    assert reopened.counts()["listing_bytes"] == reopened.db.execute(
        "SELECT sum(length(body)) FROM listings").fetchone()[0]
    assert reopened.save_listing(_listing("http://a.test/feed.xml", 1000))  # a smaller bound applies at once
    assert _stored(reopened) == [f"http://a.test/{name}.xml" for name in ("sitemap-3", "sitemap-4", "feed")]
    reopened.close()


def test_prune_forgets_old_listings_trims_to_the_bound_and_shrinks_the_file(tmp_path, capsys):
    path = tmp_path / "state.sqlite"
    state = SqliteState(path, filter_mib=0, listing_cache_mib=64)
    for number in range(20):
        state.save_listing(_listing(f"http://a.test/sitemap-{number}.xml", 500_000))
    state.db.execute("UPDATE listings SET stored_at = '2001-01-01T00:00:00+00:00' WHERE url LIKE '%sitemap-1_.xml'")
    state.close()
    before = path.stat().st_size
    assert before > 9 * MIB
    assert state_admin(["prune", "--days", "30", "--listing-cache-mib", "2", "--state", str(path)]) == 0
    out = capsys.readouterr().out
    assert "forgot 0 article(s)" in out and "16 listing body(ies)" in out  # 10 old ones, then 6 over 2 MiB
    state = SqliteState(path, filter_mib=0)
    assert _stored(state) == [f"http://a.test/sitemap-{n}.xml" for n in (6, 7, 8, 9)]
    state.close()
    assert path.stat().st_size < 3 * MIB


@needs_loopback
def test_three_runs_of_large_sitemaps_keep_the_state_under_its_bound(tmp_path):
    count, size, bound_mib = 12, 256 * 1024, 1  # ~2.3 MiB of compressed listings a run, ~7 MiB in three
    web = SitemapWeb(count, size)
    try:
        sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
        path = tmp_path / "state.sqlite"
        sizes = []
        for edition in range(3):
            web.edition = edition
            settings = {"STATE_PATH": str(path), "NEWSCRAWL_LISTING_CACHE_MIB": str(bound_mib),
                        "NEWSCRAWL_MAX_PAGES": "1"}
            result = subprocess.run(crawl_command(sites, tmp_path / f"run{edition}.jsonl", settings), cwd=tmp_path,
                                    env=crawl_env(), text=True, capture_output=True, timeout=180)
            assert result.returncode == 0, result.stderr[-3000:]
            assert f"'newscrawl/conditional/stored': {count}" in result.stderr  # every sitemap was offered
            sizes.append(state_bytes(path))
        state = SqliteState(path, filter_mib=0, listing_cache_mib=bound_mib)
        assert state.counts()["listing_bytes"] <= bound_mib * MIB
        assert {url.split("-")[1] for url in _stored(state)} == {"2"}  # the last edition's sitemaps are the kept ones
        state.close()
        # the bound, one sitemap stored before the oldest goes, the rest of the schema: without the bound
        # the state held every sitemap of the three runs (~7 MiB)
        assert max(sizes) < bound_mib * MIB + size + MIB // 2, sizes
    finally:
        web.stop()
