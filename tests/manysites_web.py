"""Many small news sites on loopback, served by one asyncio thread: for the crawl-at-scale tests.

Site ``n`` listens on its own address (127.0.9.2, 127.0.9.3, ...; one port for all) and has:

- ``/robots.txt``, which forbids ``/private/`` and carries an ETag: a request naming that ETag in
  ``If-None-Match`` gets ``304 Not Modified`` (with ``robots_moved``, ``/robots.txt`` redirects to
  ``/files/robots.txt``, which answers so);
- ``/``, linking one article, a stub, a contact page and a page under ``/private/``;
- ``/news/<story>.html``, an article (a demo story, titled with the site's number);
- ``/news/2024/05/14/briefs-coming-soon.html`` (STUB), a page with one short line at an
  article-shaped URL, and ``/contact.html``, the same line at a listing-shaped URL (the
  extractor calls both too short to be an article).

Every request is recorded as (site number, path, conditional, status).
"""
from __future__ import annotations

import asyncio
import html
import json
import threading
from dataclasses import dataclass, field

from newscrawl.demo.stories import HARBOR

FIRST_ADDRESS = "127.0.9.{}"
FIRST_LAST_OCTET = 2
MAX_SITES = 250
ROBOTS = b"User-agent: *\nDisallow: /private/\n"
ROBOTS_ETAG = '"robots-1"'
REASONS = {200: "OK", 301: "Moved Permanently", 304: "Not Modified", 404: "Not Found"}
STUB = "/news/2024/05/14/briefs-coming-soon.html"
CONTACT = (b'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head>'
           b"<body><h1>Contact us</h1><p>Write to the editor at the address below.</p></body></html>")


@dataclass(frozen=True)
class Hit:
    site: int
    path: str
    conditional: bool
    status: int


def site_name(number: int) -> str:
    return f"site-{number:03d}"


def _article(number: int) -> tuple[str, bytes]:
    story = HARBOR[number % len(HARBOR)]
    title = f"{story.title} (edition {number})"
    ld = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": title,
          "datePublished": story.date, "author": {"@type": "Person", "name": story.author}}
    paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in story.paragraphs)
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
            f'<meta property="og:type" content="article">'
            f'<script type="application/ld+json">{json.dumps(ld)}</script></head><body><main><article>'
            f'<h1>{html.escape(title)}</h1><p class="byline">By {html.escape(story.author)}</p>'
            f"{paragraphs}</article></main></body></html>")
    return f"/news/{story.key}.html", page.encode("utf-8")


def _home(number: int, article_path: str) -> bytes:
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Site {number}</title></head>'
            f'<body><h1>Site {number}</h1><ul><li><a href="{article_path}">Today\'s story</a></li>'
            f'<li><a href="{STUB}">Briefs</a></li><li><a href="/contact.html">Contact</a></li>'
            f'<li><a href="/private/draft.html">Drafts</a></li>'
            f"</ul></body></html>").encode("utf-8")


@dataclass
class ManySitesWeb:
    count: int
    robots_moved: bool = False
    port: int = 0
    hits: list[Hit] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _stopping: asyncio.Event | None = None

    def __post_init__(self):
        if not 0 < self.count <= MAX_SITES:
            raise ValueError(f"count: 1 to {MAX_SITES} sites, not {self.count}")

    def address(self, number: int) -> str:
        return FIRST_ADDRESS.format(FIRST_LAST_OCTET + number)

    def base(self, number: int) -> str:
        return f"http://{self.address(number)}:{self.port}"

    def sites_config(self, start_paths: tuple[str, ...] = ("/",)) -> list[dict]:
        return [{"name": site_name(n), "start_urls": [self.base(n) + path for path in start_paths], "max_depth": 1}
                for n in range(self.count)]

    def requested(self, path: str) -> list[Hit]:
        with self._lock:
            return [hit for hit in self.hits if hit.path == path]

    def clear(self) -> None:
        with self._lock:
            self.hits.clear()

    # --- serving -----------------------------------------------------------------------------------

    def _reply(self, number: int, path: str, etag: str | None) -> tuple[int, dict, bytes]:
        article_path, article = _article(number)
        if path == "/robots.txt" and self.robots_moved:
            return 301, {"Location": "/files/robots.txt", "Content-Type": "text/plain"}, b""
        if path == ("/files/robots.txt" if self.robots_moved else "/robots.txt"):
            headers = {"Content-Type": "text/plain", "ETag": ROBOTS_ETAG}
            return (304, headers, b"") if etag == ROBOTS_ETAG else (200, headers, ROBOTS)
        pages = {"/": _home(number, article_path), article_path: article, STUB: CONTACT, "/contact.html": CONTACT,
                 "/private/draft.html": CONTACT}
        if path in pages:
            return 200, {"Content-Type": "text/html; charset=utf-8"}, pages[path]
        return 404, {"Content-Type": "text/plain"}, b"not found"

    async def _answer(self, number: int, reader, writer) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                path = head[0].split(" ")[1]
                fields = {name.strip().lower(): value.strip()
                          for name, _, value in (line.partition(":") for line in head[1:] if line)}
                etag = fields.get("if-none-match")
                status, headers, body = self._reply(number, path, etag)
                with self._lock:
                    self.hits.append(Hit(number, path, bool(etag or fields.get("if-modified-since")), status))
                lines = [f"HTTP/1.1 {status} {REASONS[status]}",
                         *(f"{name}: {value}" for name, value in headers.items()), f"Content-Length: {len(body)}"]
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()

    async def _serve(self, started: threading.Event) -> None:
        self._stopping = asyncio.Event()
        servers = [await asyncio.start_server(lambda r, w: self._answer(0, r, w), self.address(0), 0)]
        self.port = servers[0].sockets[0].getsockname()[1]
        for number in range(1, self.count):
            servers.append(await asyncio.start_server(lambda r, w, n=number: self._answer(n, r, w),
                                                      self.address(number), self.port))
        started.set()
        await self._stopping.wait()
        for server in servers:
            server.close()

    def start(self) -> ManySitesWeb:
        started = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_until_complete, args=(self._serve(started),),
                                        daemon=True)
        self._thread.start()
        if not started.wait(30):
            raise RuntimeError("the many-sites web did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
            self._thread.join(10)
