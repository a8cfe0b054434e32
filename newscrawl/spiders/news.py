"""The ``news`` spider: discover and fetch the pages of every site in sites.yaml.

Discovery per site: robots.txt ``Sitemap:`` lines, given sitemaps (indexes,
gzip, news), given feeds and feeds announced on start pages, and links from
fetched pages within the site's allowed domains. Every page request passes
the site's :class:`~newscrawl.crawl.frontier.SiteFrontier` (depth, page budget,
traps). Every HTML page becomes a PageItem; the pipelines decide which are
articles.
"""
from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import IgnoreRequest
from scrapy.http import TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.response import get_base_url

from ..crawl.classify import ARTICLE, classify_url
from ..run.clock import utc_now
from ..run.counters import SITE_PREFIX, count
from ..crawl.crawl_patterns import LISTED_VIA
from ..crawl.discovery import maybe_gunzip, page_links, parse_feed, parse_sitemap, sitemaps_from_robots
from ..crawl.failures import failure_kind, got_response
from ..crawl.frontier import FrontierLimits, SiteFrontier
from ..store.incremental import ledger_for
from ..items import PageItem
from ..config.paths import DEFAULT_SITES, resolve, sites_source
from ..render import RenderPlan
from ..crawl.robots import ROBOTS_SOURCE
from ..crawl.scale import adapt_concurrency
from ..store.sinks.journal import journal_path, only_sinks
from ..config.sites import SiteConfig, SitesError, load_sites
from ..crawl.timeslice import TimeSlice
from ..crawl.urls import canonicalize

# Feed and sitemap requests go before pages, so articles are credited to them when they are listed.
LISTING_PRIORITY = 10
# A host's robots.txt goes before its listings and pages: they wait for its answer (robots.py)
ROBOTS_PRIORITY = LISTING_PRIORITY + 1
_NOT_OPENED = object()


class NewsSpider(scrapy.Spider):
    name = "news"

    @classmethod
    def check_arguments(cls, spargs: dict, settings) -> list[str]:
        """Problems with the ``sites`` argument, one line each (used by ``scrapy crawl``)."""
        try:
            cls._select(load_sites(sites_source(settings, spargs.get("sites"))), spargs.get("only"))
        except SitesError as exc:
            return exc.problems
        return []

    @classmethod
    def update_settings(cls, settings) -> None:
        super().update_settings(settings)
        if not settings.getdict("FEEDS"):
            stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
            path = resolve(settings, settings.get("NEWSCRAWL_OUTPUT_DIR", "output")) / f"{cls.name}-{stamp}.jsonl"
            feed = {"format": "jsonlines", "encoding": "utf-8", "item_classes": ["newscrawl.items.ArticleItem"]}
            if only_sinks(settings):  # the run's journal, deleted at its end (newscrawl.store.sinks.journal)
                path, feed["overwrite"] = journal_path(settings), True
            settings.set("FEEDS", {str(path): feed}, priority="spider")

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        kwargs["sites"] = sites_source(crawler.settings, kwargs.get("sites"))  # under NEWSCRAWL_HOME, or packaged
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.logger.info("Sites file: %s (%d sites)", kwargs["sites"], len(spider.sites))
        settings = crawler.settings
        adapt_concurrency(settings, len(spider.sites))
        limits = FrontierLimits(
            max_pages=settings.getint("NEWSCRAWL_MAX_PAGES", 1000),
            max_depth=settings.getint("NEWSCRAWL_MAX_DEPTH", 4),
            max_query_variants=settings.getint("NEWSCRAWL_MAX_QUERY_VARIANTS", 20),
            max_per_shape=settings.getint("NEWSCRAWL_MAX_PER_SHAPE", 50),
        )
        spider.render_plan = RenderPlan.from_crawler(crawler, spider.sites)
        spider.sites = spider.render_plan.crawlable(spider.sites)  # render: always sites need the browser
        spider.frontiers = {site.name: SiteFrontier.for_site(site, limits) for site in spider.sites}
        spider.max_sitemaps = settings.getint("NEWSCRAWL_MAX_SITEMAPS", 50)
        spider.max_body = settings.getint("DOWNLOAD_MAXSIZE", 16 * 1024 * 1024)
        spider.max_url_length = settings.getint("NEWSCRAWL_MAX_URL_LENGTH", 2048)
        # without the extraction pipeline pages are only fetched and followed (crawl-speed baseline)
        spider.emit_pages = settings.getbool("NEWSCRAWL_EXTRACT_ENABLED", True)
        return spider

    @staticmethod
    def _select(sites: list[SiteConfig], only: str | None) -> list[SiteConfig]:
        if not only:
            return sites
        wanted = [name.strip() for name in only.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in {s.name for s in sites}]
        if unknown:
            raise SitesError([f"argument 'only': unknown site name(s): {', '.join(unknown)}"])
        return [s for s in sites if s.name in wanted]

    def __init__(self, sites: str = DEFAULT_SITES, only: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.sites = self._select(load_sites(sites), only)
        self.allowed_domains = sorted({d for site in self.sites for d in site.allowed_domains})
        self.frontiers: dict[str, SiteFrontier] = {}
        self.sitemap_counts: dict[str, int] = {}
        self.emit_pages = True
        self.render_plan = RenderPlan()
        self.max_url_length = 2048
        self.ledger = _NOT_OPENED  # the incremental state's ledger, looked up on first use
        # start pages of render: always sites, per (site, host), until the host answers its robots.txt
        self.held_start_pages: dict[tuple[str, str], list[scrapy.Request]] = {}

    def allowed_domains_of(self, site: str) -> tuple[str, ...]:
        """The hosts requests of ``site`` may go to (used by SiteOffsiteMiddleware)."""
        return self.frontiers[site].site.allowed_domains if site in self.frontiers else ()

    # --- requests ---------------------------------------------------------------------------------

    def _meta(self, site: SiteConfig, source: str, **extra) -> dict:
        meta = {"newscrawl_site": site.name, "newscrawl_source": source, **extra}
        if source == "page":
            meta.update(self.render_plan.page_meta(site.name))
        return meta

    def page_request(self, site: SiteConfig, url: str | None, depth: int, via: str, hint=None):
        """A request for a page if the site's frontier admits it, else None (counted).

        ``url`` None stands for a link too long to be read (see ``page_links``)."""
        if url is None or len(url) > self.max_url_length:
            count(self.crawler.stats, "rejected/url_too_long", site.name)
            return None
        url = canonicalize(url)
        if len(url) > self.max_url_length:  # canonical escaping can lengthen it
            count(self.crawler.stats, "rejected/url_too_long", site.name)
            return None
        kind = classified = classify_url(url, site.article_patterns)
        if via in LISTED_VIA:
            kind = ARTICLE  # the site lists it as content: not a trap URL, whatever its shape
        reason = self.frontiers[site.name].check(url, urlsplit(url).hostname, depth, kind)
        if reason:
            if reason != "seen":
                count(self.crawler.stats, f"rejected/{reason}", site.name)
            elif via in LISTED_VIA and self.ledger not in (_NOT_OPENED, None):  # no ledger: nothing linked yet
                self.ledger.listed_links.listed_again(url)
            return None
        count(self.crawler.stats, f"discovered/{via}", site.name)
        skip = self._state_skips(url) if depth > 0 else None
        if skip:
            count(self.crawler.stats, f"skipped/{skip}", site.name)
            return None
        if via == "link" and classified != ARTICLE and self.ledger not in (_NOT_OPENED, None):
            self.ledger.listed_links.link_requested(url)
        meta = self._meta(site, "page", newscrawl_depth=depth, newscrawl_via=via, newscrawl_hint=hint,
                          newscrawl_url_kind=(url, classified))
        return scrapy.Request(url, callback=self.parse_page, errback=self.on_error, meta=meta)

    def _state_skips(self, url: str) -> str | None:
        """Why the incremental state says not to fetch this URL again: ``known`` (an article it
        recorded), ``remembered_drop`` (a page lately judged no article), or None.

        Asked here, where each link becomes a request, rather than in a spider middleware: a
        middleware's pass over every entry of the spider's output cost ~1% of the crawl process.
        """
        if self.ledger is _NOT_OPENED:
            self.ledger = ledger_for(self.crawler)  # None when the state is off
        if self.ledger is None:
            return None
        if self.ledger.is_known(url):
            return "known"
        return "remembered_drop" if self.ledger.is_remembered_drop(url) else None

    def listing_request(self, site: SiteConfig, url: str, source: str):
        """A feed or sitemap request, if its host belongs to the site and the sitemap budget allows."""
        if len(url) > self.max_url_length:
            count(self.crawler.stats, "rejected/url_too_long", site.name)
            return None
        if not self.frontiers[site.name].allows_host(urlsplit(url).hostname):
            count(self.crawler.stats, "rejected/offsite", site.name)
            return None
        if source == "sitemap":
            used = self.sitemap_counts.get(site.name, 0)
            if used >= self.max_sitemaps:
                count(self.crawler.stats, "rejected/max_sitemaps", site.name)
                return None
            self.sitemap_counts[site.name] = used + 1
        callback = self.parse_feed if source == "feed" else self.parse_sitemap
        return scrapy.Request(url, callback=callback, errback=self.on_error, priority=LISTING_PRIORITY,
                              meta=self._meta(site, source))

    def robots_request(self, site: SiteConfig, url: str):
        parts = urlsplit(url)
        # answered by the robots.txt middleware's one download of the file, which follows redirects and
        # retries itself (robots.py)
        meta = self._meta(site, ROBOTS_SOURCE, dont_obey_robotstxt=True, handle_httpstatus_all=True,
                          dont_redirect=True, dont_retry=True, newscrawl_host=parts.netloc)
        return scrapy.Request(f"{parts.scheme}://{parts.netloc}/robots.txt", callback=self.parse_robots,
                              errback=self.on_error, priority=ROBOTS_PRIORITY, meta=meta)

    async def start(self):
        for site in self.sites:
            self.crawler.stats.inc_value("newscrawl/sites")
            count(self.crawler.stats, "start_urls", site.name, len(site.start_urls))
            hosts = {}
            for url in site.start_urls:
                hosts.setdefault(urlsplit(url).netloc, url)
            candidates = [self.robots_request(site, url) for url in hosts.values()]
            candidates += [self.listing_request(site, url, "sitemap") for url in site.sitemaps]
            candidates += [self.listing_request(site, url, "feed") for url in site.feeds]
            candidates += self._start_pages(site)
            for request in candidates:
                if request is not None:
                    yield request

    def _start_pages(self, site: SiteConfig) -> list:
        """The start page requests to send now. A render: always site's are held until their host
        answers its robots.txt (any status), so the browser never starts for a host that is not there."""
        requests = [self.page_request(site, url, 0, "link") for url in site.start_urls]
        if self.render_plan.mode(site.name) != "always":
            return requests
        for request in filter(None, requests):
            self.held_start_pages.setdefault((site.name, urlsplit(request.url).netloc), []).append(request)
        return []

    def _release_start_pages(self, meta: dict) -> list:
        """The start pages held for the host of this robots.txt request (none for other requests)."""
        return self.held_start_pages.pop((meta.get("newscrawl_site"), meta.get("newscrawl_host")), [])

    # --- callbacks -----------------------------------------------------------------------------------

    def _site(self, response) -> SiteConfig:
        """The response's site, whose answer is counted (``responses``: the site is reachable)."""
        site = self.frontiers[response.meta["newscrawl_site"]].site
        count(self.crawler.stats, "responses", site.name)
        return site

    def parse_robots(self, response):
        site = self._site(response)
        yield from self._release_start_pages(response.meta)
        if response.status != 200 or not isinstance(response, TextResponse):
            return
        for url in sitemaps_from_robots(response.text, response.url):
            count(self.crawler.stats, "discovered/sitemap_from_robots", site.name)
            request = self.listing_request(site, url, "sitemap")
            if request is not None:
                yield request

    async def parse_feed(self, response):
        """Schedule the pages a feed lists.

        @site_url feed
        @returns requests 1
        @returns items 0 0
        """
        site = self._site(response)
        listing = parse_feed(response.body, response.url)
        if listing.kind == "malformed":
            count(self.crawler.stats, "errors/malformed_feed", site.name)
            return
        count(self.crawler.stats, f"listings/feed_{listing.kind}", site.name)
        async for request in self._follow(site, listing.entries, lambda entry: self.page_request(
                site, entry.url, 1, "feed", (entry.published, entry.title))):
            yield request
        if listing.damaged:  # the entries before the damage were followed
            count(self.crawler.stats, "errors/malformed_feed", site.name)

    async def parse_sitemap(self, response):
        """Schedule the pages (or, for an index, the sitemaps) a sitemap lists.

        @site_url sitemap
        @returns requests 1
        @returns items 0 0
        """
        site = self._site(response)
        try:
            body = maybe_gunzip(response.body, self.max_body)
        except ValueError:
            count(self.crawler.stats, "errors/bad_sitemap_gzip", site.name)
            return
        listing = parse_sitemap(body, response.url)
        if listing.kind == "malformed":
            count(self.crawler.stats, "errors/malformed_sitemap", site.name)
            return
        count(self.crawler.stats, f"listings/sitemap_{'news' if listing.news else listing.kind}", site.name)
        if listing.is_index:
            requests = self._follow(site, listing.entries, lambda entry: self.listing_request(
                site, entry.url, "sitemap"), budget=False)
        else:
            requests = self._follow(site, listing.entries, lambda entry: self.page_request(
                site, entry.url, 1, "sitemap", (entry.published, entry.title)))
        async for request in requests:
            yield request

    async def parse_page(self, response):
        """Emit the page for extraction and follow its links within the site.

        @site_url start
        @returns items 1 1
        @returns requests 1
        """
        site = self._site(response)
        count(self.crawler.stats, "pages", site.name)
        if not isinstance(response, TextResponse) or not hasattr(response, "xpath"):
            count(self.crawler.stats, "dropped/not_html", site.name)
            return
        depth = response.meta.get("newscrawl_depth", 0)
        if self.emit_pages:
            yield self._page_item(site, response)
        links = page_links(response.body, response.encoding, get_base_url(response), self.max_url_length)
        if depth >= self.frontiers[site.name].limits.max_depth:
            count(self.crawler.stats, "rejected/max_depth", site.name)  # one per page whose links stay unfollowed
            if depth > 0:
                return
            links = (link for link in links if link is not None and link.feed)  # a start page's feeds still count
        async for request in self._follow(site, links, lambda link: self._link_request(site, link, depth)):
            yield request

    def _link_request(self, site: SiteConfig, link, depth: int):
        if link is not None and link.feed:
            if depth > 0:
                return None
            count(self.crawler.stats, "discovered/feed_from_page", site.name)
            return self.listing_request(site, link.url, "feed")
        return self.page_request(site, link and link.url, depth + 1, "link")

    async def _follow(self, site: SiteConfig, listed, make_request, budget: bool = True):
        """The requests ``make_request`` makes of what a listing holds, in time slices (other sites'
        requests go on meanwhile). With ``budget``, reading stops once the site's page budget is
        spent: what is left is not even looked at (counted once, ``listings/cut_at_budget``); and
        whatever the budget, once the crawl is stopping (``listings/cut_at_shutdown``)."""
        frontier = self.frontiers[site.name]
        pause = TimeSlice()
        engine = self.crawler.engine
        for entry in listed:
            if budget and frontier.budget_spent:
                count(self.crawler.stats, "listings/cut_at_budget", site.name)
                return
            if engine is not None and not engine.running:  # the crawl is stopping: schedule nothing more
                count(self.crawler.stats, "listings/cut_at_shutdown", site.name)
                return
            await pause.pause_if_due()
            request = make_request(entry)
            if request is not None:
                yield request

    def _page_item(self, site: SiteConfig, response) -> PageItem:
        published, title = response.meta.get("newscrawl_hint") or (None, None)
        return PageItem(
            url=response.url,
            site=site.name,
            body=response.body,
            encoding=response.encoding,
            discovered_via=response.meta.get("newscrawl_via", "link"),
            fetched_at=utc_now(),
            url_kind=self._url_kind(site, response),
            hint_published=published,
            hint_title=title,
            rendered="playwright" in response.flags,
        )

    @staticmethod
    def _url_kind(site: SiteConfig, response) -> str:
        """What the URL says of the page: classified when requested, again after a redirect."""
        requested, kind = response.meta.get("newscrawl_url_kind") or (None, None)
        if requested != response.url:
            kind = classify_url(response.url, site.article_patterns)
        return kind

    def on_error(self, failure):
        """Count the failure by kind and log it as one line; an answer with an error status still
        counts as a response of the site (it is reachable)."""
        meta = failure.request.meta
        site = meta.get("newscrawl_site")
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            count(self.crawler.stats, "ignored", site)
            return self._release_start_pages(meta)
        kind = failure_kind(failure)
        count(self.crawler.stats, f"errors/{kind}", site)
        url, message = failure.request.url, failure.getErrorMessage() or "no further detail"
        if got_response(kind):
            count(self.crawler.stats, "responses", site)
            self.logger.info("%s failed (%s, %s): %s", url, meta.get("newscrawl_source"), kind, message)
            return self._release_start_pages(meta)
        self.logger.warning("%s failed (%s, %s): %s", url, meta.get("newscrawl_source"), kind, message)
        if site and self.crawler.stats.get_value(f"{SITE_PREFIX}{site}/first_failure") is None:
            self.crawler.stats.set_value(f"{SITE_PREFIX}{site}/first_failure", f"{url}: {message}")
        held = self._release_start_pages(meta)
        if held:
            count(self.crawler.stats, "skipped/host_unreachable", site, len(held))
        return None
