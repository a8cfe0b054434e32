"""Scrapy's robots.txt middleware, downloading each host's robots.txt once a run for the spider and itself.

The spider asks every start host for its robots.txt (for its ``Sitemap:`` lines, and to hold a
rendering site's start pages until the host answers). Scrapy's middleware would download the file
again for its rules. Here one download serves both: the spider's request is answered with the
response of the middleware's own download (``robots/shared``), and the rules are made from it. That
download goes through the engine, not the scheduler, as Scrapy's does: its redirects and retries
never wait behind the requests that wait for its answer. It is conditional when the host gave a
validator (conditional.py: a 304 replays the stored file). A host the spider does not ask (a feed
on another host, a redirect target) gets the same download when its first request comes.

A page that robots.txt forbids is counted as ``newscrawl/rejected/robots`` (and under its site), so
the per-site summary can tell a site that forbids crawling from one that has no pages. A robots.txt
that could not be downloaded (no DNS, refused, timed out) is logged by the spider's own robots.txt
request, as one line; Scrapy's copy of that message, with its traceback, goes to DEBUG.
"""
from __future__ import annotations

from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
from scrapy.downloadermiddlewares.robotstxt import logger as scrapy_robots_logger
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import build_from_crawler
from twisted.internet.defer import Deferred

from ..run.counters import count
from .failures import quiet_expected_network_errors

ROBOTS_SOURCE = "robots"  # meta["newscrawl_source"] of the spider's robots.txt requests
ROBOTS_FILE_SOURCE = "robots_file"  # ... of the one download of a host's robots.txt (conditional.py)


class Awaited:
    """A result that any number of coroutines wait for (a Deferred gives its result to its first
    awaiting coroutine only: the others got None, which Scrapy's middleware took for "allow all")."""

    def __init__(self):
        self.waiting: list[Deferred] = []

    async def wait(self):
        waiter = Deferred()
        self.waiting.append(waiter)
        return await maybe_deferred_to_future(waiter)

    def settle(self, result) -> None:
        waiting, self.waiting = self.waiting, []
        for waiter in waiting:
            waiter.callback(result)


class SiteRobotsTxtMiddleware(RobotsTxtMiddleware):
    def __init__(self, crawler):
        super().__init__(crawler)
        quiet_expected_network_errors(scrapy_robots_logger.name)
        # host -> its robots.txt download in flight, settled with the Response or the exception
        self.downloads: dict[str, Awaited] = {}

    async def process_request(self, request: Request) -> Response | None:
        meta = request.meta
        if meta.get("newscrawl_source") == ROBOTS_SOURCE:  # the spider's: answered by the one download
            response = await self._robots_response(urlparse_cached(request).scheme, meta["newscrawl_host"],
                                                   meta.get("newscrawl_site"))
            count(self.crawler.stats, "robots/shared", meta.get("newscrawl_site"))
            return response.replace(request=request)
        await super().process_request(request)
        return None

    async def robot_parser(self, request: Request):
        """The rules of the request's host: made once from its robots.txt, None when it could not be read."""
        host = urlparse_cached(request).netloc
        if host not in self._parsers:
            try:
                await self._robots_response(urlparse_cached(request).scheme, host, request.meta.get("newscrawl_site"))
            except Exception:  # noqa: BLE001 (the rules are None: logged and counted by the download)
                pass
        parser = self._parsers[host]
        return await parser.wait() if isinstance(parser, Awaited) else parser

    async def _robots_response(self, scheme: str, host: str, site: str | None) -> Response:
        """The host's robots.txt (raises what its download raised); one download for all who ask while
        it runs. The first download of a run also makes the host's rules."""
        download = self.downloads.get(host)
        if download is not None:
            outcome = await download.wait()
        else:
            download = self.downloads[host] = Awaited()
            rules = None
            if host not in self._parsers:
                rules = self._parsers[host] = Awaited()
            outcome = await self._download(scheme, host, site)
            if rules is not None:
                parser = build_from_crawler(self._parserimpl, self.crawler, outcome.body) \
                    if isinstance(outcome, Response) else None
                self._parsers[host] = parser
                rules.settle(parser)
            del self.downloads[host]
            download.settle(outcome)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    async def _download(self, scheme: str, host: str, site: str | None) -> Response | Exception:
        request = Request(f"{scheme}://{host}/robots.txt", priority=self.DOWNLOAD_PRIORITY, callback=NO_CALLBACK,
                          meta={"dont_obey_robotstxt": True, "newscrawl_source": ROBOTS_FILE_SOURCE,
                                "newscrawl_site": site})
        self._stats.inc_value("robotstxt/request_count")
        try:
            response = await self.crawler.engine.download_async(request)
        except Exception as exc:  # noqa: BLE001 (handed to whoever waits)
            if not isinstance(exc, IgnoreRequest):
                self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
                scrapy_robots_logger.error("Error downloading %s: %s", request, exc, exc_info=exc)
            return exc
        self._stats.inc_value("robotstxt/response_count")
        self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        return response

    def process_request_2(self, rp, request) -> None:
        try:
            super().process_request_2(rp, request)
        except IgnoreRequest:
            count(self.crawler.stats, "rejected/robots", request.meta.get("newscrawl_site"))
            raise
