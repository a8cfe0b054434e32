"""Peak memory and event-loop stalls of a real crawl against hostile servers on loopback.

    python benchmarks/hostile_memory.py [headers] [listing] [hrefs]

- ``headers``: a page whose headers never end (3 GiB of header lines if nobody hangs up);
- ``listing``: one site with a 750,000-link page and a 900,000-entry JSON feed (DOWNLOAD_MAXSIZE
  raised to 64 MB so both arrive whole), beside a calm site whose 200 pages are served 50 ms late,
  one at a time;
- ``hrefs``: twenty chained pages with one 8 MB href each.

For each case: the crawl's exit code, peak RSS of the crawl process (VmHWM) and of its largest
child, the longest gap between two requests of the calm site, wall time, and the stats that tell
what was cut. Goal (README "Faults, hostile input and bad configuration"): peak RSS under 600 MB.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from newscrawl.demo.run import LOOPBACK_SETTINGS, write_sites_file  # noqa: E402

HEADER_FLOOD_BYTES = 3 << 30
LISTING_LINKS = 750_000
FEED_ENTRIES = 900_000
CALM_PAGES = 200
CHAINED_PAGES = 20
HREF_BYTES = 8 << 20


class Server:
    """One loopback server answering ``routes[path](handler)``; records when each request came."""

    def __init__(self, host: str, routes: dict):
        self.routes = routes
        self.times: list[float] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_GET(self):  # noqa: N802
                owner.times.append(time.monotonic())
                route = owner.routes.get(self.path)
                try:
                    route(self) if route else self.send_error(404)
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer((host, 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://{host}:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def body_route(body: bytes, content_type: str = "text/html", delay: float = 0.0):
    def route(handler):
        time.sleep(delay)
        handler.send_response(200)
        handler.send_header("Content-Type", content_type)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
    return route


def header_flood(handler) -> None:
    handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
    line = b"X-Filler: " + b"f" * 90 + b"\r\n"
    block = line * 1000
    for _ in range(HEADER_FLOOD_BYTES // len(block)):
        handler.wfile.write(block)


def vm_hwm_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def crawl(workdir: Path, sites: list[dict], settings: dict) -> dict:
    path = write_sites_file(sites, workdir / "sites.yaml")
    command = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"sites={path}", "-O", str(workdir / "out.jsonl")]
    for name, value in {**LOOPBACK_SETTINGS, "LOG_LEVEL": "INFO", "ROBOTSTXT_OBEY": "0", "DOWNLOAD_TIMEOUT": "30",
                        **settings}.items():
        command += ["-s", f"{name}={value}"]
    env = dict(os.environ, SCRAPY_SETTINGS_MODULE="newscrawl.settings", PYTHONPATH=str(REPO_ROOT))
    started = time.monotonic()
    with open(workdir / "stderr.txt", "w") as log:
        process = subprocess.Popen(command, cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=log)
        main_peak = child_peak = 0
        while process.poll() is None:
            main_peak = max(main_peak, vm_hwm_kb(process.pid))
            child_peak = max([child_peak, *(vm_hwm_kb(c) for c in children(process.pid))])
            time.sleep(0.1)
    stderr = (workdir / "stderr.txt").read_text()
    stats = stderr[stderr.find("Dumping Scrapy stats"):]
    wanted = ("cut_at_budget", "url_too_long", "headers_too_large", "rejected/", "listings/", "errors/")
    return {"exit": process.returncode, "seconds": round(time.monotonic() - started, 1),
            "peak_rss_mb": round(main_peak / 1024), "largest_child_rss_mb": round(child_peak / 1024),
            "log_mb": round(len(stderr) / 1e6, 1),
            "stats": [line.strip() for line in stats.splitlines() if any(w in line for w in wanted)
                      and "/site/" not in line]}


def case_headers(workdir: Path) -> dict:
    server = Server("127.0.0.61", {"/": header_flood})
    try:
        return crawl(workdir, [{"name": "flood", "start_urls": [f"{server.base}/"]}], {"DOWNLOAD_TIMEOUT": "30"})
    finally:
        server.stop()


def case_listing(workdir: Path) -> dict:
    huge, calm = Server("127.0.0.62", {}), Server("127.0.0.63", {})
    huge.routes["/"] = body_route(b"<html><body>" + b"".join(b"<a href=/n/%d>x</a>" % i for i in range(LISTING_LINKS))
                                  + b"</body></html>")
    feed = {"version": "https://jsonfeed.org/version/1.1", "title": "F",
            "items": [{"id": str(i), "url": f"/f/{i}"} for i in range(FEED_ENTRIES)]}
    huge.routes["/feed.json"] = body_route(json.dumps(feed).encode(), "application/feed+json")
    calm_paths = [f"/news/2024/05/01/calm-story-{i}.html" for i in range(CALM_PAGES)]
    calm.routes["/"] = body_route(b"".join(b'<a href="%s">c</a>' % p.encode() for p in calm_paths))
    for path in calm_paths:
        calm.routes[path] = body_route(b"<html><body><p>calm</p></body></html>", delay=0.05)
    try:
        result = crawl(workdir, [
            {"name": "huge", "start_urls": [f"{huge.base}/"], "feeds": [f"{huge.base}/feed.json"], "max_pages": 1000},
            {"name": "calm", "start_urls": [f"{calm.base}/"]}],
            {"DOWNLOAD_MAXSIZE": str(64 << 20), "CONCURRENT_REQUESTS_PER_DOMAIN": "1"})
        gaps = [b - a for a, b in zip(calm.times, calm.times[1:])]
        result["calm_requests"] = len(calm.times)
        result["calm_longest_gap_s"] = round(max(gaps), 2) if gaps else None
        return result
    finally:
        huge.stop()
        calm.stop()


def case_hrefs(workdir: Path) -> dict:
    server = Server("127.0.0.64", {})
    for i in range(CHAINED_PAGES):
        server.routes[f"/p/{i}"] = body_route(b'<html><body><a href="/%s">x</a><a href="/p/%d">next</a></body></html>'
                                              % (b"h" * HREF_BYTES, i + 1))
    try:
        return crawl(workdir, [{"name": "hrefs", "start_urls": [f"{server.base}/p/0"], "max_depth": CHAINED_PAGES}],
                     {"DEPTH_LIMIT": str(CHAINED_PAGES + 1), "NEWSCRAWL_MAX_PER_SHAPE": str(CHAINED_PAGES + 1)})
    finally:
        server.stop()


CASES = {"headers": case_headers, "listing": case_listing, "hrefs": case_hrefs}


def main(argv: list[str]) -> int:
    for name in argv or list(CASES):
        with tempfile.TemporaryDirectory() as folder:
            print(name, json.dumps(CASES[name](Path(folder)), indent=1), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
