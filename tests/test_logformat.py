"""Scrapy's per-page log messages are skipped below the crawl's LOG_LEVEL, kept at or above it."""
from __future__ import annotations

import logging
from types import SimpleNamespace

from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings

from newscrawl.logformat import LevelAwareLogFormatter, level_number

SPIDER = SimpleNamespace(name="news")


def _formatter(level) -> LevelAwareLogFormatter:
    return LevelAwareLogFormatter.from_crawler(SimpleNamespace(settings=Settings({"LOG_LEVEL": level})))


def _response() -> HtmlResponse:
    return HtmlResponse("http://127.0.0.1/a.html", body=b"<p>x</p>", request=Request("http://127.0.0.1/a.html"))


def test_debug_messages_are_not_built_at_info():
    quiet = _formatter("INFO")
    assert quiet.crawled(_response().request, _response(), SPIDER) is None
    assert quiet.scraped({"url": "x"}, _response(), SPIDER) is None


def test_debug_messages_are_kept_at_debug():
    verbose = _formatter("DEBUG")
    assert verbose.crawled(_response().request, _response(), SPIDER)["level"] == logging.DEBUG
    assert verbose.scraped({"url": "x"}, _response(), SPIDER)["args"]["item"] == {"url": "x"}


def test_messages_at_or_above_the_level_stay():
    message = _formatter("INFO").dropped({"url": "x"}, DropItem("no article", log_level="INFO"), _response(), SPIDER)
    assert message is not None and message["level"] == logging.INFO
    assert _formatter("ERROR").dropped({"url": "x"}, DropItem("no article", log_level="INFO"), _response(),
                                       SPIDER) is None


def test_level_names_and_numbers():
    assert level_number("warning") == logging.WARNING and level_number(15) == 15
    assert level_number("nonsense") == logging.DEBUG
