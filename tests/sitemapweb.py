"""A site of large sitemaps that change every run, for the listing cache test and benchmark.

Its robots.txt lists ``count`` sitemaps, new URLs each ``edition``; each sitemap is ``size`` bytes:
one article URL and a comment of random base64 text (it compresses to about 3/4 of its size, as a
badly compressible real sitemap would not do better), served with an ETag so the crawl keeps it.
"""
from __future__ import annotations

import base64
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class SitemapWeb(ThreadingHTTPServer):
    def __init__(self, count: int, size: int):
        super().__init__(("127.0.0.1", 0), _SitemapHandler)
        self.count, self.size, self.edition = count, size, 0
        self.base = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def sites_config(self) -> list[dict]:
        return [{"name": "maps", "start_urls": [self.base + "/"], "max_depth": 0}]

    def sitemap(self, number: int) -> bytes:
        head = (f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                f"<url><loc>{self.base}/story-{number}.html</loc></url><!-- ").encode()
        tail = b" --></urlset>"
        padding = base64.b64encode(os.urandom(max(0, self.size - len(head) - len(tail)) * 3 // 4))
        return head + padding + tail

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _SitemapHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        web: SitemapWeb = self.server  # type: ignore[assignment]
        headers = {"Content-Type": "text/html"}
        if self.path == "/robots.txt":
            body = "".join(f"Sitemap: {web.base}/sitemap-{web.edition}-{n}.xml\n" for n in range(web.count)).encode()
            headers = {"Content-Type": "text/plain"}
        elif self.path.startswith("/sitemap-"):
            body = web.sitemap(int(self.path.rsplit("-", 1)[1].split(".")[0]))
            headers = {"Content-Type": "application/xml", "ETag": f'"{self.path}"'}
        else:
            body = b"<!DOCTYPE html><html><head><title>Home</title></head><body><p>Nothing here.</p></body></html>"
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args) -> None:  # noqa: A002
        pass


def state_bytes(path: Path) -> int:
    """Bytes on disk of a SQLite state: the file, its write-ahead log and its shared-memory index."""
    return sum(os.path.getsize(f"{path}{suffix}") for suffix in ("", "-wal", "-shm") if os.path.exists(f"{path}{suffix}"))
