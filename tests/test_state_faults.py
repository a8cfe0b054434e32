"""A corrupt state file (empty, truncated, damaged) is refused with one line naming it and the
``state_admin`` commands to inspect or reset it; the crawl exits 2 before any request.

Before: SQLite took an empty file for a fresh state (every article emitted again), and a truncated
one crashed the crawl with "Task exception was never retrieved".
"""
from __future__ import annotations

import os
import subprocess

import pytest

from incremental_web import IncrementalWeb, crawl_command, crawl_env, story_record
from mockweb import needs_loopback
from newscrawl.commands.crawl import EXIT_BAD_CONFIG
from newscrawl.demo import write_sites_file
from newscrawl.crawl.fingerprint import Fingerprint
from newscrawl.store.state import ArticleRecord, SqliteState, StateCorrupt, state_file_problem
from newscrawl.store.state_admin import main as state_admin


def _full_state(path) -> int:
    """A state of 3,000 articles (several hundred pages); its size in bytes, checkpointed and closed."""
    state = SqliteState(path, filter_mib=0)
    base = story_record(1).fingerprint
    state.add_articles([ArticleRecord(f"http://c.test/{n}", f"http://c.test/{n}?rss", "c", "2030-01-01T00:00:00+00:00",
                                      Fingerprint(base.signature, tuple(band ^ n for band in base.bands)))
                        for n in range(3000)])
    state.close()
    assert not os.path.exists(f"{path}-wal")  # the last connection checkpointed and removed it
    return path.stat().st_size


def _damage(path, how: str) -> None:
    if how == "empty":
        path.write_bytes(b"")
    elif how == "truncated":
        os.truncate(path, path.stat().st_size // 2)
    else:  # not a database at all
        path.write_bytes(b"this is not a database\n" * 10)


WHAT = {"empty": "is empty (0 bytes)", "truncated": "is truncated (", "garbage": "is not a SQLite database"}


@pytest.mark.parametrize("how", ["empty", "truncated", "garbage"])
def test_a_corrupt_state_file_is_refused_and_admin_check_says_so(tmp_path, how, capsys):
    path = tmp_path / "state.sqlite"
    _full_state(path)
    _damage(path, how)
    problem = state_file_problem(path)
    assert problem is not None and WHAT[how] in problem
    assert f"the state file {path} " in problem
    assert f"python -m newscrawl.store.state_admin check --state {path}" in problem
    assert f"python -m newscrawl.store.state_admin reset --state {path}" in problem
    with pytest.raises(StateCorrupt):
        SqliteState(path)
    assert state_admin(["check", "--state", str(path)]) == 2
    assert state_admin(["info", "--state", str(path)]) == 2
    assert WHAT[how] in capsys.readouterr().err
    assert state_admin(["reset", "--state", str(path)]) == 0
    assert not path.exists()


def test_a_whole_state_passes_the_check_and_the_header_test(tmp_path, capsys):
    path = tmp_path / "state.sqlite"
    size = _full_state(path)
    assert size > 100_000 and state_file_problem(path) is None
    assert state_admin(["check", "--state", str(path)]) == 0
    assert f"{path}: ok" in capsys.readouterr().out
    assert state_file_problem(tmp_path / "missing.sqlite") is None  # no file yet: a fresh state


def test_a_damaged_page_is_found_by_the_admin_check(tmp_path, capsys):
    path = tmp_path / "state.sqlite"
    size = _full_state(path)
    with path.open("r+b") as handle:  # overwrite pages in the middle, the header stays whole
        handle.seek(size // 2)
        handle.write(b"\xff" * 8192)
    assert state_file_problem(path) is None  # the header cannot tell
    assert state_admin(["check", "--state", str(path)]) == 2
    assert "is damaged" in capsys.readouterr().err


@needs_loopback
@pytest.mark.parametrize("how", ["empty", "truncated"])
def test_the_crawl_refuses_a_corrupt_state_before_any_request(tmp_path, how):
    web = IncrementalWeb().start()
    try:
        web.publish_first_edition()
        sites = write_sites_file(web.sites_config(), tmp_path / "sites.yaml")
        path = tmp_path / "state.sqlite"
        _full_state(path)
        _damage(path, how)
        damaged = path.read_bytes()
        result = subprocess.run(crawl_command(sites, tmp_path / "out.jsonl", {"STATE_PATH": str(path)}),
                                cwd=tmp_path, env=crawl_env(), text=True, capture_output=True, timeout=120)
        assert result.returncode == EXIT_BAD_CONFIG, result.stderr[-3000:]
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr[-3000:]
        assert lines[0].startswith(f"newscrawl: the state file {path} {WHAT[how]}")
        assert "state_admin check" in lines[0] and "state_admin reset" in lines[0]
        assert web.requests == []
        assert path.read_bytes() == damaged  # left as it was, for inspection
        assert not (tmp_path / "out.jsonl").exists()
    finally:
        web.stop()


class _Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs in the creating code but its clean-up."""


def test_a_crawl_killed_while_creating_its_state_leaves_none_the_next_run_refuses(tmp_path, monkeypatch):
    """SQLite creates a database file empty and writes its first page at the first statement. A crawl
    killed in between (seen at start-up on a loaded machine) left a 0-byte state, which the next run
    refused as damaged: an hourly crawl stopped until a person reset it."""
    import sqlite3

    from newscrawl.store import state as state_module

    path = tmp_path / "state.sqlite"
    real_connect = state_module.connect

    def killed_once_the_file_exists(where):
        sqlite3.connect(where).close()   # the file SQLite makes, still empty
        raise _Killed

    monkeypatch.setattr(state_module, "connect", killed_once_the_file_exists)
    with pytest.raises(_Killed):
        SqliteState(path, filter_mib=0)
    assert state_file_problem(path) is None   # no state file, or a whole one
    monkeypatch.setattr(state_module, "connect", real_connect)
    state = SqliteState(path, filter_mib=0)   # the next run starts
    state.add_articles([story_record(1)])
    state.close()
    assert path.stat().st_size > 0 and state_file_problem(path) is None
    assert [entry.name for entry in tmp_path.iterdir() if ".new-" in entry.name] == []
