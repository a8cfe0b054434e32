"""The extractor's command line on hostile URLs (newscrawl/extract/fetch.py): a drip that never ends,
malformed answers, redirects to other schemes and to private addresses, names resolving to loopback.

Servers are raw sockets this test starts on 127.0.0.x; each records the connections it got.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

from faultweb import free_loopback_host
from newscrawl.extract import fetch
from newscrawl.extract.fetch import FetchError, fetch_page
from test_cli import assert_one_line_error, run_cli

PAGE = (b"<html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>"
        + b"<p>The harbour reopened on Monday after a long winter of repairs, the council said.</p>" * 8
        + b"</article></body></html>")


class RawServer:
    """Answers every connection with ``answer(connection, path)``; counts connections."""

    def __init__(self, host: str, answer):
        self.answer = answer
        self.connections = 0
        self.sock = socket.socket()
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.base = f"http://{host}:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection:
            try:
                request = connection.recv(65536)
                self.answer(connection, request.split(b" ", 2)[1].decode() if request.count(b" ") >= 2 else "")
            except OSError:
                pass

    def close(self) -> None:
        self.sock.close()


def reply(status: str, headers: str = "", body: bytes = b"") -> bytes:
    return f"HTTP/1.1 {status}\r\n{headers}Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body


def drip(connection: socket.socket, path: str) -> None:
    connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
    for _ in range(60):
        connection.sendall(b"<")
        time.sleep(1)


@pytest.fixture
def servers():
    started = []

    def start(answer, host: str = "127.0.0.1"):
        server = RawServer(host, answer)
        started.append(server)
        return server
    yield start
    for server in started:
        server.close()


def test_a_drip_ends_at_the_whole_fetch_time_limit(servers):
    server = servers(drip)
    began = time.monotonic()
    done = run_cli(f"{server.base}/drip.html", "--timeout", "3")
    assert time.monotonic() - began < 15
    assert_one_line_error(done)
    assert "within 3 s" in done.stderr


@pytest.mark.parametrize("answer", [
    b"HTTP/1.1 abc\r\n\r\n",  # no status code
    b"HTTP/1.1 200 OK\r\n" + b"".join(b"X-H%d: v\r\n" % i for i in range(500)) + b"\r\n",  # 500 headers
    b"HTTP/1.1 200 OK\r\nX-Long: " + b"x" * 200_000 + b"\r\n\r\n",  # one 200 kB header line
    b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n<html>cut",  # body shorter than announced
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbad\r\n",  # bad chunk size
    b"\x16\x03\x01garbage",  # not HTTP at all
], ids=["status", "header_count", "header_line", "short_body", "bad_chunk", "not_http"])
def test_malformed_answers_exit_2_with_one_line(servers, answer):
    server = servers(lambda connection, path: connection.sendall(answer))
    assert_one_line_error(run_cli(f"{server.base}/page.html"))


def test_redirect_to_another_scheme_is_refused_before_any_connection(servers):
    ftp = servers(lambda connection, path: connection.sendall(b"220 ready\r\n"))
    ftp_url = ftp.base.replace("http://", "ftp://") + "/page.html"
    site = servers(lambda connection, path: connection.sendall(reply("302 Found", f"Location: {ftp_url}\r\n")))
    done = run_cli(f"{site.base}/page.html")
    assert_one_line_error(done)
    assert "not an http(s) URL" in done.stderr
    assert ftp.connections == 0


def test_redirect_to_a_private_address_not_named_is_refused(servers):
    bystander = servers(lambda connection, path: connection.sendall(reply("200 OK", body=PAGE)))
    site = servers(lambda connection, path: connection.sendall(reply("302 Found", f"Location: {bystander.base}/x\r\n")),
                   host=free_loopback_host(90))
    done = run_cli(f"{site.base}/page.html")
    assert_one_line_error(done)
    assert "private address" in done.stderr
    assert bystander.connections == 0


def test_redirects_within_the_named_loopback_origin_are_followed(servers):
    def answer(connection, path):
        moved = reply("301 Moved", "Location: /page.html\r\n")
        connection.sendall(moved if path == "/old.html" else reply("200 OK", "Content-Type: text/html\r\n", PAGE))
    server = servers(answer)
    done = run_cli(f"{server.base}/old.html", "--format", "text")
    assert done.returncode == 0, done.stderr
    assert "harbour reopened" in done.stdout and server.connections == 2
    other_port = servers(lambda connection, path: connection.sendall(
        reply("301 Moved", f"Location: {server.base}/page.html\r\n")))
    assert_one_line_error(run_cli(f"{other_port.base}/old.html"))  # another port: another origin, refused
    assert server.connections == 2


def test_a_name_resolving_to_loopback_is_refused(servers, monkeypatch):
    """evil.test comes from this test's own resolver (getaddrinfo replaced in this process)."""
    server = servers(lambda connection, path: connection.sendall(reply("200 OK", body=PAGE)))
    port = int(server.base.rsplit(":", 1)[1])
    monkeypatch.setattr(fetch.socket, "getaddrinfo",
                        lambda host, *args, **kwargs: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))])
    with pytest.raises(FetchError, match="evil.test resolves to the private address 127.0.0.1"):
        fetch_page(f"http://evil.test:{port}/page.html")
    assert server.connections == 0
    assert fetch_page(f"{server.base}/page.html").body == PAGE  # the address itself, named: fetched
