"""Which network addresses are private: the one rule the crawl and the extractor's URL fetch share.

Private here means any address that is not a public unicast one: private ranges (10/8,
172.16/12, 192.168/16, fc00::/7), loopback, link-local (169.254/16, fe80::/10, the cloud
metadata service 169.254.169.254 and fd00:ec2::254 among them), carrier-grade NAT,
unspecified, reserved and multicast. A host *name* is private only when it is a localhost
name; what a name resolves to is asked with :func:`is_private_address` after the look-up.

No Scrapy or Twisted import: ``newscrawl.crawl.safety`` and the extractor's command line both use it.
"""
from __future__ import annotations

import ipaddress

# Names that always mean this machine, whatever the resolver says (RFC 6761 section 6.3).
LOCAL_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")


def normalize_host(host: str) -> str:
    """Lower case, no trailing dot, no IPv6 brackets."""
    return host.lower().rstrip(".").strip("[]")


def ip_literal(host: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address when ``host`` is written as an IP address, else None."""
    if not host:
        return None
    try:
        return ipaddress.ip_address(normalize_host(host))
    except ValueError:
        return None


def is_private_address(address: str | ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """True for every address that is not public unicast (an unreadable address counts as private)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0] if isinstance(address, str) else address)
    except ValueError:
        return True
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # ::ffff:127.0.0.1 is 127.0.0.1
    return not ip.is_global or ip.is_multicast


def is_local_name(host: str | None) -> bool:
    """True for localhost and its subdomains, which resolve to this machine by definition."""
    if not host:
        return False
    host = normalize_host(host)
    return host in LOCAL_NAMES or host.endswith(".localhost")


def is_private_host(host: str | None) -> bool:
    """True for a non-public IP literal or a localhost name: private before any look-up."""
    literal = ip_literal(host)
    return is_private_address(literal) if literal is not None else is_local_name(host)


def needs_lookup(host: str | None) -> bool:
    """True for a host name whose addresses must be looked up before it is judged."""
    return bool(host) and ip_literal(host) is None and not is_local_name(host)
