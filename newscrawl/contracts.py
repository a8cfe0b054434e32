"""Spider contracts for ``scrapy check news -a sites=FILE``.

``@site_url start|feed|sitemap`` takes the URL from the sites file the spider
was given (the first site that has one of that kind), so contracts run against
whatever web the file points to, such as the offline demo sites.
"""
from __future__ import annotations

from scrapy.contracts import Contract

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
        args["url"] = getattr(site, _FIELDS[kind])[0]
        args["meta"] = {"newscrawl_site": site.name, "newscrawl_source": _SOURCES[kind], "newscrawl_depth": 0}
        return args
