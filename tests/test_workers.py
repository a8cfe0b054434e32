"""The extraction worker pool: results, errors, a worker that dies, shutdown, and the frame format."""
from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest

from newscrawl.crawl.workers import WorkerDied, WorkerPool, frame, split_frames


def double(value: int) -> int:
    return value * 2


def echo_size(payload: bytes) -> int:
    return len(payload)


def size_after_a_while(payload: bytes) -> int:
    time.sleep(0.02)
    return len(payload)


def finished_at(size: int) -> tuple[float, bytes]:
    return time.monotonic(), b"r" * size


def fail(message: str) -> None:
    raise ValueError(message)


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.fixture
def pool():
    workers = WorkerPool(2)
    yield workers
    workers.shutdown()


def test_results_come_back_to_their_own_tasks(pool):
    async def run():
        return await asyncio.gather(*(pool.submit(double, n) for n in range(200)))

    assert asyncio.run(run()) == [2 * n for n in range(200)]


def test_a_payload_larger_than_the_pipe_buffer_is_sent_whole(pool):
    payload = os.urandom(3_000_000)  # a pipe holds 64 KB: the rest waits for the writable callback

    async def run():
        return await asyncio.gather(pool.submit(echo_size, payload), pool.submit(echo_size, payload))

    assert asyncio.run(run()) == [len(payload), len(payload)]


def test_tasks_waiting_for_a_busy_worker_are_held_once_not_copied_at_each_submit():
    # The worker takes 20 ms a task while tasks of 256 KB arrive every 2 ms: a backlog of megabytes
    # waits for the pipe, written from its front. Held as one buffer, each submit copied it whole
    # (memory peaked at twice the backlog); held as the frames, the peak is the backlog and a frame.
    payload = os.urandom(256 * 1024)
    tasks = 60
    pool = WorkerPool(1)
    try:
        async def run():
            await pool.submit(double, 1)  # the worker is up and has read its first task
            tracemalloc.start()
            try:
                futures = []
                for _ in range(tasks):
                    futures.append(pool.submit(size_after_a_while, payload))
                    await asyncio.sleep(0.002)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
            return peak, await asyncio.wait_for(asyncio.gather(*futures), 60)

        peak, sizes = asyncio.run(run())
    finally:
        pool.shutdown()
    assert sizes == [len(payload)] * tasks
    assert peak < 1.3 * tasks * len(payload), f"peak {peak / 1e6:.1f} MB for {tasks * len(payload) / 1e6:.1f} MB of tasks"


wide_pipes = pytest.mark.skipif(not hasattr(fcntl, "F_SETPIPE_SZ"), reason="pipe sizes are set on Linux only")


@wide_pipes
def test_pages_for_a_busy_worker_wait_in_its_pipe_not_in_the_crawl():
    # While the worker runs a long task, the next 15 pages of 45 KB go straight into its pipe: the
    # event loop need not wake again to feed it (a 64 KB pipe took one page and kept the rest).
    pool = WorkerPool(1)
    try:
        async def run():
            await pool.submit(double, 1)
            busy = pool.submit(pid_after, 0.5)
            pages = [pool.submit(echo_size, os.urandom(45_000)) for _ in range(15)]
            waiting = len(pool.workers[0].outgoing)
            return waiting, await asyncio.wait_for(asyncio.gather(busy, *pages), 30)

        waiting, answers = asyncio.run(run())
    finally:
        pool.shutdown()
    assert answers[1:] == [45_000] * 15
    assert waiting == 0


@wide_pipes
def test_a_worker_goes_on_while_the_event_loop_is_busy():
    # Results of 50 KB: while the loop's thread is busy for 0.6 s and reads none, the worker still
    # finishes all ten tasks (with a 64 KB pipe it blocked on sending its second result).
    pool = WorkerPool(1)
    try:
        async def run():
            await pool.submit(double, 1)
            futures = [pool.submit(finished_at, 50_000) for _ in range(10)]
            time.sleep(0.6)  # the loop's thread busy elsewhere: no result is read meanwhile
            busy_until = time.monotonic()
            return busy_until, await asyncio.wait_for(asyncio.gather(*futures), 30)

        busy_until, answers = asyncio.run(run())
    finally:
        pool.shutdown()
    assert [len(body) for _, body in answers] == [50_000] * 10
    assert max(finished for finished, _ in answers) < busy_until


def test_an_exception_in_the_task_reaches_the_caller(pool):
    async def run():
        with pytest.raises(ValueError, match="no article here"):
            await pool.submit(fail, "no article here")
        return await pool.submit(double, 21)

    assert asyncio.run(run()) == 42


def test_a_killed_worker_fails_its_task_and_is_replaced():
    pool = WorkerPool(1)
    try:
        async def run():
            slow = pool.submit(pid_after, 5)
            await asyncio.sleep(0.5)
            victim = pool.workers[0].process.pid
            os.kill(victim, signal.SIGKILL)
            with pytest.raises(WorkerDied, match=str(victim)):
                await asyncio.wait_for(slow, 10)
            after = await asyncio.wait_for(pool.submit(pid_after, 0), 30)
            return victim, after

        victim, after = asyncio.run(run())
        assert after != victim
    finally:
        pool.shutdown()


def test_shutdown_ends_the_worker_processes():
    pool = WorkerPool(2)
    processes = [worker.process for worker in pool.workers]
    assert all(process.is_alive() for process in processes)
    pool.shutdown()
    assert not any(process.is_alive() for process in processes)
    with pytest.raises(RuntimeError, match="shut down"):
        asyncio.run(_submit_one(pool))


async def _submit_one(pool):
    return await pool.submit(double, 1)


def test_frames_split_at_their_boundaries_and_keep_a_partial_tail():
    stream = bytearray(frame(b"abc") + frame(b"") + frame(b"x" * 70_000))
    tail = frame(b"partial")[:6]
    stream += tail
    assert split_frames(stream) == [b"abc", b"", b"x" * 70_000]
    assert stream == bytearray(tail)


WORKER_IMPORTS_CHECK = """
import asyncio, sys
from newscrawl.crawl.extract_jobs import run_extract
from newscrawl.crawl.workers import WorkerPool

def loaded():
    return "newscrawl.extract" in sys.modules, "scrapy" in sys.modules

async def ask(pool):
    result = await asyncio.wait_for(pool.submit(run_extract, b"<p>Hello.</p>", "http://x.test/", None, "", None), 60)
    return result.url, await asyncio.wait_for(pool.submit(loaded), 60)

if __name__ == "__main__":
    pool = WorkerPool(1)
    try:
        print(asyncio.run(ask(pool)))
    finally:
        pool.shutdown()
"""


def test_a_worker_running_the_extraction_job_does_not_import_scrapy(tmp_path):
    script = tmp_path / "imports_check.py"
    script.write_text(WORKER_IMPORTS_CHECK)
    repo = Path(__file__).resolve().parent.parent
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "PYTHONPATH": str(repo)}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "('http://x.test/', (True, False))"
