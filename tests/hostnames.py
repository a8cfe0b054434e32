"""A name resolver for crawl tests: host names answer from a table the test gives, nothing else resolves.

Used as ``-s TWISTED_DNS_RESOLVER=hostnames.MappedNamesResolver`` with
``-s NEWSCRAWL_TEST_HOSTS=evil.test=127.0.0.61,own.test=127.0.0.61``: the crawl then
sees names that resolve to loopback without touching the machine's resolver or any
network (the tests put this directory on the crawl's PYTHONPATH).
"""
from __future__ import annotations

import ipaddress

from twisted.internet import defer
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

HOSTS_SETTING = "NEWSCRAWL_TEST_HOSTS"


def hosts_setting(table: dict[str, str]) -> str:
    return ",".join(f"{name}={address}" for name, address in table.items())


@implementer(IResolverSimple)
class MappedNamesResolver:
    def __init__(self, reactor, table: dict[str, str]):
        self.reactor = reactor
        self.table = table

    @classmethod
    def from_crawler(cls, crawler, reactor):
        pairs = [pair.split("=", 1) for pair in (crawler.settings.get(HOSTS_SETTING) or "").split(",") if pair]
        return cls(reactor, {name.lower(): address for name, address in pairs})

    def install_on_reactor(self) -> None:
        self.reactor.installResolver(self)

    def getHostByName(self, name: str, timeout=()):  # noqa: N802 (Twisted interface)
        try:
            return defer.succeed(str(ipaddress.ip_address(name)))
        except ValueError:
            pass
        address = self.table.get(name.lower().rstrip("."))
        return defer.succeed(address) if address else defer.fail(DNSLookupError(name))
