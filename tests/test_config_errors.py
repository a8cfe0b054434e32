"""Every kind of bad sites.yaml and bad setting value: one clear line, exit code 2, no request made.

Each kind is checked in-process (the same checks ``scrapy crawl`` runs before it starts);
a few of each go through a real ``scrapy crawl`` subprocess to show the exit code and that
the web saw no request (each subprocess costs seconds, so not all of them).
"""
from __future__ import annotations

import pytest
from scrapy.settings import Settings

import newscrawl.settings
from faultweb import FaultWeb
from mockweb import needs_loopback
from newscrawl.config.config_check import setting_problems
from newscrawl.demo import crawl, write_sites_file
from newscrawl.config.sites import SitesError, load_sites



@pytest.fixture(scope="module")
def web():
    server = FaultWeb.start()
    yield server
    server.stop()


def _site(web) -> dict:
    return {"name": "fault-gazette", "start_urls": [f"{web.fault.base}/"]}


@pytest.mark.parametrize("name, value, words", [
    ("NEWSCRAWL_MAX_PAGES", "many", "setting NEWSCRAWL_MAX_PAGES: expected an integer, got 'many'"),
    ("NEWSCRAWL_MAX_PAGES", "-5", "setting NEWSCRAWL_MAX_PAGES: expected an integer >= 1, got -5"),
    ("NEWSCRAWL_MAX_DEPTH", "2.5", "setting NEWSCRAWL_MAX_DEPTH: expected an integer, got '2.5'"),
    ("NEWSCRAWL_EXTRACT_WORKERS", "-2", "setting NEWSCRAWL_EXTRACT_WORKERS: expected an integer >= -1, got -2"),
    ("DOWNLOAD_TIMEOUT", "0", "setting DOWNLOAD_TIMEOUT: expected a number > 0.0, got '0'"),
    ("DOWNLOAD_MAXSIZE", "big", "setting DOWNLOAD_MAXSIZE: expected an integer, got 'big'"),
    ("NEWSCRAWL_NEAR_DUPLICATE_JACCARD", "1.5", "setting NEWSCRAWL_NEAR_DUPLICATE_JACCARD: expected a number > 0.0"),
    ("ROBOTSTXT_OBEY", "perhaps", "setting ROBOTSTXT_OBEY: expected True/False or 1/0, got 'perhaps'"),
    ("NEWSCRAWL_RETRY_AFTER_MAX", "-1", "setting NEWSCRAWL_RETRY_AFTER_MAX: expected a number >= 0.0"),
    ("NEWSCRAWL_REMEMBER_DROPS_DAYS", "a week", "setting NEWSCRAWL_REMEMBER_DROPS_DAYS: expected a number, got"),
    ("NEWSCRAWL_MAX_REMEMBERED_DROPS", "0", "setting NEWSCRAWL_MAX_REMEMBERED_DROPS: expected an integer >= 1, got 0"),
    ("NEWSCRAWL_MAX_LINK_DENSITY", "half", "setting NEWSCRAWL_MAX_LINK_DENSITY: expected a number, got 'half'"),
    ("NEWSCRAWL_EXTRACT_OPTIONS", '{"min_article_char": 100}',
     "setting NEWSCRAWL_EXTRACT_OPTIONS: unknown extractor option 'min_article_char'"),
    ("NEWSCRAWL_EXTRACT_OPTIONS", '{"min_article_chars": "lots"}',
     "setting NEWSCRAWL_EXTRACT_OPTIONS: option 'min_article_chars' expects int, got 'lots'"),
    ("NEWSCRAWL_EXTRACT_OPTIONS", "{not json", "setting NEWSCRAWL_EXTRACT_OPTIONS: expected a JSON object"),
    ("REDIS_URL", "http://127.0.0.1:6379/0", "setting REDIS_URL: expected redis://host:port/db"),
    ("REDIS_URL", "redis://127.0.0.1:port/0", "setting REDIS_URL: bad port"),
    ("REDIS_URL", "redis://127.0.0.1:6379/zero", "setting REDIS_URL: the database must be a number"),
    ("STATE_PATH", "{tmp}/afile/state.sqlite", "setting STATE_PATH: {tmp}/afile is not a directory"),
    ("STATE_PATH", "{tmp}", "setting STATE_PATH: {tmp} is a directory"),
])
def test_bad_setting_gives_one_line(tmp_path, name, value, words):
    (tmp_path / "afile").write_text("not a directory", encoding="utf-8")
    settings = Settings()
    settings.setmodule(newscrawl.settings)
    settings.set(name, value.replace("{tmp}", str(tmp_path)), priority="cmdline")
    [line] = setting_problems(settings)
    assert line.startswith(words.replace("{tmp}", str(tmp_path))), line


def test_shipped_settings_are_valid():
    settings = Settings()
    settings.setmodule(newscrawl.settings)
    assert setting_problems(settings) == []


@needs_loopback
@pytest.mark.parametrize("name, value, words", [
    ("NEWSCRAWL_MAX_PAGES", "many", "setting NEWSCRAWL_MAX_PAGES: expected an integer, got 'many'"),
    ("NEWSCRAWL_EXTRACT_OPTIONS", '{"min_article_char": 100}',
     "setting NEWSCRAWL_EXTRACT_OPTIONS: unknown extractor option 'min_article_char'"),
    ("STATE_PATH", "{tmp}/afile/state.sqlite", "setting STATE_PATH: {tmp}/afile is not a directory"),
])
def test_bad_setting_exits_2_with_one_line_and_no_request(web, tmp_path, name, value, words):
    (tmp_path / "afile").write_text("not a directory", encoding="utf-8")
    sites = write_sites_file([_site(web)], tmp_path / "sites.yaml")
    value, words = value.replace("{tmp}", str(tmp_path)), words.replace("{tmp}", str(tmp_path))
    result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, settings={name: value}, timeout=60)
    assert result.returncode == 2, result.stderr[-2000:]
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(words), line
    assert web.fault.hits.paths == []
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("sites_text, words", [
    (None, "file not found"),
    ("sites: [", "YAML syntax error"),
    ("pages: []\n", "expected a mapping with a 'sites' list"),
    ("sites: []\n", "expected a non-empty list of sites"),
    ("sites:\n- just a string\n", "expected a mapping with name and start_urls"),
    ("sites:\n- name: a\n", "key 'start_urls': required key is missing"),
    ("sites:\n- name: a\n  start_urls: []\n", "needs at least one URL"),
    ("sites:\n- name: a\n  start_urls: http://127.0.0.9/\n", "key 'start_urls': expected a list"),
    ("sites:\n- name: a\n  start_urls: ['ftp://127.0.0.9/']\n", "bad URL"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9:99999/']\n", "bad port"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  max_pages: 0\n", "expected a positive integer"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  max_depth: true\n", "non-negative integer"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  deny_patterns: ['[a-']\n", "bad regex"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  allowed_domains: ['http://x/']\n", "bad domain"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  render: sometimes\n", "never, always or auto"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  colour: red\n", "unknown key"),
    ("sites:\n- name: ''\n  start_urls: ['http://127.0.0.9/']\n", "must not be empty"),
])
def test_bad_sites_file_gives_one_line(tmp_path, sites_text, words):
    sites = tmp_path / "sites.yaml"
    if sites_text is not None:
        sites.write_text(sites_text, encoding="utf-8")
    with pytest.raises(SitesError) as caught:
        load_sites(sites)
    [line] = caught.value.problems
    assert line.startswith(str(sites)) and words in line, line


@needs_loopback
@pytest.mark.parametrize("sites_text, words", [
    ("sites: [", "YAML syntax error"),
    ("sites:\n- name: a\n  start_urls: ['http://127.0.0.9/']\n  colour: red\n", "unknown key"),
])
def test_bad_sites_file_exits_2_with_one_line_and_no_request(web, tmp_path, sites_text, words):
    sites = tmp_path / "sites.yaml"
    sites.write_text(sites_text, encoding="utf-8")
    result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, timeout=60)
    assert result.returncode == 2, result.stderr[-2000:]
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(str(sites)) and words in line, line
    assert web.fault.hits.paths == []
