"""Hostile servers on loopback for the crawl tests: names that resolve to loopback, endless headers,
huge listings, a page that runs off-site. Each site is a table of routes on its own 127.0.0.x.

Built on tests/faultweb.py's server; a site records the Host header and path of every request,
and how many bytes each flooding route managed to send before the client hung up.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from faultweb import Reply, Site, free_loopback_host, article_html

Route = Callable[["object", str], None]  # (request handler, path) -> None


def html(body: str) -> bytes:
    return f"<!DOCTYPE html><html><head><title>Hostile</title></head><body>{body}</body></html>".encode()


def links_page(urls) -> bytes:
    return html("<ul>" + "".join(f'<li><a href="{u}">story</a></li>' for u in urls) + "</ul>")


@dataclass
class RoutedSite(Site):
    """A site answering from ``routes`` (path without query -> route); 404 elsewhere."""

    routes: dict[str, Route] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)  # (Host header, path)
    sent: dict[str, int] = field(default_factory=dict)  # path -> bytes a flooding route sent
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self):
        Site.__init__(self)

    def serve(self, handler, path, seen):
        with self.lock:
            self.requests.append((handler.headers.get("Host", ""), path))
        route = self.routes.get(path.split("?")[0])
        if route is None:
            handler.send_reply(Reply(404, b"not found"))
        else:
            route(handler, path)

    def hosts_asked(self) -> set[str]:
        with self.lock:
            return {host.rsplit(":", 1)[0] for host, _ in self.requests}

    def paths(self) -> list[str]:
        with self.lock:
            return [path for _, path in self.requests]

    def add_article(self, path: str, title: str, day: int) -> None:
        self.routes[path] = lambda handler, _: handler.send_reply(Reply(200, article_html(title, day, day).encode()))

    def add_page(self, path: str, body: bytes, content_type: str = "text/html; charset=utf-8") -> None:
        self.routes[path] = lambda handler, _: handler.send_reply(Reply(200, body, content_type))


def start_site(first_host: int = 150) -> RoutedSite:
    site = RoutedSite()
    site.bind(free_loopback_host(first_host))
    return site


def host_of(site: Site) -> str:
    return site.base.split("//", 1)[1].rsplit(":", 1)[0]


def port_of(site: Site) -> int:
    return int(site.base.rsplit(":", 1)[1])


def flood_headers(site: RoutedSite, path: str, limit_bytes: int) -> Route:
    """A route answering 200 and then header lines without end (up to ``limit_bytes``), counting what it sent."""
    line = b"X-Filler: " + b"f" * 90 + b"\r\n"

    def route(handler, _):
        handler.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n")
        sent = 0
        try:
            while sent < limit_bytes:
                handler.wfile.write(line * 100)
                sent += len(line) * 100
        except OSError:
            pass
        finally:
            with site.lock:
                site.sent[path] = sent
    return route


def slow_page(body: bytes, seconds: float) -> Route:
    def route(handler, _):
        time.sleep(seconds)
        handler.send_reply(Reply(200, body))
    return route


def drip_route(seconds: float) -> Route:
    """200, then a byte of HTML every 0.5 s for ``seconds``."""
    def route(handler, _):
        handler.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n")
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            handler.wfile.write(b"<")
            handler.wfile.flush()
            time.sleep(0.5)
    return route


def json_feed(urls) -> bytes:
    return json.dumps({"version": "https://jsonfeed.org/version/1.1", "title": "F",
                       "items": [{"id": str(i), "url": u} for i, u in enumerate(urls)]}).encode()
