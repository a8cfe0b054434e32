"""Shared test fixtures: paths of the repository, the page cases and ../shared; the tools some
tests need (Redis, Chromium, PostgreSQL, the compiled walks) and the switches that make their absence fail."""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from newscrawl.extract import fastwalk
from newscrawl.render.plan import DEFAULT_BROWSER_PATH

REPO_ROOT = Path(__file__).resolve().parent.parent
PAGES_DIR = REPO_ROOT / "tests" / "pages"
SHARED_DIR = REPO_ROOT.parent / "shared"


@dataclass(frozen=True)
class Tool:
    """Something a test needs beyond the Python packages: without it the test skips, unless
    ``switch``=1 is in the environment (CI sets each switch for what it installs), then it fails."""

    switch: str
    present: Callable[[], bool]
    missing: str   # what is missing and how to get it


# Marker name -> tool: a test marked ``@pytest.mark.needs_redis`` (and so on) runs only with it.
TOOLS = {
    "needs_redis": Tool("NEWSCRAWL_REQUIRE_REDIS", lambda: shutil.which("redis-server") is not None,
                        "redis-server is not installed (Debian package redis-server)"),
    "needs_browser": Tool("NEWSCRAWL_REQUIRE_CHROMIUM", lambda: os.access(DEFAULT_BROWSER_PATH, os.X_OK),
                          f"no browser at {DEFAULT_BROWSER_PATH} (Debian package chromium)"),
    "needs_postgres": Tool("NEWSCRAWL_REQUIRE_POSTGRES", lambda: _postgres_available(),
                           "PostgreSQL's initdb/pg_ctl or psycopg are missing (Debian package postgresql; "
                           "pip install -r requirements.txt)"),
    "needs_fastwalk": Tool("NEWSCRAWL_REQUIRE_FASTWALK", lambda: fastwalk.compiled is not None,
                           "the compiled walks are not built (python3 -m pip install -e .)"),
}


def _postgres_available() -> bool:
    from pg_cluster import postgres_available  # tests/pg_cluster.py, beside this file

    return postgres_available()


def pytest_configure(config):
    for name, tool in TOOLS.items():
        config.addinivalue_line("markers", f"{name}: skipped when missing, failed when {tool.switch}=1")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Before any fixture: a test whose tool is missing skips, or fails where its switch is set."""
    for marker in item.iter_markers():
        tool = TOOLS.get(marker.name)
        if tool is None or tool.present():
            continue
        if os.environ.get(tool.switch) == "1":
            pytest.fail(f"{tool.missing}, and {tool.switch}=1 requires it", pytrace=False)
        pytest.skip(f"{tool.missing} (set {tool.switch}=1 to fail instead)")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def pages_dir() -> Path:
    return PAGES_DIR


@pytest.fixture(scope="session")
def postgres_cluster():
    """A PostgreSQL server of the test session (tests/pg_cluster.py); use with the needs_postgres marker.
    Its directory is a new one in the system's temporary directory: the server's user (``postgres``
    when the tests run as root) cannot enter pytest's, which only root may read."""
    import tempfile

    from pg_cluster import PostgresCluster

    directory = Path(tempfile.mkdtemp(prefix="newscrawl-postgres-"))
    cluster = PostgresCluster(directory).init()
    yield cluster
    try:
        cluster.stop()
    except RuntimeError:
        pass  # a test left it stopped
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def postgres(postgres_cluster):
    """The session's PostgreSQL server, running and without newscrawl's tables."""
    try:
        with postgres_cluster.connect():
            pass
    except Exception:  # noqa: BLE001 - stopped by an earlier test: start it again
        postgres_cluster.start()
    postgres_cluster.reset()
    return postgres_cluster
