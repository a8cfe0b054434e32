"""Requests written to the disk queue name their spider callbacks without scanning the spider each time,
and the dict is the one Scrapy's ``Request.to_dict`` gives, so queues load the same before and after."""
from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest
import scrapy
from scrapy.http import FormRequest, JsonRequest
from scrapy.squeues import PickleFifoDiskQueue, PickleLifoDiskQueue
from scrapy.utils.request import request_from_dict
from scrapy.utils.test import get_crawler

from newscrawl.schedule.hostqueue import HostTurnsQueue
from newscrawl.schedule.request_dicts import request_dict


class ListingSpider(scrapy.Spider):
    name = "listing"

    def parse_page(self, response):
        return None

    def on_error(self, failure):
        return None

    same_page = parse_page  # one method under a second name


def _plain_function(response):
    return None


def _requests(spider):
    return [
        scrapy.Request("https://a.example/1", callback=spider.parse_page, errback=spider.on_error,
                       meta={"newscrawl_site": "a", "newscrawl_depth": 2}, priority=5, flags=["x"],
                       cb_kwargs={"k": 1}, cookies={"c": "v"}, headers={"X-Test": "1"}),
        scrapy.Request("https://a.example/2"),  # Scrapy's default callback (None)
        scrapy.Request("https://a.example/3", callback=spider.parse_page),
        FormRequest("https://a.example/4", formdata={"q": "news"}, callback=spider.on_error),
        JsonRequest("https://a.example/5", data={"q": 1}, errback=spider.on_error),
        scrapy.Request("https://a.example/6", callback=spider.same_page),
    ]


@pytest.mark.parametrize("index", range(6))
def test_the_dict_is_scrapys_own_and_loads_back_with_the_spiders_methods(index):
    spider = ListingSpider()
    request = _requests(spider)[index]
    before = (request.callback, request.errback)
    data = request_dict(request, spider)
    assert data == request.to_dict(spider=spider)
    assert (request.callback, request.errback) == before  # the request itself is left as it was
    restored = request_from_dict(data, spider=spider)
    assert restored.url == request.url and restored.meta == request.meta
    assert restored.callback == request.callback and restored.errback == request.errback


def test_a_callback_that_is_no_spider_method_is_refused_as_scrapy_refuses_it():
    spider = ListingSpider()
    request = scrapy.Request("https://a.example/1", callback=_plain_function)
    with pytest.raises(ValueError, match="not an instance method"):
        request_dict(request, spider)
    assert request.callback is _plain_function
    other = ListingSpider()  # a method of another object of the same class is still found by Scrapy's look-up
    request = scrapy.Request("https://a.example/2", callback=other.parse_page)
    assert request_dict(request, spider) == request.to_dict(spider=spider)
    assert request_dict(scrapy.Request("https://a.example/3"), None) == scrapy.Request("https://a.example/3").to_dict()


def test_queueing_requests_on_disk_does_not_scan_the_spider_per_request(tmp_path, monkeypatch):
    spider = ListingSpider()
    crawler = get_crawler()
    crawler.engine = SimpleNamespace(downloader=SimpleNamespace(
        slots={}, get_slot_key=lambda request: request.url.split("/")[2]))
    crawler.spider = spider
    queue = HostTurnsQueue.from_crawler(crawler, PickleLifoDiskQueue, str(tmp_path / "q"),
                                        start_queue_cls=PickleFifoDiskQueue)
    scans = []
    real = inspect.getmembers
    monkeypatch.setattr(inspect, "getmembers", lambda *args, **kwargs: scans.append(1) or real(*args, **kwargs))
    for n in range(200):
        queue.push(scrapy.Request(f"https://h{n % 20}.example/{n}", callback=spider.parse_page,
                                  errback=spider.on_error))
    assert scans == []
    popped = [queue.pop() for _ in range(200)]
    assert sorted(r.url for r in popped) == sorted(f"https://h{n % 20}.example/{n}" for n in range(200))
    assert all(r.callback == spider.parse_page and r.errback == spider.on_error for r in popped)
    queue.close()
