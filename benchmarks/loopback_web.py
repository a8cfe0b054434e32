"""Serve many static sites on distinct loopback addresses from one child process (asyncio).

Used by the crawl benchmarks: every site gets its own 127.x.y.z address on a
shared port, so Scrapy sees distinct hosts (per-domain slots, robots.txt,
allowed domains) as on the real web. Pages are prepared by the caller as
``{host: {path: (content_type, body)}}``; unknown paths answer 404.
"""
from __future__ import annotations

import asyncio
import random
import multiprocessing
import socket
from contextlib import contextmanager

Routes = dict[str, tuple[str, bytes]]
NOT_FOUND = (b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: 9\r\n\r\nnot found")


def loopback_hosts(count: int) -> list[str]:
    """127.0.1.2, 127.0.1.3, ... (skipping .0, .1 and .255 of each /24)."""
    return [f"127.0.{1 + i // 250}.{2 + i % 250}" for i in range(count)]


def free_port(hosts: list[str]) -> int:
    """A port free on every host (checked by binding each)."""
    for _ in range(20):
        with socket.socket() as probe:
            probe.bind((hosts[0], 0))
            port = probe.getsockname()[1]
        sockets = []
        try:
            for host in hosts:
                sock = socket.socket()
                sockets.append(sock)
                sock.bind((host, port))
            return port
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise OSError("no port free on all loopback hosts")


# Article text of the loopback webs: sentences of random words from a fixed made-up vocabulary, so two
# articles share about as few 3-word shingles as two real stories (the near-duplicate check sees ~0
# candidates per article, as on ../shared/eval's pages, instead of dozens for pages cut from one text).
SYLLABLES = ["ka", "lo", "mi", "ren", "tas", "vel", "or", "un", "dri", "pe", "sol", "gan", "hu", "bre", "no", "ti"]


def _words(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(SYLLABLES, k=rng.randint(1, 4))) for _ in range(count)]


VOCABULARY = _words(4000, 3)


def random_sentence(rng: random.Random) -> str:
    words = rng.choices(VOCABULARY, k=rng.randint(9, 18))
    return " ".join(words).capitalize() + "."


def _response(content_type: str, body: bytes) -> bytes:
    head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


async def answer_requests(reader, writer, reply, with_head: bool = False) -> None:
    """Answer every request of a keep-alive connection with ``reply(path)`` (bytes) until it closes;
    ``with_head``: ``reply(path, head)``, the request's head as bytes too (to read its headers)."""
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            path = head.split(b" ", 2)[1].decode("latin-1")
            writer.write(reply(path, head) if with_head else reply(path))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, IndexError, asyncio.LimitOverrunError):
        pass
    finally:
        writer.close()


async def serve_hosts(replies: dict, port: int, ready, with_head: bool = False) -> None:
    """Serve each host of ``replies`` (host -> reply, as for :func:`answer_requests`) on ``port``,
    tell ``ready`` (a pipe end) when all listen, then serve until the process is killed."""
    for host, reply in replies.items():
        async def handle(reader, writer, reply=reply):
            await answer_requests(reader, writer, reply, with_head)

        await asyncio.start_server(handle, host, port, backlog=256)
    ready.send(True)
    await asyncio.Event().wait()


async def _serve_all(sites: dict[str, Routes], port: int, ready) -> None:
    prepared = {host: {path: _response(*reply) for path, reply in routes.items()} for host, routes in sites.items()}
    for host, routes in prepared.items():
        async def handle(reader, writer, routes=routes):
            await answer_requests(reader, writer, lambda path: routes.get(path, NOT_FOUND))

        await asyncio.start_server(handle, host, port, backlog=256)
    ready.send(True)
    await asyncio.Event().wait()


def _child(sites: dict[str, Routes], port: int, ready) -> None:
    asyncio.run(_serve_all(sites, port, ready))


@contextmanager
def serving(sites: dict[str, Routes], port: int):
    """Serve ``sites`` (host -> routes) on ``port`` in a child process for the duration of the block."""
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(target=_child, args=(sites, port, child), daemon=True)
    process.start()
    if not parent.poll(60) or not parent.recv():
        process.kill()
        raise RuntimeError("loopback web did not start")
    try:
        yield
    finally:
        process.kill()
        process.join()
