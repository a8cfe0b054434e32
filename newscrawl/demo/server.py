"""Serve the demo sites on loopback addresses, one threaded HTTP server per site.

Every site gets its own address (127.0.0.2, 127.0.0.3, ...) so hosts,
allowed domains and per-domain politeness work as on the real web. Requests
are logged as ``(host, path)`` so tests can check what was (not) fetched.
"""
from __future__ import annotations

import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .web import BUILDERS, DemoSite

FIRST_HOST = 2  # 127.0.0.1 is left to other local services


class _Handler(BaseHTTPRequestHandler):
    server_version = "demo-news/1.0"
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        web: DemoServer = self.server.web  # type: ignore[attr-defined]
        site: DemoSite = self.server.site  # type: ignore[attr-defined]
        web.record(site.name, self.path, self.headers.get("User-Agent"))
        reply = site.reply(self.path)
        if reply.delay:
            time.sleep(reply.delay)
        try:
            self.send_response(reply.status)
            if reply.content_type:
                self.send_header("Content-Type", reply.content_type)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


def _free_address(first: int) -> tuple[int, ThreadingHTTPServer]:
    """Bind the first free 127.0.0.x from ``first`` on an OS-chosen port."""
    for last in range(first, 255):
        try:
            server = ThreadingHTTPServer((f"127.0.0.{last}", 0), _Handler)
        except OSError:
            continue
        return last, server
    raise OSError("no free loopback address")


@dataclass
class DemoServer:
    """The running demo web: ``sites`` in order, ``requests`` as (site, path) in arrival order, and
    the user agent of each in ``user_agents``."""

    sites: list[DemoSite] = field(default_factory=list)
    requests: list[tuple[str, str]] = field(default_factory=list)
    user_agents: list[str | None] = field(default_factory=list)
    _servers: list[ThreadingHTTPServer] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, site: str, path: str, user_agent: str | None = None) -> None:
        with self._lock:
            self.requests.append((site, path))
            self.user_agents.append(user_agent)

    def paths(self, site: str) -> list[str]:
        with self._lock:
            return [p for s, p in self.requests if s == site]

    def start(self, builders=BUILDERS) -> DemoServer:
        last = FIRST_HOST
        for build in builders:
            last, server = _free_address(last)
            host, port = server.server_address[:2]
            site = build(f"http://{host}:{port}")
            server.web, server.site = self, site  # type: ignore[attr-defined]
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, name=f"demo-{site.name}", daemon=True).start()
            self._servers.append(server)
            self.sites.append(site)
            last += 1
        return self

    def stop(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()
        self._servers.clear()

    def site(self, name: str) -> DemoSite:
        return next(s for s in self.sites if s.name == name)


def loopback_works(address: str = f"127.0.0.{FIRST_HOST}") -> bool:
    """True when this machine routes 127.0.0.x beyond .1 (Linux does)."""
    with socket.socket() as sock:
        try:
            sock.bind((address, 0))
        except OSError:
            return False
    return True
