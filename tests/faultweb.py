"""A fault-injecting web on loopback for the robustness tests: broken servers around good pages.

Three servers, all on 127.0.0.0/8 and all stopped by ``stop()``:

- the *fault site* (its own 127.0.0.x): six good articles linked from the home page, feed and
  sitemap, around one URL per fault (reset mid-body, timeout, endless drip, 503 then success,
  429 with Retry-After, truncated gzip, gzip bomb, 50 MB page, wrong header charset, binary and
  PDF bodies as text/html, redirect loop, redirects and links to other hosts, calendar and
  session-id traps, malformed and entity-bomb feeds and sitemaps, garbage robots.txt); its
  ``sites.yaml`` entry also lists a start URL on a closed port (connection refused);
- the *slow-robots site*: two good articles, a robots.txt that never answers in time;
- the *bystander* on 127.0.0.1: a server nothing may reach (links and redirects point at it);
  it counts every request it gets.

Offsite links to 10.0.0.1 and 169.254.169.254 are only written into pages: the crawl runs with
``NEWSCRAWL_LOOPBACK_ONLY`` so even a broken offsite rule cannot send traffic off this machine.
"""
from __future__ import annotations

import calendar
import gzip
import socket
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DRIP_MAX_SECONDS = 20  # the endless drip gives up by itself after this long
SLOW_SECONDS = 6  # "timeout" pages and the slow robots.txt answer after this long
HUGE_BYTES = 50 * 1024 * 1024
BOMB_BYTES = 200 * 1024 * 1024  # what the gzip bomb inflates to

WORDS = ("harbour", "council", "bridge", "river", "market", "school", "railway", "library", "festival",
         "hospital", "ferry", "museum", "stadium", "garden", "tunnel", "orchard")
ENTITY_BOMB = ("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [<!ENTITY lol \"lol\">"
               + "".join(f"<!ENTITY lol{i} \"{('&lol' + str(i - 1) + ';') * 10 if i > 1 else '&lol;' * 10}\">"
                         for i in range(1, 10))
               + "<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n")


def article_html(title: str, day: int, seed: int, charset: str = "utf-8") -> str:
    words = WORDS[seed % len(WORDS):] + WORDS[:seed % len(WORDS)]
    paragraphs = "".join(
        f"<p>On day {day} the {words[i]} committee of district {seed} met again, and the {words[i + 1]} plan "
        f"number {seed * 100 + i} was read aloud, argued over for an hour, and finally approved.</p>"
        for i in range(6))
    return (f"<!DOCTYPE html><html><head><meta charset=\"{charset}\"><title>{title}</title>"
            f"<meta property=\"og:type\" content=\"article\"></head><body><nav><a href=\"/\">Home</a></nav>"
            f"<article><h1>{title}</h1><time datetime=\"2024-05-{day:02d}\">2024-05-{day:02d}</time>"
            f"{paragraphs}</article></body></html>")


def _gzip_bomb() -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b"\0" * (1 << 20)
    return b"".join(compressor.compress(chunk) for _ in range(BOMB_BYTES >> 20)) + compressor.flush()


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)
    length: bool = True  # send Content-Length


@dataclass
class Hits:
    paths: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)   # time.monotonic() of each hit
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, path: str) -> int:
        with self.lock:
            self.paths.append(path)
            self.times.append(time.monotonic())
            return self.paths.count(path)

    def times_of(self, path: str) -> list[float]:
        with self.lock:
            return [t for p, t in zip(self.paths, self.times) if p == path]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server_version = "faultweb/1.0"

    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        site = self.server.site  # type: ignore[attr-defined]
        seen = site.hits.add(self.path)
        try:
            site.serve(self, self.path, seen)
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            pass

    def send_reply(self, reply: Reply) -> None:
        self.send_response(reply.status)
        if reply.content_type:
            self.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers:
            self.send_header(name, value)
        if reply.length:
            self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, format, *args) -> None:  # noqa: A002
        pass


class Site:
    """Base: a server of one site; ``serve`` answers a path (``seen``: how often it was asked, this one included)."""

    def __init__(self):
        self.hits = Hits()
        self.server: ThreadingHTTPServer | None = None
        self.base = ""

    def bind(self, host: str) -> None:
        self.server = ThreadingHTTPServer((host, 0), _Handler)
        self.server.daemon_threads = True
        self.server.site = self  # type: ignore[attr-defined]
        self.base = f"http://{host}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def serve(self, handler: _Handler, path: str, seen: int) -> None:
        handler.send_reply(Reply(404, b"not found"))


class Bystander(Site):
    """A server nothing may reach; every request it gets is a failure of the offsite rules."""

    def serve(self, handler, path, seen):
        handler.send_reply(Reply(200, article_html("Stolen", 1, 99).encode()))


def reset_mid_body(handler: _Handler) -> None:
    """Headers promising 100,000 bytes, 4,000 of them, then a TCP reset (RST)."""
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", "100000")
    handler.end_headers()
    handler.wfile.write(b"<html><body><p>" + b"partial " * 500)
    handler.wfile.flush()
    handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    handler.connection.close()


class ResetSite(Site):
    """A home page linking PAGES article URLs, each of which is reset mid-body, on every request."""

    def __init__(self, pages: int):
        super().__init__()
        self.pages = [f"/news/2024/06/{1 + i % 28:02d}/cut-{i}.html" for i in range(pages)]

    def serve(self, handler, path, seen):
        if path == "/":
            links = "".join(f'<li><a href="{u}">Story {i}</a></li>' for i, u in enumerate(self.pages))
            handler.send_reply(Reply(200, f"<html><body><ul>{links}</ul></body></html>".encode()))
        elif path in self.pages:
            reset_mid_body(handler)
        else:
            super().serve(handler, path, seen)


class SlowRobotsSite(Site):
    def __init__(self):
        super().__init__()
        self.articles = {f"/news/2024/05/{20 + i}/calm-{i}.html": f"Calm story {i}" for i in range(2)}

    def serve(self, handler, path, seen):
        if path == "/robots.txt":
            time.sleep(SLOW_SECONDS)
            handler.send_reply(Reply(200, b"User-agent: *\nAllow: /\n", "text/plain"))
        elif path == "/":
            links = "".join(f'<li><a href="{u}">{t}</a></li>' for u, t in self.articles.items())
            handler.send_reply(Reply(200, f"<html><body><ul>{links}</ul></body></html>".encode()))
        elif path in self.articles:
            day = int(path.split("/")[4])
            handler.send_reply(Reply(200, article_html(self.articles[path], day, day).encode()))
        else:
            super().serve(handler, path, seen)


class FaultSite(Site):
    """Good articles around one URL per fault (see the module docstring)."""

    def __init__(self, bystander: str, closed_port: int):
        super().__init__()
        self.bystander = bystander
        self.closed_port = closed_port
        self.good = {f"/news/2024/05/{1 + i:02d}/good-{i}.html": f"Good story {i}" for i in range(6)}
        # articles behind a fault that the crawler gets past: they must be emitted too
        self.recovered = {"/news/2024/05/10/flaky-503.html": "Flaky story",
                          "/news/2024/05/11/rate-limited.html": "Rate limited story",
                          "/news/2024/05/12/wrong-charset.html": "错误字符集的报道"}
        self.faults = ["/reset.html", "/slow.html", "/drip.html", "/gz-truncated.html", "/gz-bomb.html",
                       "/huge.html", "/binary.html", "/files/report", "/loop/a", "/away", "/to-metadata",
                       "/to-intranet", "/flaky-away", "/calendar/2024/05/01", "/session?sid=0"]
        self.offsite_links = ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/admin",
                              f"{bystander}/linked", f"http://localhost:{bystander.rsplit(':', 1)[1]}/by-name"]
        self._bomb = _gzip_bomb()

    @property
    def articles(self) -> dict[str, str]:
        return {**self.good, **self.recovered}

    def bind(self, host: str) -> None:
        super().bind(host)
        self.offsite_links.append(f"http://{host}:{self.closed_port}/same-host-other-port")

    def serve(self, handler, path, seen):
        route = self._routes().get(path.split("?")[0])
        if path.startswith("/calendar/"):
            self._calendar(handler, path, seen)
        elif route is not None:
            route(handler, path, seen)
        elif path in self.good:
            handler.send_reply(Reply(200, article_html(self.good[path], int(path.split("/")[4]), len(path)).encode()))
        else:
            super().serve(handler, path, seen)

    def _routes(self):
        return {
            "/": self._home, "/robots.txt": self._robots,
            "/rss.xml": self._feed, "/bad-feed.xml": self._bad_xml, "/bomb-feed.xml": self._bomb_feed,
            "/sitemap.xml": self._sitemap_index, "/sitemap-good.xml": self._sitemap, "/sitemap-bad.xml": self._bad_xml,
            "/sitemap-bomb.xml": self._bomb_sitemap, "/sitemap-gzbomb.xml.gz": self._sitemap_gzbomb,
            "/reset.html": self._reset, "/slow.html": self._slow, "/drip.html": self._drip,
            "/news/2024/05/10/flaky-503.html": self._flaky, "/news/2024/05/11/rate-limited.html": self._rate_limited,
            "/news/2024/05/12/wrong-charset.html": self._wrong_charset,
            "/gz-truncated.html": self._gz_truncated, "/gz-bomb.html": self._gz_bomb, "/huge.html": self._huge,
            "/binary.html": self._binary, "/files/report": self._pdf,
            "/loop/a": lambda h, p, s: self._redirect(h, "/loop/b"), "/loop/b": lambda h, p, s: self._redirect(h, "/loop/a"),
            "/away": lambda h, p, s: self._redirect(h, f"{self.bystander}/redirected"),
            "/to-metadata": lambda h, p, s: self._redirect(h, "http://169.254.169.254/latest/meta-data/"),
            "/to-intranet": lambda h, p, s: self._redirect(h, "http://10.0.0.1/admin"),
            "/flaky-away": self._flaky_away, "/session": self._session,
        }

    # --- pages -------------------------------------------------------------------------------------------

    def _home(self, handler, path, seen):
        links = [*self.good, *self.recovered, *self.faults, *self.offsite_links]
        items = "".join(f'<li><a href="{u}">link {i}</a></li>' for i, u in enumerate(links))
        handler.send_reply(Reply(200, f"<html><head><title>Fault Gazette</title></head><body><ul>{items}</ul>"
                                      f"</body></html>".encode()))

    def _robots(self, handler, path, seen):
        handler.send_reply(Reply(200, bytes(range(256)) * 8 + b"\nDisallow /\x00Sitemap: ::::\n", "text/plain"))

    def _reset(self, handler, path, seen):
        reset_mid_body(handler)

    def _slow(self, handler, path, seen):
        time.sleep(SLOW_SECONDS)
        handler.send_reply(Reply(200, b"<html><body>too late</body></html>"))

    def _drip(self, handler, path, seen):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.end_headers()
        ends = time.monotonic() + DRIP_MAX_SECONDS
        while time.monotonic() < ends:
            handler.wfile.write(b"<p>drip</p>")
            handler.wfile.flush()
            time.sleep(0.1)

    def _article(self, path: str, charset: str = "utf-8") -> bytes:
        day = int(path.split("/")[4])
        return article_html(self.recovered[path], day, day, charset).encode(charset)

    def _flaky(self, handler, path, seen):
        if seen == 1:
            handler.send_reply(Reply(503, b"busy"))
        else:
            handler.send_reply(Reply(200, self._article(path)))

    def _rate_limited(self, handler, path, seen):
        if seen == 1:
            handler.send_reply(Reply(429, b"slow down", headers=[("Retry-After", "1")]))
        else:
            handler.send_reply(Reply(200, self._article(path)))

    def _wrong_charset(self, handler, path, seen):
        # the header says UTF-8, the bytes and the <meta> say GBK
        handler.send_reply(Reply(200, self._article(path, "gbk"), "text/html; charset=utf-8"))

    def _gz_truncated(self, handler, path, seen):
        body = gzip.compress(article_html("Cut short", 3, 3).encode())
        handler.send_reply(Reply(200, body[:len(body) // 2], headers=[("Content-Encoding", "gzip")]))

    def _gz_bomb(self, handler, path, seen):
        handler.send_reply(Reply(200, self._bomb, headers=[("Content-Encoding", "gzip")]))

    def _huge(self, handler, path, seen):
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.end_headers()  # no Content-Length: the client only learns the size while reading
        chunk = b"<p>" + b"x" * (1 << 16) + b"</p>"
        for _ in range(HUGE_BYTES // len(chunk)):
            handler.wfile.write(chunk)

    def _binary(self, handler, path, seen):
        handler.send_reply(Reply(200, bytes((i * 7919) % 256 for i in range(20000))))

    def _pdf(self, handler, path, seen):
        handler.send_reply(Reply(200, b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"
                                      + bytes(range(256)) * 40 + b"\n%%EOF\n"))

    def _redirect(self, handler, location: str):
        handler.send_reply(Reply(302, b"", headers=[("Location", location)]))

    def _flaky_away(self, handler, path, seen):
        # 503 first: the retry carries dont_filter, which the redirect then inherits
        if seen == 1:
            handler.send_reply(Reply(503, b"busy"))
        else:
            self._redirect(handler, "http://169.254.169.254/latest/meta-data/iam")

    def _calendar(self, handler, path, seen):
        """An endless calendar: every day links to the next and the previous one."""
        day = calendar.timegm(time.strptime(path, "/calendar/%Y/%m/%d"))
        links = "".join(time.strftime('<a href="/calendar/%Y/%m/%d">day</a>', time.gmtime(day + step * 86400))
                        for step in (1, -1))
        handler.send_reply(Reply(200, f"<html><body>{links}</body></html>".encode()))

    def _session(self, handler, path, seen):
        sid = len(self.hits.paths)
        links = "".join(f'<a href="/session?sid={sid}-{i}">more</a>' for i in range(5))
        handler.send_reply(Reply(200, f"<html><body>{links}</body></html>".encode()))

    # --- listings ----------------------------------------------------------------------------------------

    def _feed(self, handler, path, seen):
        items = "".join(f"<item><title>{t}</title><link>{self.base}{u}</link></item>" for u, t in self.good.items())
        items += "".join(f"<item><title>x</title><link>{u}</link></item>" for u in self.offsite_links)
        body = f'<?xml version="1.0"?><rss version="2.0"><channel><title>F</title>{items}</channel></rss>'
        handler.send_reply(Reply(200, body.encode(), "application/rss+xml"))

    def _bad_xml(self, handler, path, seen):
        handler.send_reply(Reply(200, b"\x00\x01<rss><channel><item><link>", "application/xml"))

    def _bomb_feed(self, handler, path, seen):
        body = ENTITY_BOMB + "<rss version=\"2.0\"><channel><item><title>&lol9;&xxe;</title>" \
                             f"<link>{self.base}/news/2024/05/01/good-0.html</link></item></channel></rss>"
        handler.send_reply(Reply(200, body.encode(), "application/rss+xml"))

    def _bomb_sitemap(self, handler, path, seen):
        body = ENTITY_BOMB + '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' \
                             f"<url><loc>{self.base}/news/2024/05/02/good-1.html&lol9;</loc></url></urlset>"
        handler.send_reply(Reply(200, body.encode(), "application/xml"))

    def _sitemap_index(self, handler, path, seen):
        maps = [f"{self.base}/sitemap-good.xml", f"{self.base}/sitemap-bad.xml", f"{self.base}/sitemap-bomb.xml",
                f"{self.base}/sitemap-gzbomb.xml.gz", f"{self.bystander}/sitemap.xml",
                "http://169.254.169.254/sitemap.xml"]
        entries = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in maps)
        body = f'<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</sitemapindex>'
        handler.send_reply(Reply(200, body.encode(), "application/xml"))

    def _sitemap(self, handler, path, seen):
        urls = [f"{self.base}{u}" for u in self.articles] + self.offsite_links
        entries = "".join(f"<url><loc>{u}</loc></url>" for u in urls)
        body = f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{entries}</urlset>'
        handler.send_reply(Reply(200, body.encode(), "application/xml"))

    def _sitemap_gzbomb(self, handler, path, seen):
        handler.send_reply(Reply(200, self._bomb, "application/x-gzip"))


def _closed_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]  # closed again when the probe goes


@dataclass
class FaultWeb:
    fault: FaultSite
    slow_robots: SlowRobotsSite
    bystander: Bystander

    @classmethod
    def start(cls, first_host: int = 60) -> FaultWeb:
        bystander = Bystander()
        bystander.bind("127.0.0.1")
        fault_host = free_loopback_host(first_host)
        fault = FaultSite(bystander.base, _closed_port(fault_host))
        fault.bind(fault_host)
        slow = SlowRobotsSite()
        slow.bind(free_loopback_host(int(fault_host.rsplit(".", 1)[1]) + 1))
        return cls(fault, slow, bystander)

    def sites_config(self) -> list[dict]:
        base = self.fault.base
        return [
            {"name": "fault-gazette",
             "start_urls": [f"{base}/", f"http://{base.split('//')[1].split(':')[0]}:{self.fault.closed_port}/"],
             "feeds": [f"{base}/rss.xml", f"{base}/bad-feed.xml", f"{base}/bomb-feed.xml"],
             "sitemaps": [f"{base}/sitemap.xml"], "max_depth": 3},
            {"name": "slow-robots", "start_urls": [f"{self.slow_robots.base}/"]},
        ]

    def stop(self) -> None:
        for site in (self.fault, self.slow_robots, self.bystander):
            site.server.shutdown()
            site.server.server_close()


def free_loopback_host(last: int) -> str:
    for number in range(last, 250):
        host = f"127.0.0.{number}"
        try:
            with socket.socket() as probe:
                probe.bind((host, 0))
        except OSError:
            continue
        return host
    raise OSError("no free loopback address")
