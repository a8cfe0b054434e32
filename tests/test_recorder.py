"""The state's writes in a child process (recorder.py): same records as in-process, failures, parent death."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from newscrawl.store.recorder import RecorderDied, records_from_rows, rows_of
from newscrawl.store.state import ArticleRecord, SqliteState

from incremental_web import story_record

TESTS = Path(__file__).resolve().parent
PROJECT = TESTS.parent


def _rows(path: Path) -> dict[str, list]:
    db = sqlite3.connect(str(path))
    try:
        return {table: sorted(db.execute(f"SELECT * FROM {table}")) for table in ("articles", "urls", "bands", "outputs")}
    finally:
        db.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(") ")[-1].startswith("Z"))


def test_a_recorder_process_writes_what_the_crawl_process_would(tmp_path):
    batches = [([story_record(0), story_record(1)], "out.jsonl", 10), ([story_record(1), story_record(2)], "out.jsonl", 20)]
    tables = {}
    for in_process in (False, True):
        path = tmp_path / f"state-{in_process}.sqlite"
        state = SqliteState(path, write_in_process=in_process)
        for records, output, offset in batches:
            state.add_articles(records, output, offset)
            assert all(state.is_known(record.canonical_url) for record in records)  # committed when it returns
        if in_process:
            assert state.writer.process.is_alive() and state.writer.process.pid != os.getpid()
            child = state.writer.process
        state.close()
        tables[in_process] = _rows(path)
    assert not child.is_alive()  # closing the state ends the recorder
    assert tables[True] == tables[False]
    assert len(tables[True]["articles"]) == 3 and tables[True]["outputs"] == [("out.jsonl", 20)]


def test_a_dead_recorder_fails_its_batch_and_is_replaced(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite", write_in_process=True)
    state.add_articles([story_record(0)])
    first = state.writer.process
    first.kill()
    first.join(10)
    with pytest.raises(RecorderDied, match="exited"):
        state.add_articles([story_record(1)])
    assert not state.is_known(story_record(1).canonical_url)
    state.add_articles([story_record(1)])  # the next sync sends the batch again, to a new process
    assert state.writer.process.pid != first.pid
    assert state.is_known(story_record(1).canonical_url)
    state.close()


def test_a_failed_write_is_reported_and_the_recorder_goes_on(tmp_path):
    state = SqliteState(tmp_path / "state.sqlite", filter_mib=0, write_in_process=True)  # no filter: keys made in the child
    broken = ArticleRecord(None, "http://a.test/x", "a", "2030-01-01T00:00:00+00:00", None)  # no canonical URL
    with pytest.raises(RuntimeError, match="recording in .* failed"):
        state.add_articles([story_record(0), broken])
    assert not state.is_known(story_record(0).canonical_url)  # the batch is one transaction: none of it
    child = state.writer.process
    state.add_articles([story_record(0)])
    assert state.writer.process is child and state.is_known(story_record(0).canonical_url)
    state.close()


def test_the_recorder_dies_with_a_killed_crawl(tmp_path):
    script = textwrap.dedent(f"""
        import sys, time
        sys.path[:0] = [{str(PROJECT)!r}, {str(TESTS)!r}]
        from newscrawl.store.state import ArticleRecord, SqliteState
        from incremental_web import story_record
        state = SqliteState({str(tmp_path / 'state.sqlite')!r}, write_in_process=True)
        state.add_articles([story_record(0)])
        print(state.writer.process.pid, flush=True)
        time.sleep(60)
    """)
    crawl = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        recorder = int(crawl.stdout.readline())
        assert _alive(recorder)
        crawl.send_signal(signal.SIGKILL)
        crawl.wait(10)
        deadline = time.monotonic() + 10
        while _alive(recorder) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(recorder)
    finally:
        crawl.kill()
        crawl.wait()


def test_records_travel_to_the_recorder_whole():
    records = [story_record(0), ArticleRecord("http://a.test/n", "http://a.test/n?x", None, "2030-01-01T00:00:00+00:00",
                                              None, "http://a.test/first")]
    assert records_from_rows(rows_of(records)) == records  # band keys made again from the signature
