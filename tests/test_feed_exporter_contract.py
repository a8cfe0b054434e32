"""What the durable writer takes from Scrapy's FeedExporter beyond its public settings.

``newscrawl.store.jsonl.DurableFeedExporter`` subclasses Scrapy's FeedExporter and takes the first local
JSON-lines feed out of its ``feeds`` and ``filters`` tables, overrides the ``spider_opened``,
``item_scraped`` and ``spider_closed`` handlers (each called with the spider) and wraps ``_close_slot``.
None of these is a documented extension point (the module's docstring says why none fits), so each
test here names one thing a Scrapy upgrade could change: it fails on that upgrade before a crawl
silently writes its articles through Scrapy's plain exporter, or not at all.
"""
from __future__ import annotations

import inspect

from pydispatch import dispatcher
from scrapy import signals
from scrapy.extensions.feedexport import FeedExporter
from scrapy.utils.test import get_crawler

from newscrawl.settings import EXTENSIONS
from newscrawl.store.jsonl import DurableFeedExporter

FEEDS = {
    "out/articles.jsonl": {"format": "jsonlines"},
    "out/copy.json": {"format": "json"},
}


def _crawler(**settings):
    return get_crawler(settings_dict={"FEEDS": FEEDS, **settings})


def test_feed_exporter_keeps_one_options_table_and_one_filter_per_feed_uri():
    exporter = FeedExporter(_crawler())
    assert set(exporter.feeds) == set(exporter.filters) == set(FEEDS)
    for options in exporter.feeds.values():
        assert {"format", "batch_item_count"} <= set(options)  # ("overwrite" only when -O gives it)


def test_the_durable_writer_takes_the_local_jsonl_feed_out_of_both_tables():
    exporter = DurableFeedExporter(_crawler())
    assert exporter.uri == "out/articles.jsonl" and exporter.writer is not None
    assert set(exporter.feeds) == set(exporter.filters) == {"out/copy.json"}


def test_the_handlers_it_overrides_are_the_ones_scrapy_connects_and_take_the_spider():
    crawler = _crawler()
    exporter = DurableFeedExporter.from_crawler(crawler)  # kept: the signals hold their receivers weakly
    for signal, handler in ((signals.spider_opened, "open_spider"), (signals.spider_closed, "close_spider"),
                            (signals.item_scraped, "item_scraped")):
        assert "spider" in inspect.signature(getattr(FeedExporter, handler)).parameters
        receivers = [getattr(receiver, "__func__", receiver) for receiver in _receivers(crawler, signal)]
        assert getattr(DurableFeedExporter, handler) in receivers, f"{handler} is not connected to {signal}"
    assert "spider" in inspect.signature(FeedExporter._close_slot).parameters
    assert exporter.writer is not None


def _receivers(crawler, signal) -> list:
    """The live receivers of one signal of the crawler (Scrapy's signal manager sends through PyDispatcher)."""
    return list(dispatcher.liveReceivers(dispatcher.getAllReceivers(crawler.signals.sender, signal)))


def test_the_project_replaces_scrapys_feed_exporter_with_the_durable_one():
    assert EXTENSIONS.get("scrapy.extensions.feedexport.FeedExporter") is None
    assert "newscrawl.store.jsonl.DurableFeedExporter" in EXTENSIONS
