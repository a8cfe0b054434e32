"""The gc extension freezes start-up objects and raises the young threshold at engine start."""
from __future__ import annotations

import gc

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from newscrawl.run.gctune import GcTuningExtension


@pytest.fixture
def restore_gc():
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


def test_engine_start_freezes_and_sets_the_threshold(restore_gc):
    extension = GcTuningExtension.from_crawler(get_crawler(settings_dict={"NEWSCRAWL_GC_THRESHOLD": 12345}))
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    extension.engine_started()
    assert gc.get_freeze_count() > 1000  # the modules, classes and functions loaded so far
    assert gc.get_threshold()[0] == 12345
    cycle = []
    cycle.append(cycle)
    del cycle
    assert gc.collect() >= 1  # cycles made later are still found


def test_threshold_zero_leaves_the_collector_alone():
    with pytest.raises(NotConfigured):
        GcTuningExtension.from_crawler(get_crawler(settings_dict={"NEWSCRAWL_GC_THRESHOLD": 0}))


def test_the_meter_counts_collections_and_their_cpu_per_generation(restore_gc):
    crawler = get_crawler(settings_dict={"NEWSCRAWL_GC_THRESHOLD": 12345})
    crawler.stats.open_spider()
    extension = GcTuningExtension.from_crawler(crawler)
    extension.engine_started()
    held = [[[] for _ in range(100)] for _ in range(2000)]  # containers for the collections to walk
    for _ in range(3):
        gc.collect(0)
    gc.collect(2)
    extension.spider_closed()
    counted = list(extension.meter.collections)
    gc.collect(2)  # after the crawl: not counted
    assert extension.meter.collections == counted
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/gc/gen0/collections"] >= 3
    assert stats["newscrawl/gc/gen2/collections"] >= 1
    assert stats["newscrawl/gc/gen2/cpu_seconds"] > 0
    assert extension.meter._on_collection not in gc.callbacks
    del held
