"""The scheduler's priority queue at many hosts: a fixed number of open files on disk, a per-request
cost that does not grow with the hosts, hosts and priority levels taking turns, and a resumable disk queue."""
from __future__ import annotations

import os
from collections import deque
from pathlib import Path
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.squeues import (
    FifoMemoryQueue,
    LifoMemoryQueue,
    PickleFifoDiskQueue,
    PickleLifoDiskQueue,
)
from scrapy.utils.test import get_crawler

from newscrawl.schedule.hostqueue import HostTurnsQueue
from newscrawl.schedule.scheduler import memory_first


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


class Downloads:
    """A downloader's slots for a simulated crawl: requests in flight per host, at most 2 each."""

    def __init__(self, slots: CountingSlots):
        self.slots, self.in_flight = slots, deque()

    def start(self, request) -> None:
        host = request.url.split("/")[2]
        if host not in self.slots:
            in_flight = set()
            self.slots[host] = SimpleNamespace(queue=deque(), transferring=in_flight, active=in_flight, concurrency=2)
        slot = dict.__getitem__(self.slots, host)
        slot.transferring.add(request)
        self.in_flight.append((slot, request))

    def finish_oldest(self, queue) -> None:
        slot, request = self.in_flight.popleft()
        slot.transferring.discard(request)
        queue.request_left_downloader(request)


@pytest.mark.parametrize("on_disk", [False, True])
def test_the_hosts_looked_at_per_request_do_not_grow_with_the_hosts(tmp_path, on_disk):
    looked_up = {}
    for hosts in (100, 4000):
        crawler, slots = _crawler()
        queue = _queue(crawler, str(tmp_path / f"q{hosts}") if on_disk else "")
        for n in range(hosts):
            queue.push(Request(f"http://h{n}.example/feed", priority=10))
            for k in range(3):
                queue.push(Request(f"http://h{n}.example/{k}"))
        downloads, fetched = Downloads(slots), 0
        slots.looked_up = 0
        while len(queue):  # 64 requests in flight, as the engine keeps CONCURRENT_REQUESTS busy
            request = queue.pop() if len(downloads.in_flight) < 64 else None
            if request is None:
                downloads.finish_oldest(queue)
                continue
            downloads.start(request)
            fetched += 1
        assert fetched == 4 * hosts
        looked_up[hosts] = slots.looked_up / fetched
        queue.close()
    assert looked_up[4000] <= 4 and looked_up[4000] <= 1.2 * looked_up[100]


def test_a_host_goes_on_until_its_download_slot_is_full_then_the_next_one():
    crawler, slots = _crawler()
    queue = _queue(crawler)
    for n in range(3):
        queue.push(Request(f"http://a.example/{n}"))
    queue.push(Request("http://b.example/0"))
    queue.push(Request("http://c.example/0"))
    downloads = Downloads(slots)
    for _ in range(2):
        downloads.start(queue.pop())
    assert [r.url.split("/")[2] for _, r in downloads.in_flight] == ["a.example", "a.example"]
    assert queue.pop().url == "http://b.example/0"  # a.example is full: parked
    downloads.finish_oldest(queue)  # one of a.example's requests is done: back to the front
    assert queue.pop().url.startswith("http://a.example/")
    assert queue.pop().url == "http://c.example/0"


def test_when_every_waiting_host_is_full_nothing_is_handed_out_until_one_has_room():
    crawler, slots = _crawler()
    queue = _queue(crawler)
    for n in range(3):
        queue.push(Request(f"http://a.example/{n}"))
    downloads = Downloads(slots)
    downloads.start(queue.pop())
    downloads.start(queue.pop())
    assert queue.pop() is None and len(queue) == 1
    slot, request = downloads.in_flight.popleft()
    slot.transferring.discard(request)  # done, but no signal seen: the next pop looks at parked hosts
    assert queue.pop().url == "http://a.example/0"


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
