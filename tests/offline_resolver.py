"""A DNS resolver for crawl tests (``-s TWISTED_DNS_RESOLVER=offline_resolver.OfflineResolver``).

IP literals and ``localhost`` resolve to themselves (127.0.0.1); every other name fails at once,
as an unknown host does, without asking any real DNS server. With ``OFFLINE_RESOLVER_LOG`` set in
the environment, each name asked is appended to that file (so a test can see the resolver was used).
"""
from __future__ import annotations

import ipaddress
import os

from twisted.internet import defer
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

FAILURE_WORDS = "no such host (offline test resolver)"
LOG_VARIABLE = "OFFLINE_RESOLVER_LOG"


@implementer(IResolverSimple)
class OfflineResolver:
    def __init__(self, reactor):
        self.reactor = reactor

    @classmethod
    def from_crawler(cls, crawler, reactor):
        return cls(reactor)

    def install_on_reactor(self) -> None:
        self.reactor.installResolver(self)

    def getHostByName(self, name: str, timeout=()):  # noqa: N802 (Twisted's interface)
        if os.environ.get(LOG_VARIABLE):
            with open(os.environ[LOG_VARIABLE], "a", encoding="utf-8") as log:
                log.write(name + "\n")
        if name == "localhost":
            return defer.succeed("127.0.0.1")
        try:
            return defer.succeed(str(ipaddress.ip_address(name)))
        except ValueError:
            return defer.fail(DNSLookupError(f"{FAILURE_WORDS}: {name}"))
