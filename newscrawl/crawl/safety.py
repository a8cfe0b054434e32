"""Where a site's requests may go: its allowed hosts, its ports, and no private address it did not list.

A site reaches the hosts of its ``allowed_domains`` (and their subdomains) on the
default ports or on a port one of its configured URLs uses. A private, loopback,
link-local or otherwise reserved address (10.0.0.1, 169.254.169.254, 127.0.0.1,
localhost, [::1]) is reached only on exactly a host and port of the site's
configured URLs, or when ``allowed_domains`` names it outright. A host *name* (one
not written as an address) is looked up, and refused when it resolves to a private
address, even when it is the site's own host: only an address written in sites.yaml
is trusted to be private on purpose (the demo and the tests serve on 127.0.0.x).

:class:`SiteOffsiteMiddleware` applies this to every request before download,
redirects and retries included: Scrapy's own offsite filter lets ``dont_filter``
requests through, and the retry middleware sets ``dont_filter`` on retries, which
redirects then inherit (Scrapy 2.19 ``redirect.py``), so a 503-then-302 to
169.254.169.254 would pass it. :class:`RequestLedgerMiddleware` (off by default)
writes every URL that reaches the downloader to a file, for tests and audits.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IResolutionReceiver
from zope.interface import implementer

from ..run.counters import count
from ..extract.addresses import is_private_address, is_private_host, needs_lookup
from ..config.paths import resolve
from .urls import host_allowed

DEFAULT_PORTS = {"http": 80, "https": 443}


def origin(url: str) -> tuple[str, int] | None:
    parts = urlsplit(url)
    if not parts.hostname:
        return None
    try:
        port = parts.port or DEFAULT_PORTS.get(parts.scheme, 0)
    except ValueError:
        return None
    return parts.hostname.lower().rstrip("."), port


@dataclass(frozen=True)
class SiteReach:
    """The hosts and ports one site may be fetched from."""

    domains: tuple[str, ...]
    origins: frozenset[tuple[str, int]]  # (host, port) of the site's start URLs, feeds and sitemaps
    ports: frozenset[int]  # default ports and the ports of those URLs

    @classmethod
    def of_site(cls, site) -> SiteReach:
        origins = {o for url in (*site.start_urls, *site.feeds, *site.sitemaps) if (o := origin(url))}
        ports = set(DEFAULT_PORTS.values()) | {port for _, port in origins}
        return cls(tuple(site.allowed_domains), frozenset(origins), frozenset(ports))

    def problem(self, url: str) -> str | None:
        """None when ``url`` may be fetched for this site, else why not: offsite_host, offsite_port, private_host."""
        target = origin(url)
        if target is None or not host_allowed(target[0], self.domains):
            return "offsite_host"
        host, port = target
        if is_private_host(host):
            configured_hosts = {h for h, _ in self.origins}
            listed_outright = host in self.domains and host not in configured_hosts
            return None if target in self.origins or listed_outright else "private_host"
        return None if port in self.ports else "offsite_port"


class SiteOffsiteMiddleware:
    """Refuse, before download, any request its site may not reach (see module docstring).

    A request tagged ``meta["newscrawl_site"]`` (redirects and retries keep meta) is judged
    against that site; an untagged one (robots.txt fetched by Scrapy) against every site.
    ``dont_filter`` and ``allow_offsite`` do not bypass it. Counted under
    ``newscrawl/rejected/<reason>`` per site and Scrapy's ``offsite/filtered``.
    """

    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self._reach: dict[str, SiteReach] = {}
        self._sites_by_domain: dict[str, list[str]] | None = None  # allowed domain -> site names

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def spider_opened(self, spider) -> None:
        """Kept for callers of Scrapy's OffsiteMiddleware interface; reach is computed lazily."""

    def _site_reach(self, name: str) -> SiteReach | None:
        if name not in self._reach:
            frontiers = getattr(self.crawler.spider, "frontiers", {})
            if name not in frontiers:
                return None
            self._reach[name] = SiteReach.of_site(frontiers[name].site)
        return self._reach[name]

    def problem(self, request) -> str | None:
        name = request.meta.get("newscrawl_site")
        if name is not None:
            reach = self._site_reach(name)
            return "offsite_host" if reach is None else reach.problem(request.url)
        frontiers = getattr(self.crawler.spider, "frontiers", {})
        if not frontiers:
            return self._spider_wide_problem(request)
        problems = [r.problem(request.url) for n in self._sites_for_host(urlparse_cached(request).hostname)
                    if (r := self._site_reach(n)) is not None]
        return None if None in problems else (problems[0] if problems else "offsite_host")

    def _sites_for_host(self, host: str | None) -> list[str]:
        """Sites whose allowed domains hold ``host`` (indexed: robots.txt requests carry no site, and
        judging each against every site of a broad crawl cost time quadratic in the sites)."""
        if self._sites_by_domain is None:
            self._sites_by_domain = {}
            for name, frontier in getattr(self.crawler.spider, "frontiers", {}).items():
                for domain in frontier.site.allowed_domains:
                    self._sites_by_domain.setdefault(domain, []).append(name)
        if not host:
            return []
        labels = host.lower().rstrip(".").split(".")
        return [name for i in range(len(labels)) for name in self._sites_by_domain.get(".".join(labels[i:]), ())]

    def _spider_wide_problem(self, request) -> str | None:
        domains = tuple(getattr(self.crawler.spider, "allowed_domains", None) or ())
        host = urlparse_cached(request).hostname
        if not domains:
            return "private_host" if is_private_host(host) else None
        return None if host_allowed(host, domains) else "offsite_host"

    def process_request(self, request, spider=None) -> None:
        problem = self.problem(request)
        if problem is None:
            return
        count(self.stats, f"rejected/{problem}", request.meta.get("newscrawl_site"))
        self.stats.inc_value("offsite/filtered")
        raise IgnoreRequest(f"Filtered offsite request ({problem}): {request.url}")


@implementer(IResolutionReceiver)
class _AddressCollector:
    """Gathers the addresses one look-up of Twisted's name resolver gives."""

    def __init__(self):
        self.addresses: list[str] = []
        self.done: Deferred[list[str]] = Deferred()

    def resolutionBegan(self, resolution) -> None:  # noqa: N802 (Twisted interface)
        pass

    def addressResolved(self, address) -> None:  # noqa: N802
        self.addresses.append(address.host)

    def resolutionComplete(self) -> None:  # noqa: N802
        self.done.callback(self.addresses)


async def resolve_host(host: str) -> list[str]:
    """The addresses of ``host`` from the reactor's resolver (Scrapy's ``DNS_RESOLVER``, cached);
    empty when the look-up fails (the download then fails with its own DNS error)."""
    from twisted.internet import reactor

    collector = _AddressCollector()
    reactor.nameResolver.resolveHostName(collector, host, 0)
    return await maybe_deferred_to_future(collector.done)


class ResolvedAddressMiddleware:
    """Refuse a request whose host name resolves to a private address (see module docstring).

    Addresses written as such (127.0.0.2, [::1]) and localhost names are SiteOffsiteMiddleware's
    to judge; every other host is looked up first. Counted ``newscrawl/rejected/private_address``
    (per site when the request carries one). A response whose name was answered with a private
    address at connection time (the answer changed after the check) is refused the same way.
    """

    def __init__(self, stats):
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.stats)

    async def process_request(self, request, spider=None) -> None:
        host = urlparse_cached(request).hostname
        if not needs_lookup(host):
            return
        private = [a for a in await resolve_host(host) if is_private_address(a)]
        if private:
            self._refuse(request, f"{host} resolves to {private[0]}")

    def process_response(self, request, response, spider=None):
        address = getattr(response, "ip_address", None)
        if address is not None and needs_lookup(urlparse_cached(request).hostname) and is_private_address(address):
            self._refuse(request, f"answered from {address}")
        return response

    def _refuse(self, request, why: str) -> None:
        count(self.stats, "rejected/private_address", request.meta.get("newscrawl_site"))
        raise IgnoreRequest(f"Refused private address ({why}): {request.url}")


class RequestLedgerMiddleware:
    """Write every URL that reaches the downloader to ``NEWSCRAWL_REQUEST_LOG``, one a line.

    Placed last before the download handlers, so what it writes is exactly what is fetched.
    With ``NEWSCRAWL_LOOPBACK_ONLY`` it also refuses (and writes as ``REFUSED <url>``) any
    request to a host outside 127.0.0.0/8 and ::1: the fault tests run with it, so a bug in
    the offsite rules can never send traffic off this machine.
    """

    def __init__(self, path: Path, loopback_only: bool):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = path.open("a", encoding="utf-8", buffering=1)
        self.loopback_only = loopback_only

    @classmethod
    def from_crawler(cls, crawler):
        path = crawler.settings.get("NEWSCRAWL_REQUEST_LOG")
        if not path:
            raise NotConfigured
        return cls(resolve(crawler.settings, path), crawler.settings.getbool("NEWSCRAWL_LOOPBACK_ONLY", False))

    def process_request(self, request, spider=None) -> None:
        host = urlparse_cached(request).hostname or ""
        if self.loopback_only and not _is_loopback(host):
            self.handle.write(f"REFUSED {request.url}\n")
            raise IgnoreRequest(f"NEWSCRAWL_LOOPBACK_ONLY: refused {request.url}")
        self.handle.write(f"{request.url}\n")


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host.lower() == "localhost"
