"""A small pool of worker processes driven from the asyncio event loop, without helper threads.

The crawl's extraction runs here so that the one core of the Scrapy process
keeps crawling. ``concurrent.futures.ProcessPoolExecutor`` did the same job
but costs the Scrapy process about 0.35 ms of CPU per task (measured here
with a 30 KB page and a 30 KB result): two helper threads per pool that
contend for the GIL, a call queue and a wake-up pipe. This pool writes each
task straight into its worker's pipe from the event loop and reads results
with the loop's own reader callbacks: about 0.12 ms per task in the same
measurement. In a crawl that runs at a few hundred pages/s on one core that
difference is several percent of the throughput.

Messages use ``multiprocessing.connection.Connection``'s framing (a 4-byte
big-endian length, or -1 and an 8-byte length for 2 GB and more), so the
worker side is a plain ``recv_bytes`` / ``send_bytes`` loop.

A worker that dies (killed, out of memory, a crash in C code) fails the tasks
it held with :class:`WorkerDied` and is replaced; the other tasks go on.
"""
from __future__ import annotations

import asyncio
import collections
import fcntl
import logging
import multiprocessing
import os
import pickle
import struct
from typing import Any, Callable

logger = logging.getLogger(__name__)

_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")
_SHORT_LIMIT = 0x7FFFFFFF
_READ_CHUNK = 1 << 20
_JOIN_SECONDS = 5
# What each pipe to and from a worker holds (Linux's default is 64 KB: about one real page). With 64 KB
# the worker waited for the crawl's event loop to write the next page, and blocked on sending a result
# until the loop read the last one, whenever the loop was busy with other callbacks: in
# `benchmarks/crawl_speed.py --rounds 2` (200 x 20 real pages, one worker, other jobs at low priority)
# the ratio to the extraction bound rose from 0.57 / 0.62 to 0.81 / 0.84 with 1 MB pipes (~20 pages).
# 1 MB is Linux's limit for an unprivileged process (/proc/sys/fs/pipe-max-size).
PIPE_BYTES = 1 << 20


class WorkerDied(RuntimeError):
    """The worker process running a task exited before answering."""


def frame(payload: bytes) -> bytes:
    """``payload`` with the length header ``Connection.recv_bytes`` expects."""
    if len(payload) < _SHORT_LIMIT:
        return _SHORT.pack(len(payload)) + payload
    return _SHORT.pack(-1) + _LONG.pack(len(payload)) + payload


def split_frames(buffer: bytearray) -> list[bytes]:
    """Remove and return the complete frames at the start of ``buffer`` (partial ones stay)."""
    frames = []
    while len(buffer) >= _SHORT.size:
        (size,) = _SHORT.unpack_from(buffer)
        start = _SHORT.size
        if size == -1:
            if len(buffer) < start + _LONG.size:
                break
            (size,) = _LONG.unpack_from(buffer, start)
            start += _LONG.size
        if len(buffer) < start + size:
            break
        frames.append(bytes(buffer[start:start + size]))
        del buffer[:start + size]
    return frames


def worker_main(tasks, results) -> None:
    """The worker's loop: run each (task id, function, args) and send back (task id, ok, value)."""
    while True:
        try:
            task_id, function, args = pickle.loads(tasks.recv_bytes())
        except EOFError:  # the pool closed its end: shut down
            return
        try:
            answer = (task_id, True, function(*args))
        except BaseException as error:  # noqa: BLE001 - every failure goes back to the caller
            answer = (task_id, False, error)
        try:
            message = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - an unpicklable result or exception
            message = pickle.dumps((task_id, False, RuntimeError(f"unpicklable answer: {error!r}")))
        results.send_bytes(message)


def _widen_pipe(fd: int) -> None:
    """Let the pipe of ``fd`` hold PIPE_BYTES where the system allows it; elsewhere (no F_SETPIPE_SZ
    outside Linux, or the user's pipe quota spent) it keeps its size, which is slower but correct."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    except (AttributeError, OSError):
        pass


class _Worker:
    """One process, the parent's ends of its two pipes, and the tasks it holds."""

    def __init__(self, context):
        task_read, self.task_conn = context.Pipe(duplex=False)
        self.result_conn, result_write = context.Pipe(duplex=False)
        self.process = context.Process(target=worker_main, args=(task_read, result_write), daemon=True,
                                       name="newscrawl-extract")
        self.process.start()
        task_read.close()  # the child holds these now; closing ours lets EOF tell us when it dies
        result_write.close()
        self.task_fd, self.result_fd = self.task_conn.fileno(), self.result_conn.fileno()
        os.set_blocking(self.task_fd, False)
        os.set_blocking(self.result_fd, False)
        for fd in (self.task_fd, self.result_fd):
            _widen_pipe(fd)
        # Frames not yet written to the pipe, the first possibly a part (a memoryview) of one. A queue
        # of the frames, not one bytearray: a bytearray written from the front copied all it held at
        # each append (CPython moves a buffer with leading free space whole when it grows), which
        # cost the crawl ~4% of its main thread while the worker was behind (docs/MEASUREMENTS.md)
        self.outgoing: collections.deque[bytes | memoryview] = collections.deque()
        self.incoming = bytearray()
        self.pending: dict[int, asyncio.Future] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def close_pipes(self) -> None:
        if self.loop is not None:
            self.loop.remove_reader(self.result_fd)
            self.loop.remove_writer(self.task_fd)
        self.task_conn.close()
        self.result_conn.close()


class WorkerPool:
    """``count`` worker processes; ``submit`` returns an asyncio future of the function's result."""

    def __init__(self, count: int, start_method: str = "forkserver"):
        self.context = multiprocessing.get_context(start_method)
        self.workers = [_Worker(self.context) for _ in range(count)]
        self.next_id = 0
        self.closed = False

    def submit(self, function: Callable, *args: Any) -> asyncio.Future:
        """Send the call to the least busy worker; call from the event loop's thread."""
        if self.closed:
            raise RuntimeError("the worker pool is shut down")
        loop = asyncio.get_running_loop()
        worker = min(self.workers, key=lambda w: len(w.pending))
        if worker.loop is None:
            worker.loop = loop
            loop.add_reader(worker.result_fd, self._on_readable, worker)
        self.next_id += 1
        future = loop.create_future()
        worker.pending[self.next_id] = future
        self._send(worker, frame(pickle.dumps((self.next_id, function, args), protocol=pickle.HIGHEST_PROTOCOL)))
        return future

    def _send(self, worker: _Worker, data: bytes) -> None:
        if not worker.outgoing:
            try:
                written = os.write(worker.task_fd, data)
            except BlockingIOError:
                written = 0
            except OSError:  # BrokenPipeError included
                return  # the worker is gone; its reader sees EOF and fails the task
            if written == len(data):
                return
            worker.loop.add_writer(worker.task_fd, self._on_writable, worker)
            worker.outgoing.append(memoryview(data)[written:])
            return
        worker.outgoing.append(data)

    def _on_writable(self, worker: _Worker) -> None:
        outgoing = worker.outgoing
        while outgoing:
            head = outgoing[0]
            try:
                written = os.write(worker.task_fd, head)
            except BlockingIOError:
                return
            except OSError:
                worker.loop.remove_writer(worker.task_fd)
                return
            if written < len(head):
                outgoing[0] = memoryview(head)[written:]
                return
            outgoing.popleft()
        worker.loop.remove_writer(worker.task_fd)

    def _on_readable(self, worker: _Worker) -> None:
        try:
            data = os.read(worker.result_fd, _READ_CHUNK)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._replace(worker)
            return
        worker.incoming += data
        for message in split_frames(worker.incoming):
            task_id, ok, value = pickle.loads(message)
            future = worker.pending.pop(task_id, None)
            if future is None or future.done():
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def _replace(self, worker: _Worker) -> None:
        """The worker exited: fail what it held and start another in its place."""
        worker.close_pipes()
        worker.process.join(_JOIN_SECONDS)
        code = worker.process.exitcode
        for future in worker.pending.values():
            if not future.done():
                future.set_exception(WorkerDied(f"extraction worker {worker.process.pid} exited with code {code}"))
        worker.pending.clear()
        if self.closed:
            return
        logger.warning("extraction worker %s exited with code %s; starting another", worker.process.pid, code)
        self.workers[self.workers.index(worker)] = _Worker(self.context)

    def shutdown(self) -> None:
        """Close the pipes (workers exit at EOF), wait for the processes, fail tasks still pending."""
        self.closed = True
        for worker in self.workers:
            worker.close_pipes()
        for worker in self.workers:
            worker.process.join(_JOIN_SECONDS)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(_JOIN_SECONDS)
            for future in worker.pending.values():
                if not future.done():
                    future.set_exception(WorkerDied("the worker pool was shut down"))
            worker.pending.clear()
