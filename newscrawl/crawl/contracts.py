"""Spider contracts for ``scrapy check news -a sites=FILE``.

``@site_url start|feed|sitemap`` takes the URL from the sites file the spider
was given (the first site that has one of that kind), so contracts run against
whatever web the file points to, such as the offline demo sites. Each checked
callback starts from a fresh frontier for its site: the contracts of one check
run concurrently, and a feed's articles already scheduled from the sitemap's
contract would otherwise count as seen and make ``@returns requests`` fail by race.
"""
from __future__ import annotations

import functools
import inspect

from scrapy.contracts import Contract

from .frontier import SiteFrontier

_FIELDS = {"start": "start_urls", "feed": "feeds", "sitemap": "sitemaps"}
_SOURCES = {"start": "page", "feed": "feed", "sitemap": "sitemap"}


class SiteUrlContract(Contract):
    """@site_url start|feed|sitemap"""

    name = "site_url"

    def adjust_request_args(self, args: dict) -> dict:
        kind = self.args[0]
        spider = args["callback"].__self__
        site = next((s for s in spider.sites if getattr(s, _FIELDS[kind])), None)
        if site is None:
            raise ValueError(f"@site_url {kind}: no site in the sites file has {_FIELDS[kind]}")
        args["callback"] = _with_fresh_frontier(args["callback"], spider, site.name)
        args["url"] = getattr(site, _FIELDS[kind])[0]
        args["meta"] = {"newscrawl_site": site.name, "newscrawl_source": _SOURCES[kind], "newscrawl_depth": 0}
        return args


def _with_fresh_frontier(callback, spider, site_name: str):
    """The callback, run on a new frontier of the site (same limits): what it schedules is
    judged as if no other contract had run. Scrapy collects the callback's output right
    after calling it, and the listings of the contract pages are too short for the callback
    to pause in between (newscrawl.crawl.timeslice), so nothing else runs meanwhile."""
    def fresh_frontier() -> None:
        old = spider.frontiers[site_name]
        spider.frontiers[site_name] = SiteFrontier(old.site, old.limits)

    if inspect.isasyncgenfunction(callback):
        @functools.wraps(callback)
        async def checked_async(response, **kwargs):
            fresh_frontier()
            async for output in callback(response, **kwargs):
                yield output
        return checked_async

    @functools.wraps(callback)
    def checked(response, **kwargs):
        fresh_frontier()
        return callback(response, **kwargs)
    return checked
