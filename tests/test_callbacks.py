"""The check Scrapy would make before every callback call (WARN_ON_GENERATOR_RETURN_VALUE, off in
settings.py for its cost), made once here on each of the spider's callbacks: a generator callback
that returns a value loses that value silently."""
from __future__ import annotations

import inspect

import pytest
from scrapy.utils.misc import is_generator_with_return_value

from newscrawl.settings import WARN_ON_GENERATOR_RETURN_VALUE
from newscrawl.spiders.news import NewsSpider

CALLBACKS = sorted(name for name, _ in inspect.getmembers(NewsSpider, inspect.isfunction)
                   if name.startswith("parse_") or name == "on_error")


def test_scrapys_per_response_check_is_off():
    assert WARN_ON_GENERATOR_RETURN_VALUE is False


@pytest.mark.parametrize("name", CALLBACKS)
def test_no_generator_callback_returns_a_value(name):
    assert not is_generator_with_return_value(getattr(NewsSpider, name))


def test_the_check_finds_a_generator_that_returns_a_value():
    def parse_listing(response):
        yield response
        return "lost"

    assert is_generator_with_return_value(parse_listing)
    assert {"parse_robots", "parse_feed", "parse_sitemap", "parse_page", "on_error"} <= set(CALLBACKS)
