"""A small mock web whose articles change between runs, for the incremental, crash and Redis tests.

Two English sites on their own 127.0.0.x addresses. Each has a home page
linking its current articles, an RSS feed announced on the home page that
answers conditional requests (ETag / Last-Modified, 304), and robots.txt.
``valley-post`` carries a syndicated copy of a ``harbor-news`` story (own
headline and credit lines, same body). Tests add articles between runs with
:meth:`MockSite.publish` and read what was requested from ``requests``.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from email.utils import format_datetime
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from newscrawl.demo.stories import HARBOR, VALLEY, Story
from newscrawl.crawl.fingerprint import fingerprint_text
from newscrawl.store.state import ArticleRecord

FIRST_HOST = 40  # 127.0.0.40 and up: away from the demo web's 127.0.0.2+
LAST_MODIFIED = "Tue, 14 May 2024 08:00:00 GMT"


@dataclass
class Request:
    site: str
    path: str
    conditional: bool
    status: int


@dataclass
class MockSite:
    name: str
    title: str
    articles: dict[str, tuple[Story, str]] = field(default_factory=dict)  # path -> (story, credit line)
    base: str = ""
    article_delay: float = 0.0  # seconds before answering an article page

    def publish(self, story: Story, credit: str = "", title: str | None = None) -> str:
        """Add an article (at the top of home page and feed); its absolute URL."""
        day = story.date[:10].replace("-", "/")
        path = f"/{day}/{story.key}.html"
        if title:
            story = Story(story.key, story.date, title, story.author, story.paragraphs)
        self.articles = {path: (story, credit), **self.articles}
        return self.base + path

    def urls(self) -> set[str]:
        return {self.base + path for path in self.articles}

    # --- pages ------------------------------------------------------------------------------------------

    def home(self) -> bytes:
        links = "".join(f'<li><a href="{p}">{html.escape(s.title)}</a></li>' for p, (s, _) in self.articles.items())
        return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{self.title}</title>'
                f'<meta property="og:type" content="website">'
                f'<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>'
                f'<h1>{self.title}</h1><ul class="headlines">{links}</ul>'
                f'<p><a href="/about">About us</a></p></body></html>').encode("utf-8")

    def feed(self) -> bytes:
        items = "".join(
            f"<item><title>{html.escape(s.title)}</title><link>{self.base}{p}</link>"
            f"<pubDate>{format_datetime(datetime.fromisoformat(s.date))}</pubDate></item>"
            for p, (s, _) in self.articles.items())
        return (f'<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>{self.title}</title>'
                f"<link>{self.base}/</link><description>News</description>{items}</channel></rss>").encode("utf-8")

    def article(self, story: Story, credit: str) -> bytes:
        ld = {"@context": "https://schema.org", "@type": "NewsArticle", "headline": story.title,
              "datePublished": story.date, "author": {"@type": "Person", "name": story.author}}
        paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in story.paragraphs)
        credit_html = f'<p class="credit">{html.escape(credit)}</p>' if credit else ""
        return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
                f"<title>{html.escape(story.title)} | {self.title}</title>"
                f'<meta property="og:type" content="article">'
                f'<script type="application/ld+json">{json.dumps(ld)}</script></head><body>'
                f'<header><a href="/">{self.title}</a></header><main><article>'
                f"<h1>{html.escape(story.title)}</h1><p class=\"byline\">By {html.escape(story.author)} | "
                f'<time datetime="{story.date}">{story.date[:10]}</time></p>{credit_html}'
                f'<div class="story-body">{paragraphs}</div></article></main>'
                f"<footer><p>{self.title}</p></footer></body></html>").encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        web: IncrementalWeb = self.server.web  # type: ignore[attr-defined]
        site: MockSite = self.server.site  # type: ignore[attr-defined]
        status, content_type, body, headers = 404, "text/html", b"not found", {}
        conditional = bool(self.headers.get("If-None-Match") or self.headers.get("If-Modified-Since"))
        if self.path == "/robots.txt":
            status, content_type, body = 200, "text/plain", b"User-agent: *\nAllow: /\n"
        elif self.path in ("/", "/feed.xml"):
            body = site.home() if self.path == "/" else site.feed()
            content_type = "text/html; charset=utf-8" if self.path == "/" else "application/rss+xml"
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            headers = {"ETag": etag, "Last-Modified": LAST_MODIFIED}
            status = 304 if self.headers.get("If-None-Match") == etag else 200
        elif self.path == "/about":
            status, body = 200, site.home().replace(b"headlines", b"about")
        elif self.path in site.articles:
            web.wait_for_company()
            time.sleep(site.article_delay)
            status, content_type, body = 200, "text/html; charset=utf-8", site.article(*site.articles[self.path])
        web.record(Request(site.name, self.path, conditional, status))
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            for name, value in headers.items():
                self.send_header(name, value)
            payload = b"" if status == 304 else body
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, format, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


class IncrementalWeb:
    """Both sites served on 127.0.0.x; ``harbor`` and ``valley`` are their MockSites."""

    def __init__(self, article_delay: float = 0.0):
        self.harbor = MockSite("harbor-news", "Harbor News", article_delay=article_delay)
        self.valley = MockSite("valley-post", "Valley Post", article_delay=article_delay)
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._servers: list[ThreadingHTTPServer] = []
        self._gate = threading.Condition()
        self._articles_waiting = 0
        self._company_needed = 0  # 0: answer article pages at once

    def hold_articles_until_concurrent(self, count: int) -> None:
        """Answer no article page until ``count`` article requests are in flight at once (then never hold again).

        A crawler limited to fewer concurrent requests than ``count`` cannot open the gate alone, so
        every crawler that opens it shares the articles with another, however their starts are staggered.
        """
        self._company_needed = count

    def wait_for_company(self, timeout: float = 60.0) -> None:
        with self._gate:
            self._articles_waiting += 1
            self._gate.notify_all()
            # open for good once the company came, or when it did not in time (a lone crawler then is not
            # held at every article: the test's own assertions say what went wrong)
            self._gate.wait_for(lambda: self._articles_waiting >= self._company_needed, timeout=timeout)
            self._company_needed = 0
            self._articles_waiting -= 1

    def record(self, request: Request) -> None:
        with self._lock:
            self.requests.append(request)

    def requested(self, path_prefix: str = "/") -> list[Request]:
        with self._lock:
            return [r for r in self.requests if r.path.startswith(path_prefix)]

    def start(self) -> IncrementalWeb:
        last = FIRST_HOST
        for site in (self.harbor, self.valley):
            last, server = _bind_from(last)
            host, port = server.server_address[:2]
            site.base = f"http://{host}:{port}"
            server.web, server.site = self, site  # type: ignore[attr-defined]
            server.daemon_threads = True
            threading.Thread(target=server.serve_forever, daemon=True).start()
            self._servers.append(server)
            last += 1
        return self

    def publish_first_edition(self) -> None:
        """Five Harbor stories, two Valley stories and Valley's syndicated copy of Harbor's first story."""
        for story in reversed(HARBOR[:5]):
            self.harbor.publish(story)
        for story in reversed(VALLEY[:2]):
            self.valley.publish(story)
        self.valley.publish(HARBOR[0], credit="This story first appeared in Harbor News and is republished "
                                              "with permission.", title="Cranes are back on the east quay")

    def sites_config(self) -> list[dict]:
        return [{"name": site.name, "start_urls": [site.base + "/"], "max_depth": 1}
                for site in (self.harbor, self.valley)]

    def all_urls(self) -> set[str]:
        return self.harbor.urls() | self.valley.urls()

    def stop(self) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()


def _bind_from(first: int) -> tuple[int, ThreadingHTTPServer]:
    for last in range(first, 255):
        try:
            return last, ThreadingHTTPServer((f"127.0.0.{last}", 0), _Handler)
        except OSError:
            continue
    raise OSError("no free loopback address")


def loopback_port_free(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def crawl_command(sites, output, settings: dict | None = None) -> list[str]:
    """The ``python -m scrapy crawl news`` command line the demo runner uses, for Popen."""
    from newscrawl.demo.run import LOOPBACK_SETTINGS

    command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"sites={sites}", "-o", str(output)]
    for name, value in {**LOOPBACK_SETTINGS, "NEWSCRAWL_EXTRACT_WORKERS": "0", **(settings or {})}.items():
        command += ["-s", f"{name}={value}"]
    return command


def crawl_env() -> dict:
    from newscrawl.demo.run import PROJECT_ROOT

    return dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings",
                PYTHONPATH=os.pathsep.join(filter(None, [str(PROJECT_ROOT), os.environ.get("PYTHONPATH")])))


def start_crawl(sites, output, cwd, settings: dict | None = None) -> subprocess.Popen:
    """A crawl in its own process group (so a test can SIGKILL it with its children)."""
    return subprocess.Popen(crawl_command(sites, output, settings), cwd=cwd, env=crawl_env(), text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.communicate(timeout=30)


def story_record(number: int, first_seen: str = "2030-01-01T00:00:00+00:00", text: str | None = None) -> ArticleRecord:
    """The state's record of HARBOR story ``number`` at http://a.test/ (fetched through its feed link)."""
    story = HARBOR[number]
    return ArticleRecord(f"http://a.test/{story.key}", f"http://a.test/{story.key}?from=rss", "a", first_seen,
                         fingerprint_text(text or " ".join(story.paragraphs)))
