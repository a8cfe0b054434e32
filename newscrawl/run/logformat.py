"""Scrapy's per-page and per-item log messages, not even built when LOG_LEVEL discards them.

Scrapy leaves its loggers at DEBUG and filters by LOG_LEVEL in its log handler, so the
"Crawled (200)" and "Scraped from" debug messages of every page became log records (a caller
look-up included) only to be thrown away at the default INFO level: ~2% of the crawl process's
CPU in benchmarks/crawl_speed.py (py-spy, 2026-11-22). A LogFormatter that returns None skips
the message (Scrapy's documented way), so this one does that below the crawl's level.

Scrapy's own item messages carry the whole item (a PageItem's body is the page's HTML, an
ArticleItem its text and HTML): these name the item by URL and size instead, at every level.
"""
from __future__ import annotations

import logging

from itemadapter import ItemAdapter, is_item
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
        return self._kept(_described(super().scraped(item, response, spider), "Scraped %(item)s", item))

    def dropped(self, item, exception, response, spider):
        return self._kept(_described(super().dropped(item, exception, response, spider),
                                     "Dropped %(item)s: %(exception)s", item))

    def item_error(self, item, exception, response, spider):
        return self._kept(_described(super().item_error(item, exception, response, spider),
                                     "Error processing %(item)s", item))


def describe_item(item) -> str:
    """An item in a log line: its URL and size (bytes of the page, or characters of the text), no content."""
    fields = ItemAdapter(item) if is_item(item) else {}
    url = fields.get("url") or type(item).__name__
    body, text = fields.get("body"), fields.get("text")
    if isinstance(body, (bytes, str)):
        return f"{url} ({len(body)} bytes)"
    if isinstance(text, str):
        return f"{url} ({len(text)} chars of text)"
    return str(url)


def _described(message, msg: str, item):
    """Scrapy's message with the item replaced by describe_item(item)."""
    if message is None:
        return None
    return {**message, "msg": msg, "args": {**message["args"], "item": describe_item(item)}}
