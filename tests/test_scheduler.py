"""The temporary request queue: per-host queues hold their first requests in memory, in the disk queue's order."""
from __future__ import annotations

import pytest
from scrapy import Request
from scrapy.squeues import PickleFifoDiskQueue, PickleLifoDiskQueue
from scrapy.utils.test import get_crawler

from newscrawl.schedule.scheduler import SPILL_AFTER, memory_first


@pytest.mark.parametrize("disk_class, lifo", [(PickleFifoDiskQueue, False), (PickleLifoDiskQueue, True)])
def test_requests_come_out_in_the_disk_queues_order_across_the_spill(tmp_path, disk_class, lifo):
    queue = memory_first(disk_class).from_crawler(get_crawler(), str(tmp_path / "q"))
    urls = [f"http://127.0.0.1/{n}" for n in range(SPILL_AFTER + 5)]
    for url in urls[:SPILL_AFTER]:
        queue.push(Request(url))
    assert not (tmp_path / "q").exists()  # nothing on disk while memory holds them all
    for url in urls[SPILL_AFTER:]:
        queue.push(Request(url))
    assert (tmp_path / "q").exists() and len(queue) == len(urls)
    expected = list(reversed(urls)) if lifo else urls
    assert queue.peek().url == expected[0]
    popped = [queue.pop().url for _ in range(3)]
    late = "http://127.0.0.1/late"
    queue.push(Request(late))  # the newest: next out of a LIFO queue, last out of a FIFO one
    popped += [queue.pop().url for _ in range(len(queue))]
    assert popped == (expected[:3] + [late] + expected[3:] if lifo else expected + [late])
    assert queue.pop() is None and len(queue) == 0
    queue.close()
    assert not (tmp_path / "q").exists()  # the disk queue's files are removed with it


def test_other_queue_kinds_are_left_as_they_are():
    assert memory_first(dict) is dict
