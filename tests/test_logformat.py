"""Scrapy's per-page log messages are skipped below the crawl's LOG_LEVEL, kept at or above it."""
from __future__ import annotations

import logging
from types import SimpleNamespace

from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse, Request
from scrapy.settings import Settings

from newscrawl.items import ArticleItem, PageItem
from newscrawl.run.logformat import LevelAwareLogFormatter, level_number

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
    assert verbose.scraped({"url": "x"}, _response(), SPIDER)["args"]["item"] == "x"


def test_messages_at_or_above_the_level_stay():
    message = _formatter("INFO").dropped({"url": "x"}, DropItem("no article", log_level="INFO"), _response(), SPIDER)
    assert message is not None and message["level"] == logging.INFO
    assert _formatter("ERROR").dropped({"url": "x"}, DropItem("no article", log_level="INFO"), _response(),
                                       SPIDER) is None


def test_level_names_and_numbers():
    assert level_number("warning") == logging.WARNING and level_number(15) == 15
    assert level_number("nonsense") == logging.DEBUG


def _logged(message: dict) -> str:
    return message["msg"] % message["args"]


def test_items_are_logged_by_url_and_size_never_with_their_content():
    page = "<html><body>" + "<p>Words of the page.</p>" * 2000 + "</body></html>"
    item = PageItem(url="http://127.0.0.1/a.html", site="s", body=page.encode(), encoding="utf-8",
                    discovered_via="link", fetched_at="2024-05-14T08:30:00+00:00", url_kind="article")
    verbose = _formatter("DEBUG")
    dropped = _logged(verbose.dropped(item, DropItem("list_page", log_level="DEBUG"), _response(), SPIDER))
    assert dropped == f"Dropped http://127.0.0.1/a.html ({len(page)} bytes): list_page"
    assert _logged(verbose.item_error(item, ValueError("x"), _response(), SPIDER)) == (
        f"Error processing http://127.0.0.1/a.html ({len(page)} bytes)")
    article = ArticleItem(url="http://127.0.0.1/b.html", canonical_url="http://127.0.0.1/b.html", site="s",
                          title="T", published=None, text="words " * 1000, html=page, lang="en")
    scraped = _logged(verbose.scraped(article, _response(), SPIDER))
    assert scraped == "Scraped http://127.0.0.1/b.html (6000 chars of text)"
