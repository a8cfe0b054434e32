"""Scrapy's per-page and per-item log messages, not even built when LOG_LEVEL discards them.

Scrapy leaves its loggers at DEBUG and filters by LOG_LEVEL in its log handler, so the
"Crawled (200)" and "Scraped from" debug messages of every page became log records (a caller
look-up included) only to be thrown away at the default INFO level: ~2% of the crawl process's
CPU in benchmarks/crawl_speed.py (py-spy, 2026-11-22). A LogFormatter that returns None skips
the message (Scrapy's documented way), so this one does that below the crawl's level.
"""
from __future__ import annotations

import logging

from scrapy.logformatter import LogFormatter


def level_number(level) -> int:
    """A LOG_LEVEL setting (name or number) as a number; DEBUG when unreadable."""
    if isinstance(level, int):
        return level
    number = logging.getLevelName(str(level).upper())
    return number if isinstance(number, int) else logging.DEBUG


class LevelAwareLogFormatter(LogFormatter):
    """Scrapy's LogFormatter; a message below ``LOG_LEVEL`` is skipped before its record is made."""

    def __init__(self, level: int = logging.DEBUG):
        self.level = level

    @classmethod
    def from_crawler(cls, crawler):
        return cls(level_number(crawler.settings.get("LOG_LEVEL") or logging.DEBUG))

    def _kept(self, message):
        if message is None or message.get("level", logging.INFO) < self.level:
            return None
        return message

    def crawled(self, request, response, spider):
        return self._kept(super().crawled(request, response, spider))

    def scraped(self, item, response, spider):
        return self._kept(super().scraped(item, response, spider))

    def dropped(self, item, exception, response, spider):
        return self._kept(super().dropped(item, exception, response, spider))
