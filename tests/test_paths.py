"""NEWSCRAWL_HOME: where a crawl's relative paths resolve, and the error for a sites file not found."""
from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.settings import Settings

import newscrawl.settings
from newscrawl.demo import crawl
from newscrawl.store.lock import lock_path_for
from newscrawl.config.paths import resolve, sites_source
from newscrawl.config.sites import SitesError


def _settings(**values) -> Settings:
    settings = Settings()
    settings.setmodule(newscrawl.settings)
    settings.setdict(values, priority="cmdline")
    return settings


@pytest.fixture(autouse=True)
def no_home_in_environment(monkeypatch):
    monkeypatch.delenv("NEWSCRAWL_HOME", raising=False)


def test_relative_paths_resolve_under_home_and_absolute_ones_are_kept(tmp_path):
    settings = _settings(NEWSCRAWL_HOME=str(tmp_path))
    assert resolve(settings, "output") == tmp_path / "output"
    assert resolve(settings, "/srv/out") == Path("/srv/out")
    assert lock_path_for(settings) == tmp_path / ".newscrawl" / "state.sqlite.lock"
    assert lock_path_for(_settings(NEWSCRAWL_HOME=str(tmp_path), STATE_PATH="/var/lib/n.sqlite")) == \
        Path("/var/lib/n.sqlite.lock")


def test_without_home_paths_stay_relative_to_the_working_directory():
    assert resolve(_settings(), "output") == Path("output")
    assert lock_path_for(_settings()) == Path(".newscrawl/state.sqlite.lock")


def test_home_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("NEWSCRAWL_HOME", str(tmp_path))
    assert resolve(_settings(), "output") == tmp_path / "output"
    assert resolve(_settings(NEWSCRAWL_HOME="/elsewhere"), "output") == Path("/elsewhere/output")


def test_sites_are_read_from_home(tmp_path):
    (tmp_path / "sites.yaml").write_text("sites: []\n", encoding="utf-8")
    settings = _settings(NEWSCRAWL_HOME=str(tmp_path))
    assert sites_source(settings, None) == tmp_path / "sites.yaml"
    assert sites_source(settings, "sites.yaml") == tmp_path / "sites.yaml"


def test_relative_sites_not_found_names_the_directory_searched(tmp_path, monkeypatch):
    with pytest.raises(SitesError) as caught:
        sites_source(_settings(NEWSCRAWL_HOME=str(tmp_path)), "news.yaml")
    assert caught.value.problems == [f"argument 'sites': news.yaml not found in {tmp_path} (NEWSCRAWL_HOME); "
                                     "give an absolute path or one under it"]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SitesError) as caught:
        sites_source(_settings(), None)
    [line] = caught.value.problems
    assert line.startswith(f"argument 'sites' not given: sites.yaml not found in {tmp_path} (the working "
                           "directory), and none is built into the package"), line


def test_refusal_is_written_to_the_log_file_and_stderr(tmp_path):
    result = crawl(Path("missing.yaml"), settings={"LOG_FILE": tmp_path / "job.log",
                                                   "NEWSCRAWL_HOME": tmp_path / "home"}, cwd=tmp_path, timeout=60)
    line = f"argument 'sites': missing.yaml not found in {tmp_path / 'home'} (NEWSCRAWL_HOME)"
    assert result.returncode == 2
    assert line in result.stderr
    assert f"[newscrawl.commands.crawl] ERROR: {line}" in (tmp_path / "job.log").read_text(encoding="utf-8")
