"""What a crawl keeps on disk names no module of newscrawl but the ones PERSISTED_MODULES lists, so a
module that moves never strands a paused JOBDIR, a Redis queue or a state written before the move.

Scrapy keeps a paused crawl's pending requests pickled in JOBDIR (``Request.to_dict``, meta included),
and scrapy-redis pickles them the same way into Redis: an object of ours in a request's meta is pickled
by its module path and unpickled by importing that path. The state and the article store are SQLite
rows of plain values. The one such object is the browser hook a rendered request carries.
"""
from __future__ import annotations

import importlib
import pickle
import re
import signal
import subprocess
import time
from pathlib import Path

import scrapy
from scrapy.utils.request import request_from_dict

from incremental_web import IncrementalWeb, start_crawl
from mockweb import needs_loopback
from newscrawl.demo import write_sites_file
from newscrawl.render import RenderPlan

# Modules whose objects a pending request carries pickled (render_meta's page hooks): moving one breaks
# every JOBDIR and Redis queue that holds a rendered request; keep the name or leave an alias behind.
PERSISTED_MODULES = {"newscrawl.render.page_hooks"}
MODULE_PATH = re.compile(rb"newscrawl(?:\.[A-Za-z_]\w*)+")


def _module_paths(data: bytes) -> set[str]:
    return {match.decode() for match in MODULE_PATH.findall(data)}


def test_a_rendered_request_pickles_only_the_persisted_modules_and_loads_back():
    plan = RenderPlan(modes={"app-news": "always"}, settle_ms=500)
    request = scrapy.Request("https://app-news.example/a.html", meta=plan.page_meta("app-news"))
    data = pickle.dumps(request.to_dict(), protocol=4)   # as Scrapy's pickle disk queues write it
    named = _module_paths(data)
    assert named == PERSISTED_MODULES
    for path in named:
        assert importlib.import_module(path)
    restored = request_from_dict(pickle.loads(data))
    assert restored.meta["playwright_page_init_callback"] is request.meta["playwright_page_init_callback"]


@needs_loopback
def test_a_paused_jobdir_and_the_state_name_no_module(tmp_path):
    web = IncrementalWeb(article_delay=0.3).start()
    try:
        web.publish_first_edition()
        sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
        output = tmp_path / "paused.jsonl"
        process = start_crawl(sites, output, tmp_path, {"CONCURRENT_REQUESTS": "1", "JOBDIR": str(tmp_path / "job")})
        try:
            _wait_for_a_line(process, output)
            process.send_signal(signal.SIGTERM)   # once: Scrapy pauses and saves its queue to JOBDIR
            _, stderr = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
        assert process.returncode == 0, stderr[-3000:]
    finally:
        web.stop()
    queue = [path for path in (tmp_path / "job" / "requests.queue").rglob("*") if path.is_file()
             and path.name != "active.json" and path.stat().st_size > 0]
    assert queue, "the pause saved no pending request: nothing was checked"
    kept = [path for path in tmp_path.rglob("*") if path.is_file() and path.suffix != ".jsonl"
            and not path.name.endswith(".summary.json") and path.name != "sites.yaml"]
    assert any(path.name == "state.sqlite" for path in kept)
    named = {str(path.relative_to(tmp_path)): _module_paths(path.read_bytes()) for path in kept}
    assert not {name: paths for name, paths in named.items() if paths}


def _wait_for_a_line(process: subprocess.Popen, output: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not (output.exists() and output.read_bytes().count(b"\n")):
        assert process.poll() is None, process.stderr.read()[-3000:]
        assert time.monotonic() < deadline, f"no line in {output} after {timeout} s"
        time.sleep(0.05)
