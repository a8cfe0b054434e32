"""Nothing lost when the output cannot be written: the crawl stops with a clear error (exit 74)
and the incremental state records only articles whose lines reached the output, so the next
run emits the rest, each article once across the outputs.
"""
from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from mockweb import needs_loopback, read_jsonl
from newscrawl.commands.crawl import EXIT_OUTPUT_ERROR
from newscrawl.demo import DemoServer, crawl, write_sites_file

pytestmark = needs_loopback
SITE = "jiangcheng-daily"


@pytest.fixture(scope="module")
def web():
    server = DemoServer().start()
    yield server
    server.stop()


def _crawl(web, workdir: Path, output: Path):
    sites = write_sites_file([s.config for s in web.sites], workdir / "sites.yaml")
    return crawl(sites, output, cwd=workdir, args=("-a", f"only={SITE}"), timeout=180,
                 settings={"STATE_PATH": workdir / "state.sqlite", "NEWSCRAWL_EXTRACT_WORKERS": "0",
                           "NEWSCRAWL_JSONL_SYNC_ITEMS": "1"})


def _recorded(workdir: Path) -> int:
    with sqlite3.connect(workdir / "state.sqlite") as db:
        return db.execute("SELECT count(*) FROM articles").fetchone()[0]


def _expected(web) -> set[str]:
    return {url for site in web.sites if site.name == SITE for url in site.articles}


def test_disk_full_stops_the_crawl_and_records_nothing_unwritten(web, tmp_path):
    result = _crawl(web, tmp_path, Path("/dev/full:jsonlines"))  # every write fails with ENOSPC
    assert result.returncode == EXIT_OUTPUT_ERROR, result.stderr[-3000:]
    assert "newscrawl: cannot write the output /dev/full: No space left on device; the crawl stopped" in result.stderr
    assert "'finish_reason': 'output_error'" in result.stderr
    assert _recorded(tmp_path) == 0
    again = _crawl(web, tmp_path, tmp_path / "second.jsonl")
    assert again.returncode == 0, again.stderr[-3000:]
    assert {item["canonical_url"] for item in read_jsonl(tmp_path / "second.jsonl")} == _expected(web)


@pytest.fixture
def tiny_disk(tmp_path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    yield mount
    subprocess.run(["umount", str(mount)], check=False)


def test_tiny_disk_fills_mid_crawl_and_the_next_run_completes_without_repeats(web, tmp_path, tiny_disk):
    first_output = tiny_disk / "out.jsonl"
    first = _crawl(web, tmp_path, first_output)
    assert first.returncode == EXIT_OUTPUT_ERROR, first.stderr[-3000:]
    assert "No space left on device" in first.stderr
    first_lines = read_jsonl_complete(first_output)
    assert 0 < len(first_lines) < len(_expected(web))
    assert _recorded(tmp_path) <= len(first_lines)
    second = _crawl(web, tmp_path, tmp_path / "second.jsonl")
    assert second.returncode == 0, second.stderr[-3000:]
    second_lines = read_jsonl(tmp_path / "second.jsonl")
    union = [item["canonical_url"] for item in first_lines + second_lines]
    assert sorted(union) == sorted(_expected(web))  # every article once across the two outputs


def read_jsonl_complete(path: Path) -> list[dict]:
    """The complete lines of an output that filled up (a torn tail is cut by the next run)."""
    data = path.read_bytes()
    return [json.loads(line) for line in data[:data.rfind(b"\n") + 1].decode("utf-8").splitlines() if line.strip()]
