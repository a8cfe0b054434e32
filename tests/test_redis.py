"""Two crawlers on one real redis-server share the queue, emit each article once, and both stop.

The test starts ``redis-server`` on a free loopback port (skipped when the
binary is missing, failed instead with NEWSCRAWL_REQUIRE_REDIS=1 as CI sets it), then two
``scrapy crawl news -s REDIS_URL=...`` processes at once against the mock web.
A later crawler on the same Redis emits nothing: the state lives in Redis.
"""
from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest
import redis

from incremental_web import IncrementalWeb, kill_group, loopback_port_free, start_crawl
from mockweb import needs_loopback
from newscrawl.demo import write_sites_file
from newscrawl.store.redis_support import RedisState

pytestmark = [needs_loopback, pytest.mark.needs_redis]


def _start_redis(port: int, workdir: Path) -> subprocess.Popen:
    """redis-server on 127.0.0.1:port without persistence (no RDB snapshots, no append-only file)."""
    server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", str(workdir)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            assert time.monotonic() < deadline and server.poll() is None, "redis-server did not start"
            time.sleep(0.05)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    port = loopback_port_free()
    server = _start_redis(port, tmp_path_factory.mktemp("redis"))
    yield f"redis://127.0.0.1:{port}/0"
    server.kill()
    server.wait()


def _crawl_together(sites: Path, workdir: Path, names: list[str], settings: dict) -> list[list[dict]]:
    processes = [start_crawl(sites, workdir / f"{name}.jsonl", workdir, settings) for name in names]
    outputs = []
    for name, process in zip(names, processes):
        try:
            _, stderr = process.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            _, stderr = process.communicate(timeout=30)
            pytest.fail(f"crawler {name} did not stop by itself; its log ends:\n{stderr[-3000:]}")
        assert process.returncode == 0, stderr[-3000:]
        assert "Shared queue empty and no crawler busy" in stderr
        path = workdir / f"{name}.jsonl"
        outputs.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
                       if path.exists() else [])
    return outputs


def test_two_crawlers_share_one_queue_and_emit_each_article_once(redis_url, tmp_path):
    web = IncrementalWeb(article_delay=0.2).start()
    try:
        web.publish_first_edition()
        # Each crawler has at most 2 requests in flight, so a third article request in flight proves the
        # other crawler took work too, however late it started (CI machines start processes slowly).
        web.hold_articles_until_concurrent(3)
        sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
        # A held request must not time out (the loopback default is 2 s): its retry would be counted
        # beside the abandoned one, and one crawler could open the gate alone (seen on a loaded CI machine).
        # The second crawler must not close as idle while the first still reads the listings that fill the
        # queue: with 2 s it may have, on a slow CI machine, leaving the first to wait out the gate alone.
        settings = {"REDIS_URL": redis_url, "NEWSCRAWL_REDIS_IDLE_SECONDS": "10", "CONCURRENT_REQUESTS": "2",
                    "DOWNLOAD_TIMEOUT": "90"}
        first, second = _crawl_together(sites, tmp_path, ["a", "b"], settings)
        canonicals = [item["canonical_url"] for item in first + second]
        assert sorted(canonicals) == sorted(web.all_urls())  # each article exactly once
        assert first and second  # both crawlers took work from the shared queue
        marked = [item for item in first + second if item["duplicate_of"]]
        assert len(marked) == 1 and marked[0]["duplicate_of"] in canonicals  # the syndicated copy, via Redis
        article_fetches = [r.path for r in web.requests if r.path.endswith(".html")]
        assert len(article_fetches) == 8  # no page fetched by both
        (later,) = _crawl_together(sites, tmp_path, ["later"], settings)
        assert later == []
    finally:
        web.stop()


def test_signatures_of_another_fingerprint_recipe_are_dropped_from_redis(redis_url, caplog):
    import redis

    from newscrawl.demo.stories import HARBOR
    from newscrawl.crawl.fingerprint import NEAR_DUPLICATE_JACCARD, fingerprint_text
    from newscrawl.store.redis_support import RedisState
    from incremental_web import story_record

    client = redis.Redis.from_url(redis_url)
    state = RedisState(client, prefix="recipe-test")
    state.drop_foreign_signatures()  # a fresh prefix: records the recipe
    state.add_articles([story_record(0)])
    copy = fingerprint_text("Republished with permission. " + " ".join(HARBOR[0].paragraphs))
    assert state.near_duplicate_of(copy, NEAR_DUPLICATE_JACCARD) == "http://a.test/" + HARBOR[0].key
    client.set("recipe-test:fingerprint", "an-older-recipe")
    with caplog.at_level(logging.WARNING, logger="newscrawl.store.state"):
        state.drop_foreign_signatures()
    assert "dropped the fingerprints of 1 article(s)" in caplog.text
    assert state.near_duplicate_of(copy, NEAR_DUPLICATE_JACCARD) is None
    assert state.is_known("http://a.test/" + HARBOR[0].key)  # the URL stays known


def test_of_two_similar_articles_claimed_at_once_only_the_later_indexed_is_marked_a_copy(redis_url):
    """Two crawlers each look for near-duplicates before either has claimed its article (the
    race the two-crawler crawl above can hit): after claiming, the one indexed second finds the
    first as the owner of the bands they share; the first finds nothing."""
    import redis

    from newscrawl.demo.stories import HARBOR
    from newscrawl.crawl.fingerprint import NEAR_DUPLICATE_JACCARD, fingerprint_text
    from newscrawl.store.redis_support import RedisState
    from newscrawl.store.state import ArticleRecord

    story = " ".join(HARBOR[0].paragraphs)
    original = ArticleRecord("http://a.test/original", "http://a.test/original", "a", "2026-11-26T00:00:00Z",
                             fingerprint_text(story))
    copy = ArticleRecord("http://b.test/copy", "http://b.test/copy", "b", "2026-11-26T00:00:01Z",
                         fingerprint_text("Republished with permission. " + story))
    first = RedisState(redis.Redis.from_url(redis_url), "race-test", owner="crawler-a")
    second = RedisState(redis.Redis.from_url(redis_url), "race-test", owner="crawler-b")
    assert first.near_duplicate_of(original.fingerprint, NEAR_DUPLICATE_JACCARD) is None
    assert second.near_duplicate_of(copy.fingerprint, NEAR_DUPLICATE_JACCARD) is None   # neither sees the other
    assert first.claim(original) and second.claim(copy)
    assert first.copy_claimed_first(original, NEAR_DUPLICATE_JACCARD) is None
    assert second.copy_claimed_first(copy, NEAR_DUPLICATE_JACCARD) == original.canonical_url
    stored = json.loads(second.redis.hget("race-test:signatures", copy.canonical_url))
    assert stored["duplicate_of"] == original.canonical_url   # copies of the copy follow it to the original


def test_a_redis_restarted_without_persistence_mid_crawl_is_no_finished_crawl(tmp_path):
    """Redis loses the shared queue and state mid-run (killed, restarted empty): the crawler must not
    go idle and close as "finished" with exit 0. Before: it did, its run silently incomplete."""
    from newscrawl.commands.crawl import EXIT_SHARED_STATE_LOST

    port = loopback_port_free()
    server = _start_redis(port, tmp_path)
    web = IncrementalWeb(article_delay=1.0).start()
    crawler = None
    try:
        web.publish_first_edition()
        sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
        settings = {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "NEWSCRAWL_REDIS_IDLE_SECONDS": "2",
                    "CONCURRENT_REQUESTS": "1", "DOWNLOAD_TIMEOUT": "30"}
        crawler = start_crawl(sites, tmp_path / "out.jsonl", tmp_path, settings)
        deadline = time.monotonic() + 60
        while not any(r.path.endswith(".html") for r in web.requests):  # articles queued, one fetched
            assert crawler.poll() is None and time.monotonic() < deadline, "the crawl fetched no article"
            time.sleep(0.05)
        server.kill()
        server.wait()
        server = _start_redis(port, tmp_path)  # back, empty
        try:
            _, stderr = crawler.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            pytest.fail("the crawler did not stop after Redis lost its data")
        assert crawler.returncode == EXIT_SHARED_STATE_LOST, stderr[-3000:]
        lines = stderr.strip().splitlines()
        assert lines[-1] == "exit status 65: the shared state in Redis lost its data; the run is incomplete"
        assert any(line.startswith(f"newscrawl: the Redis at redis://127.0.0.1:{port}/0 lost its data during "
                                   "the crawl") for line in lines), stderr[-3000:]
        assert "'finish_reason': 'redis_data_lost'" in stderr
        assert len([r for r in web.requests if r.path.endswith(".html")]) < len(web.all_urls())
    finally:
        if crawler is not None and crawler.poll() is None:
            kill_group(crawler)
        web.stop()
        server.kill()
        server.wait()


def test_listings_kept_in_redis_are_bounded_and_the_oldest_evicted(redis_url):
    import os

    from newscrawl.store.state import CachedListing

    state = RedisState(redis.Redis.from_url(redis_url), prefix="listing-test", listing_cache_mib=1)
    for number in range(6):  # ~300 KB each of random bytes (they do not compress): 3 fit in 1 MiB
        assert state.save_listing(CachedListing(f"http://a.test/sitemap-{number}.xml", '"v1"', None, "text/xml",
                                                os.urandom(300_000)))
    kept = sorted(key.decode() for key in state.redis.hkeys("listing-test:listings"))
    assert kept == [f"http://a.test/sitemap-{n}.xml" for n in (3, 4, 5)]
    assert state.listing("http://a.test/sitemap-5.xml").etag == '"v1"'
    assert 3 * 300_000 < state.counts()["listing_bytes"] <= 1024 * 1024
    assert not state.save_listing(CachedListing("http://a.test/huge.xml", None, "x", None, os.urandom(2 << 20)))
    assert state.counts()["listings"] == 3


def test_remembered_drops_in_redis_expire_and_are_bounded(redis_url):
    from newscrawl.store.state import RememberedDrop

    state = RedisState(redis.Redis.from_url(redis_url), prefix="drops-test")
    forgotten = state.add_drops([RememberedDrop((f"http://a.test/{n}.html",), "too_short", 1000 + n)
                                 for n in range(12)], max_rows=10)
    assert forgotten == 2 and state.counts()["remembered_drops"] == 10
    assert not state.is_remembered_drop("http://a.test/1.html", since=0)  # the oldest went
    assert state.is_remembered_drop("http://a.test/11.html", since=1011)
    assert not state.is_remembered_drop("http://a.test/11.html", since=1012)  # dropped before the period
