"""The scheduler's priority queue at many hosts: a fixed number of open files on disk, a per-request
cost that does not grow with the hosts, hosts and priority levels taking turns, and a resumable disk queue."""
from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.squeues import FifoMemoryQueue, LifoMemoryQueue, PickleFifoDiskQueue, PickleLifoDiskQueue
from scrapy.utils.test import get_crawler

from newscrawl.hostqueue import BUSY_PROBES, HostTurnsQueue
from newscrawl.scheduler import memory_first


class CountingSlots(dict):
    """The downloader's slots (host -> slot), counting how many are looked up."""

    looked_up = 0

    def get(self, key, default=None):
        self.looked_up += 1
        return super().get(key, default)

    def __getitem__(self, key):
        self.looked_up += 1
        return super().__getitem__(key)

    def __contains__(self, key):
        self.looked_up += 1
        return super().__contains__(key)


def _crawler():
    crawler = get_crawler()
    slots = CountingSlots()
    downloader = SimpleNamespace(slots=slots, get_slot_key=lambda request: request.url.split("/")[2])
    crawler.engine = SimpleNamespace(downloader=downloader)
    crawler.spider = None
    return crawler, slots


def _queue(crawler, key="", disk=PickleLifoDiskQueue, start=PickleFifoDiskQueue):
    if not key:
        disk, start = LifoMemoryQueue, FifoMemoryQueue
    return HostTurnsQueue.from_crawler(crawler, disk, key, start_queue_cls=start)


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("wrap", [False, True], ids=["jobdir", "temporary-queue"])
def test_a_disk_queue_of_thousands_of_hosts_keeps_a_few_files_open(tmp_path, wrap):
    crawler, _ = _crawler()
    disk = memory_first(PickleLifoDiskQueue) if wrap else PickleLifoDiskQueue
    before = _open_files()
    queue = _queue(crawler, str(tmp_path / "requests.queue"), disk=disk)
    for n in range(3000):
        queue.push(Request(f"http://h{n}.example/a", priority=10))
        queue.push(Request(f"http://h{n}.example/b"))
    assert len(queue) == 6000
    assert _open_files() - before <= 3
    assert len(list((tmp_path / "requests.queue").iterdir())) <= 3
    popped = {queue.pop().url for _ in range(6000)}
    assert len(popped) == 6000 and queue.pop() is None
    queue.close()
    assert _open_files() - before <= 0


@pytest.mark.parametrize("on_disk", [False, True])
def test_a_pop_looks_at_the_same_few_hosts_however_many_wait(tmp_path, on_disk):
    looked_up = []
    for hosts in (100, 5000):
        crawler, slots = _crawler()
        queue = _queue(crawler, str(tmp_path / f"q{hosts}") if on_disk else "")
        for n in range(hosts):
            queue.push(Request(f"http://h{n}.example/a"))
        for n in range(hosts):  # every host's download slot is full
            slots[f"h{n}.example"] = SimpleNamespace(active={1, 2}, concurrency=2)
        slots.looked_up = 0
        for _ in range(50):
            queue.pop()
        looked_up.append(slots.looked_up)
        queue.close()
    assert looked_up[0] == looked_up[1] <= 50 * BUSY_PROBES


def test_hosts_take_turns_and_a_full_host_waits(tmp_path):
    crawler, slots = _crawler()
    queue = _queue(crawler)
    for n in range(3):
        queue.push(Request(f"http://a.example/{n}"))
    queue.push(Request("http://b.example/0"))
    queue.push(Request("http://c.example/0"))
    hosts = [queue.pop().url.split("/")[2] for _ in range(3)]
    assert hosts == ["a.example", "b.example", "c.example"]
    slots["a.example"] = SimpleNamespace(active={1, 2}, concurrency=2)
    queue.push(Request("http://d.example/0"))
    assert queue.pop().url == "http://d.example/0"  # a.example is full: the next host with room
    slots["a.example"].active = set()
    assert {queue.pop().url, queue.pop().url} == {"http://a.example/1", "http://a.example/0"}


def test_articles_of_one_host_go_while_other_hosts_listings_wait():
    crawler, _ = _crawler()
    queue = _queue(crawler)
    for n in range(100):
        queue.push(Request(f"http://h{n}.example/feed", priority=10))
    first = queue.pop()  # one host's feed ...
    assert first.url.endswith("/feed")
    host = first.url.split("/")[2]
    queue.push(Request(f"http://{host}/story-1"))  # ... lists an article
    queue.push(Request(f"http://{host}/story-2"))
    urls = [queue.pop().url for _ in range(4)]
    assert sum(url.endswith("/feed") for url in urls) == 2  # the two levels take turns
    assert {u for u in urls if "story" in u} == {f"http://{host}/story-1", f"http://{host}/story-2"}


def test_within_a_host_listings_go_first_then_pages_then_start_pages():
    crawler, _ = _crawler()
    queue = _queue(crawler)
    start = Request("http://a.example/", meta={"is_start_request": True})
    queue.push(start)
    queue.push(Request("http://a.example/story"))
    queue.push(Request("http://a.example/feed", priority=10))
    assert [queue.pop().url for _ in range(3)] == ["http://a.example/feed", "http://a.example/story",
                                                  "http://a.example/"]


def test_a_saved_disk_queue_is_resumed_in_order(tmp_path):
    crawler, _ = _crawler()
    key = str(tmp_path / "requests.queue")
    queue = _queue(crawler, key)
    for n in range(5):
        queue.push(Request(f"http://a.example/{n}"))  # LIFO within a host
    queue.push(Request("http://b.example/s", meta={"is_start_request": True}))
    state = queue.close()
    assert state and Path(key).exists()
    again = _queue(crawler, key)
    assert len(again) == 6
    urls = [again.pop().url for _ in range(6)]
    assert [u for u in urls if "a.example" in u] == [f"http://a.example/{n}" for n in range(4, -1, -1)]
    assert "http://b.example/s" in urls and again.pop() is None
    assert not again.close()  # nothing left: nothing to resume
    assert not (Path(key) / "requests.sqlite").exists()


def test_an_unserializable_request_is_refused_and_nothing_changes(tmp_path):
    crawler, _ = _crawler()
    queue = _queue(crawler, str(tmp_path / "q"))
    with pytest.raises(ValueError):
        queue.push(Request("http://a.example/", callback=lambda response: None))
    assert len(queue) == 0 and queue.pop() is None
    queue.close()
