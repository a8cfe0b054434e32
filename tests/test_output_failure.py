"""Nothing lost when the output cannot be written: an output that cannot be opened (read-only
directory, a directory named as the file) refuses the start (exit 2, no request, state untouched);
one that fails mid-crawl stops the crawl with a clear error (exit 74), and the incremental state
records only articles whose lines reached the output, so the next run emits the rest, each article
once across the outputs.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from mockweb import needs_loopback, read_jsonl
from fulldisk import mount_tmpfs
from incremental_web import story_record
from newscrawl.commands.crawl import EXIT_BAD_CONFIG, EXIT_OUTPUT_ERROR
from newscrawl.demo import DemoServer, crawl, write_sites_file
from newscrawl.store.state import SqliteState

pytestmark = needs_loopback
SITE = "jiangcheng-daily"


@pytest.fixture(scope="module")
def web():
    server = DemoServer().start()
    yield server
    server.stop()


def _crawl(web, workdir: Path, output: Path | None, settings: dict | None = None):
    sites = write_sites_file([s.config for s in web.sites], workdir / "sites.yaml")
    return crawl(sites, output, cwd=workdir, args=("-a", f"only={SITE}"), timeout=180,
                 settings={"STATE_PATH": workdir / "state.sqlite", "NEWSCRAWL_EXTRACT_WORKERS": "0",
                           "NEWSCRAWL_JSONL_SYNC_ITEMS": "1", **(settings or {})})


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


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def read_only_dir(tmp_path):
    """A directory no one can write to: a read-only tmpfs (root ignores file modes), else mode 0555."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    refused = mount_tmpfs(folder, "ro,size=64k")
    if refused:
        if os.geteuid() == 0:
            pytest.skip(f"root ignores file modes, and no read-only tmpfs: {refused}")
        folder.chmod(0o555)
    yield folder
    if refused:
        folder.chmod(0o755)
    else:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.parametrize("case", ["read_only_dir", "directory_as_file", "default_dir_read_only"])
def test_an_output_that_cannot_be_opened_refuses_the_start(web, tmp_path, read_only_dir, case):
    """Before: the crawl ran, wrote nothing, exited 0 and recorded every article as emitted."""
    state = SqliteState(tmp_path / "state.sqlite", filter_mib=0)
    state.add_articles([story_record(0)])
    state.close()
    before, requests = _digest(tmp_path / "state.sqlite"), len(web.requests)
    settings = {}
    if case == "read_only_dir":
        output = read_only_dir / "out.jsonl"
        named, error = output, "Read-only file system" if os.geteuid() == 0 else "Permission denied"
    elif case == "directory_as_file":
        output = tmp_path / "out.jsonl"
        output.mkdir()
        named, error = output, "Is a directory"
    else:
        output, settings = None, {"NEWSCRAWL_OUTPUT_DIR": str(read_only_dir)}
        named, error = read_only_dir / "news-", "Read-only file system" if os.geteuid() == 0 else "Permission denied"
    result = _crawl(web, tmp_path, output, settings)
    assert result.returncode == EXIT_BAD_CONFIG, result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-3000:]
    [line] = lines
    assert line.startswith(f"newscrawl: cannot open the output {named}")
    assert line.endswith(f": {error}; not starting")
    assert len(web.requests) == requests  # no request was made
    assert _digest(tmp_path / "state.sqlite") == before
    assert not list(read_only_dir.iterdir())


def test_a_scrapy_feed_that_fills_the_disk_stops_the_crawl_and_records_nothing(web, tmp_path, tiny_disk):
    """A feed Scrapy's exporter writes (JSON array): its articles are recorded only once it was stored.
    Before: the write errors were only logged, the crawl exited 0, and every article was recorded."""
    result = _crawl(web, tmp_path, tiny_disk / "out.json")
    assert result.returncode == EXIT_OUTPUT_ERROR, result.stderr[-3000:]
    lines = result.stderr.strip().splitlines()
    # the disk fills while the exporter writes (or, when its buffer held every line, when it closes the file)
    stops = {f"newscrawl: cannot write the feed {tiny_disk / 'out.json'}: No space left on device; "
             "the crawl stopped", f"newscrawl: cannot store the feed {tiny_disk / 'out.json'} (the log says "
             "why); the crawl stopped"}
    assert stops & set(lines), result.stderr[-3000:]
    assert lines[-1] == "exit status 74: a file of the crawl could not be written"   # the report ends the run
    assert _recorded(tmp_path) == 0
    again = _crawl(web, tmp_path, tmp_path / "second.jsonl")
    assert again.returncode == 0, again.stderr[-3000:]
    assert {item["canonical_url"] for item in read_jsonl(tmp_path / "second.jsonl")} == _expected(web)


@pytest.fixture
def tiny_disk(tmp_path):
    mount = tmp_path / "tiny"
    mount.mkdir()
    refused = mount_tmpfs(mount, "size=4k")
    if refused:
        pytest.skip(f"cannot mount a tmpfs here: {refused}")
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
