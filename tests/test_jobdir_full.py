"""A JOBDIR whose disk fills mid-crawl stops the crawl with one clear line and exit 74, the lock
released and nothing lost: a resume after space is freed emits every article, each once.

Before: the disk queue's ENOSPC escaped Scrapy's scheduler into the engine, was logged for each
link, and the crawl then hung for ever holding its lock (later cron runs were refused too).

The disk is a small tmpfs (CI runs as root, where ``mount`` works). Where mounting is not
allowed, the crawl's disk queue is one that raises ENOSPC after a number of pushes
(``tests/fulldisk.py``): the same error, through the same scheduler code.
"""
from __future__ import annotations

import errno
import json
import os
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from faultweb import article_html
from fulldisk import mount_tmpfs
from incremental_web import crawl_command, crawl_env
from mockweb import needs_loopback
from newscrawl.commands.crawl import EXIT_OUTPUT_ERROR
from newscrawl.demo import write_sites_file
from newscrawl.store.lock import acquire
from newscrawl.store.resume import MARKER

pytestmark = needs_loopback
STORIES = 300  # article links on the home page: their queued requests outgrow the small disk
TESTS_DIR = Path(__file__).resolve().parent


class _StoryWeb(ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), _StoryHandler)
        self.base = f"http://127.0.0.1:{self.server_address[1]}"
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def urls(self) -> set[str]:
        return {f"{self.base}/2024/05/story-{n}.html" for n in range(STORIES)}


class _StoryHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server naming)
        if self.path == "/":
            links = "".join(f'<li><a href="/2024/05/story-{n}.html">Story {n}</a></li>' for n in range(STORIES))
            body = f"<!DOCTYPE html><html><head><title>Home</title></head><body><ul>{links}</ul></body></html>"
        elif self.path.startswith("/2024/05/story-"):
            number = int(self.path.rsplit("-", 1)[1].split(".")[0])
            body = article_html(f"Story number {number} of the council", 1 + number % 28, number)
        else:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args) -> None:  # noqa: A002
        pass


@pytest.fixture
def web():
    served = _StoryWeb()
    yield served
    served.shutdown()
    served.server_close()


@pytest.fixture
def small_jobdir(tmp_path):
    """(job directory, settings that make its disk fill, a function that frees space)."""
    job = tmp_path / "job"
    job.mkdir()
    if mount_tmpfs(job, "size=64k") is None:
        yield job, {}, lambda: subprocess.run(["mount", "-o", "remount,size=64m", str(job)], check=True)
        subprocess.run(["umount", str(job)], check=False)
    else:  # no mount here: the queue's writes fail as on a full disk
        yield job, {"SCHEDULER_DISK_QUEUE": "fulldisk.FullDiskFifoQueue", "NEWSCRAWL_TEST_QUEUE_PUSHES": "40"}, \
            lambda: None


def _run(web, workdir: Path, output: Path, jobdir: Path, extra: dict) -> subprocess.CompletedProcess:
    sites = write_sites_file([{"name": "stories", "start_urls": [web.base + "/"], "max_depth": 1}],
                             workdir / "sites.yaml")
    settings = {"JOBDIR": str(jobdir), "CONCURRENT_REQUESTS": "2", **extra}
    env = crawl_env()
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(TESTS_DIR)])
    return subprocess.run(crawl_command(sites, output, settings), cwd=workdir, env=env, text=True,
                          capture_output=True, timeout=240)


def _canonicals(path: Path) -> list[str]:
    return [json.loads(line)["canonical_url"] for line in path.read_text(encoding="utf-8").splitlines()] \
        if path.exists() else []


def test_a_full_jobdir_stops_the_crawl_and_the_resume_completes(web, tmp_path, small_jobdir):
    job, failing, free_space = small_jobdir
    started = time.monotonic()
    first = _run(web, tmp_path, tmp_path / "first.jsonl", job, failing)
    assert time.monotonic() - started < 200  # it stops by itself (it used to hang until killed)
    assert first.returncode == EXIT_OUTPUT_ERROR, first.stderr[-3000:]
    lines = first.stderr.strip().splitlines()
    assert lines[-1] == "exit status 74: a file of the crawl could not be written"   # the report ends the run
    last = next(line for line in lines if line.startswith("newscrawl: cannot write the request queue"))
    assert last.startswith(f"newscrawl: cannot write the request queue in {job}: "), last
    assert last.endswith("; the crawl stopped"), last
    assert any(reason in last for reason in (os.strerror(errno.ENOSPC), "database or disk is full")), last
    assert "'finish_reason': 'queue_error'" in first.stderr
    assert (job / MARKER).exists()  # the queue was not saved: the next run discards it
    acquire(tmp_path / ".newscrawl" / "state.sqlite.lock").release()  # the lock is free
    emitted = _canonicals(tmp_path / "first.jsonl")
    assert len(emitted) < STORIES

    free_space()
    second = _run(web, tmp_path, tmp_path / "second.jsonl", job, {})
    assert second.returncode == 0, second.stderr[-3000:]
    assert "was left by a crashed run" in second.stderr
    union = emitted + _canonicals(tmp_path / "second.jsonl")
    assert sorted(union) == sorted(web.urls())  # every article once across the two outputs
