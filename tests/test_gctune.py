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
