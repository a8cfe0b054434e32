"""Garbage-collector settings for a long crawl: start-up objects frozen, young collections rarer.

CPython's cyclic collector runs a young collection every 700 net allocations and a full one
every 100 of those; each full collection walks every live container object, and a crawl holds
hundreds of thousands of them from start-up alone (Scrapy, Twisted, lxml, the site list). In
``benchmarks/crawl_speed.py`` the collector took ~16% of the Scrapy process's CPU (2026-11-22:
3.7 of 23.0 s with extraction, 2.6 of 15.8 s without; gc callbacks). At engine start this
extension moves every object alive then into the permanent generation (``gc.freeze``: never
scanned again) and raises the young threshold to NEWSCRAWL_GC_THRESHOLD. Cycles are still
collected; only less often.

It also meters the collector: collections and their CPU seconds per generation, as the stats
``newscrawl/gc/gen<N>/collections`` and ``newscrawl/gc/gen<N>/cpu_seconds`` at the end of the crawl.
The collector's time shows in no profile of Python frames (py-spy charges it to whatever frame
allocated last), so this is where a collector whose cost grows with the crawl is seen.
"""
from __future__ import annotations

import gc
import logging
import time

from scrapy import signals
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)


class GcTuningExtension:
    """At engine start: ``gc.freeze()`` and the young-generation threshold from the settings."""

    def __init__(self, threshold: int, stats):
        self.threshold = threshold
        self.stats = stats
        self.meter = GcMeter()

    @classmethod
    def from_crawler(cls, crawler):
        threshold = crawler.settings.getint("NEWSCRAWL_GC_THRESHOLD")   # declared in newscrawl/settings.py
        if threshold <= 0:
            raise NotConfigured
        extension = cls(threshold, crawler.stats)
        crawler.signals.connect(extension.engine_started, signal=signals.engine_started)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def engine_started(self) -> None:
        gc.collect()
        gc.freeze()
        _, middle, oldest = gc.get_threshold()
        gc.set_threshold(self.threshold, middle, oldest)
        logger.debug("gc: %d objects frozen, young threshold %d", gc.get_freeze_count(), self.threshold)
        self.meter.start()

    def spider_closed(self) -> None:
        self.meter.stop()
        self.meter.record(self.stats)


class GcMeter:
    """Collections and CPU seconds per generation, from ``gc.callbacks`` while started."""

    def __init__(self):
        self.collections = [0, 0, 0]
        self.cpu_seconds = [0.0, 0.0, 0.0]
        self._began = 0.0

    def start(self) -> None:
        if self._on_collection not in gc.callbacks:
            gc.callbacks.append(self._on_collection)

    def stop(self) -> None:
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)

    def _on_collection(self, phase: str, info: dict) -> None:
        # the collector holds the GIL from start to stop, in the thread that set it off: its CPU clock
        if phase == "start":
            self._began = time.thread_time()
            return
        generation = info["generation"]
        self.collections[generation] += 1
        self.cpu_seconds[generation] += time.thread_time() - self._began

    def record(self, stats) -> None:
        for generation, (collections, seconds) in enumerate(zip(self.collections, self.cpu_seconds)):
            stats.set_value(f"newscrawl/gc/gen{generation}/collections", collections)
            stats.set_value(f"newscrawl/gc/gen{generation}/cpu_seconds", round(seconds, 3))
