"""A finished keep-alive connection is closed after NEWSCRAWL_IDLE_CONNECTION_SECONDS, not held for
the rest of the crawl: at 10,000 sites the crawl otherwise holds a socket per host visited."""
from __future__ import annotations

import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from incremental_web import crawl_command, crawl_env
from mockweb import needs_loopback

from newscrawl.demo import write_sites_file

pytestmark = needs_loopback
SLOW_SECONDS = 6.0  # the slow site's page keeps the crawl running this long
IDLE_SECONDS = 1.0


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the connection stays open until the client closes it

    def do_GET(self) -> None:
        if self.path == "/slow":
            time.sleep(SLOW_SECONDS)
        body = b"<html><head><title>t</title></head><body><p>short page</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.server.last_answer = time.monotonic()

    def finish(self) -> None:
        super().finish()
        self.server.closed.append(time.monotonic())

    def log_message(self, *args) -> None:
        pass


def _server(host: str) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer((host, 0), _Handler)
    server.closed, server.last_answer = [], None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_an_idle_connection_is_closed_while_the_crawl_goes_on(tmp_path):
    quick, slow = _server("127.0.0.2"), _server("127.0.0.3")
    try:
        sites = write_sites_file([
            {"name": "quick", "start_urls": [f"http://127.0.0.2:{quick.server_address[1]}/"]},
            {"name": "slow", "start_urls": [f"http://127.0.0.3:{slow.server_address[1]}/slow"]}],
            tmp_path / "sites.yaml")
        command = crawl_command(sites, tmp_path / "out.jsonl", {"NEWSCRAWL_IDLE_CONNECTION_SECONDS": IDLE_SECONDS,
                                                                 "DOWNLOAD_TIMEOUT": 30,
                                                                 "STATE_PATH": str(tmp_path / "state.sqlite")})
        result = subprocess.run(command, check=False, cwd=tmp_path, env=crawl_env(), capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 0, result.stderr[-2000:]
        finished = time.monotonic()
        assert quick.last_answer is not None and quick.closed
        # closed about IDLE_SECONDS after its last answer, long before the slow site let the crawl end
        assert max(quick.closed) - quick.last_answer < IDLE_SECONDS + 3.0 < SLOW_SECONDS
        assert max(quick.closed) < finished - 1.0
    finally:
        quick.shutdown()
        slow.shutdown()
