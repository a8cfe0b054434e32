"""Fetch one page for the command line: http(s) only, one time limit for the whole fetch, no private
address it was not named, and every failure one :class:`FetchError` line.

The private-address rule is the crawl's (newscrawl.crawl.safety): a host name is looked up and refused when
it resolves to a private, loopback, link-local or metadata address; an address typed on the command
line (``http://127.0.0.1:8000/page``, ``http://localhost/``) is taken as meant, on that host and port
only, redirects included. The connection goes to the address that was checked, so the name cannot
resolve to another one in between.
"""
from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from .addresses import ip_literal, is_private_address, is_private_host, normalize_host

USER_AGENT = "newscrawl-extract/0.1 (+https://example.invalid/newscrawl)"
# Seconds for the whole fetch: look-up, connection, every redirect, headers and body. A server dripping
# a byte now and then is cut here, not after each read's own timeout.
FETCH_TIMEOUT_SECONDS = 30.0
MAX_FETCH_BYTES = 20_000_000  # body bytes; a larger page is refused
MAX_REDIRECTS = 5  # as Scrapy's REDIRECT_MAX_TIMES of the crawl (newscrawl/settings.py)
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
DEFAULT_PORTS = {"http": 80, "https": 443}
READ_CHUNK_BYTES = 65536


class FetchError(Exception):
    """The page could not be fetched; the message is one line naming the URL and why."""


@dataclass(frozen=True)
class FetchedPage:
    body: bytes
    charset: str | None
    url: str  # after redirects


class _Deadline:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.ends = time.monotonic() + seconds

    def remaining(self, url: str) -> float:
        left = self.ends - time.monotonic()
        if left <= 0:
            raise FetchError(f"cannot fetch {url}: no answer within {self.seconds:g} s")
        return left

    @property
    def passed(self) -> bool:
        return time.monotonic() >= self.ends


def _origin(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of an http(s) URL; FetchError for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise FetchError(f"bad URL {url!r}: {error}") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise FetchError(f"bad URL {url!r}: expected http(s)://host/path")
    return parts.scheme, normalize_host(parts.hostname), port or DEFAULT_PORTS[parts.scheme]


def _look_up(host: str, port: int, url: str, deadline: _Deadline) -> list[str]:
    """The addresses of ``host``, within the deadline (getaddrinfo has no timeout of its own)."""
    found: list = []

    def resolve() -> None:
        try:
            found.extend(info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM))
        except (OSError, UnicodeError) as error:
            found.append(error)

    worker = threading.Thread(target=resolve, daemon=True)
    worker.start()
    worker.join(deadline.remaining(url))
    if worker.is_alive():
        raise FetchError(f"cannot fetch {url}: no answer within {deadline.seconds:g} s (looking up {host})")
    if not found or isinstance(found[0], Exception):
        reason = found[0] if found else "no address"
        raise FetchError(f"cannot fetch {url}: cannot resolve {host}: {reason}")
    return found


def _address(url: str, named: tuple[str, int], deadline: _Deadline) -> str:
    """The address to connect to for ``url``; FetchError when it is private and was not named."""
    _, host, port = _origin(url)
    literal = ip_literal(host)
    if literal is not None or is_private_host(host):
        if is_private_host(host) and (host, port) != named:
            raise FetchError(f"refused {url}: {host} is a private address (name it on the command line to fetch it)")
        return str(literal) if literal is not None else host
    addresses = _look_up(host, port, url, deadline)
    private = [a for a in addresses if is_private_address(a)]
    if private:
        raise FetchError(f"refused {url}: {host} resolves to the private address {private[0]}")
    return addresses[0]


def _connect(url: str, address: str, deadline: _Deadline) -> http.client.HTTPConnection:
    scheme, host, port = _origin(url)
    sock = socket.create_connection((address, port), timeout=deadline.remaining(url))
    if scheme == "https":
        sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    connection = http.client.HTTPConnection(host, port, timeout=deadline.remaining(url))
    connection.sock = sock  # http.client connects only when it has no socket: this one goes to the checked address
    return connection


def _get(url: str, address: str, deadline: _Deadline, max_bytes: int):
    """(status, location, charset, body) of one GET; the socket is shut at the deadline, whatever it is doing."""
    connection = _connect(url, address, deadline)
    watchdog = threading.Timer(deadline.remaining(url), _shut, (connection.sock,))
    watchdog.daemon = True
    watchdog.start()
    try:
        parts = urlsplit(url)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
        response = connection.getresponse()
        if response.status in REDIRECT_STATUSES:
            return response.status, response.getheader("Location"), None, b""
        chunks, size = [], 0
        while chunk := response.read(READ_CHUNK_BYTES):
            size += len(chunk)
            if size > max_bytes:
                raise FetchError(f"cannot fetch {url}: page larger than {max_bytes} bytes")
            chunks.append(chunk)
        if deadline.passed:  # the watchdog shut the socket: what came is not the whole page
            raise FetchError(f"cannot fetch {url}: no answer within {deadline.seconds:g} s")
        if response.length:  # bytes Content-Length announced that never came
            raise FetchError(f"cannot fetch {url}: the body ended {response.length} bytes short of its Content-Length")
        return response.status, None, response.headers.get_content_charset(), b"".join(chunks)
    finally:
        watchdog.cancel()
        connection.close()


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def fetch_page(url: str, timeout: float = FETCH_TIMEOUT_SECONDS, max_bytes: int = MAX_FETCH_BYTES) -> FetchedPage:
    """The page at ``url`` (an http(s) URL), following up to MAX_REDIRECTS redirects; FetchError otherwise."""
    deadline = _Deadline(timeout)
    named = _origin(url)[1:]
    for _ in range(MAX_REDIRECTS + 1):
        address = _address(url, named, deadline)
        try:
            status, location, charset, body = _get(url, address, deadline, max_bytes)
        except (OSError, http.client.HTTPException, ValueError) as error:
            if deadline.passed:
                raise FetchError(f"cannot fetch {url}: no answer within {timeout:g} s") from None
            reason = str(error) or type(error).__name__
            raise FetchError(f"cannot fetch {url}: {' '.join(reason.split())[:200]}") from None
        if location is not None:
            target = urljoin(url, location.strip())
            if urlsplit(target).scheme not in DEFAULT_PORTS:
                raise FetchError(f"refused {url}: it redirects to {target[:200]!r}, not an http(s) URL")
            url = target
            continue
        if status in REDIRECT_STATUSES:
            raise FetchError(f"cannot fetch {url}: HTTP {status} without a Location")
        if status >= 400:
            raise FetchError(f"cannot fetch {url}: HTTP {status}")
        return FetchedPage(body, charset, url)
    raise FetchError(f"cannot fetch {url}: more than {MAX_REDIRECTS} redirects")
