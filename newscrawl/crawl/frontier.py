"""Per-site crawl budget: which discovered URLs are worth a request.

Every site is bounded: link depth, page count, distinct query strings per
path (exploding filters, session ids) and distinct non-article URLs per URL
shape (endless calendars). Memory grows only with admitted URLs, so at most
``max_pages`` per site.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .classify import ARTICLE
from ..config.sites import SiteConfig
from .urls import host_allowed, path_key, url_shape


@dataclass(frozen=True)
class FrontierLimits:
    max_pages: int  # pages (HTML requests) per site
    max_depth: int  # link hops from a start page; feed and sitemap entries are depth 1
    max_query_variants: int  # distinct query strings per host+path
    max_per_shape: int  # distinct non-article URLs per host+path with digits collapsed


@dataclass
class SiteFrontier:
    """Admission control for one site's page requests."""

    site: SiteConfig
    limits: FrontierLimits
    admitted: int = 0
    seen: set[str] = field(default_factory=set)
    rejected: Counter = field(default_factory=Counter)
    _queries: dict[str, set[str]] = field(default_factory=dict)
    _shapes: Counter = field(default_factory=Counter)

    @classmethod
    def for_site(cls, site: SiteConfig, defaults: FrontierLimits) -> SiteFrontier:
        limits = FrontierLimits(
            max_pages=site.max_pages or defaults.max_pages,
            max_depth=defaults.max_depth if site.max_depth is None else site.max_depth,
            max_query_variants=defaults.max_query_variants,
            max_per_shape=defaults.max_per_shape,
        )
        return cls(site, limits)

    @property
    def budget_spent(self) -> bool:
        """No further page can be admitted: the rest of any listing can be left unread."""
        return self.admitted >= self.limits.max_pages

    def allows_host(self, host: str | None) -> bool:
        return host_allowed(host, self.site.allowed_domains)

    def check(self, url: str, host: str | None, depth: int, url_kind: str) -> str | None:
        """None when ``url`` may be requested (and record it), else the reason it may not."""
        if url in self.seen:
            return "seen"
        reason = self._reason(url, host, depth, url_kind)
        if reason:
            self.rejected[reason] += 1
            return reason
        self.seen.add(url)
        self.admitted += 1
        return None

    def _reason(self, url: str, host: str | None, depth: int, url_kind: str) -> str | None:
        if not self.allows_host(host):
            return "offsite"
        if any(p.search(url) for p in self.site.deny_patterns):
            return "denied"
        if depth > self.limits.max_depth:
            return "max_depth"
        if self.admitted >= self.limits.max_pages:
            return "max_pages"
        path, query = path_key(url)
        if query:
            variants = self._queries.setdefault(path, set())
            if query not in variants and len(variants) >= self.limits.max_query_variants:
                return "query_variants"
            variants.add(query)
        if url_kind != ARTICLE:
            shape = url_shape(url)
            if self._shapes[shape] >= self.limits.max_per_shape:
                return "url_shape"
            self._shapes[shape] += 1
        return None

    def stop_reason(self) -> str:
        """Why this site's crawl ended: the page budget, or its frontier ran dry."""
        if self.rejected["max_pages"] or self.budget_spent:
            return "max_pages"
        return "exhausted"
