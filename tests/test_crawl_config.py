"""A bad sites.yaml stops ``scrapy crawl`` with exit code 2 before any request."""
from __future__ import annotations

import pytest

from mockweb import needs_loopback
from newscrawl.demo import DemoServer, crawl, write_sites_file
from newscrawl.demo.run import run_scrapy

pytestmark = needs_loopback


@pytest.fixture(scope="module")
def web():
    server = DemoServer().start()
    yield server
    server.stop()


def test_bad_file_exits_2_with_one_line_per_problem_and_no_request(web, tmp_path):
    good = dict(web.sites[0].config)
    bad = [good,
           {"name": "broken", "start_urls": [web.sites[1].base + "/"], "max_pages": "many",
            "article_patterns": ["(oops"], "colour": "red"},
           {"name": good["name"], "start_urls": ["mailto:someone@example.com"]}]
    sites = write_sites_file(bad, tmp_path / "sites.yaml")
    result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        f"{sites}: site 'broken': key 'colour': unknown key (known: allowed_domains, article_patterns, "
        "deny_patterns, feeds, max_depth, max_pages, name, render, sitemaps, start_urls)",
        f"{sites}: site 'broken': key 'max_pages': expected a positive integer, got str 'many'",
        f"{sites}: site 'broken': key 'article_patterns': bad regex '(oops': missing ), unterminated subpattern "
        "at position 0",
        f"{sites}: site 'harbor-times': key 'start_urls': bad URL 'mailto:someone@example.com' "
        "(need http:// or https:// and a host)",
        f"{sites}: site 'harbor-times' (#3): key 'name': duplicate name (first used by site #1)",
    ]
    assert web.requests == []
    assert not (tmp_path / "out.jsonl").exists()


@pytest.mark.parametrize("content, words", [
    (None, "file not found"),
    ("sites:\n  - name: a\n    start_urls: [http://127.0.0.2/\n", "YAML syntax error"),
])
def test_missing_or_unparsable_file_exits_2(web, tmp_path, content, words):
    sites = tmp_path / "sites.yaml"
    if content is not None:
        sites.write_text(content, encoding="utf-8")
    result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith(str(sites)) and words in line
    assert web.requests == []


def test_only_argument_selects_sites_and_O_writes_there(web, tmp_path):
    sites = write_sites_file([s.config for s in web.sites], tmp_path / "sites.yaml")
    output = tmp_path / "zh.jsonl"
    result = crawl(sites, output, cwd=tmp_path, args=("-a", "only=jiangcheng-daily"))
    assert result.returncode == 0, result.stderr[-2000:]
    lines = output.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and all('"site": "jiangcheng-daily"' in line for line in lines)
    assert (tmp_path / "zh.summary.json").exists()
    assert {site for site, _ in web.requests} == {"jiangcheng-daily"}


def test_unknown_only_name_exits_2(web, tmp_path):
    sites = write_sites_file([s.config for s in web.sites], tmp_path / "sites.yaml")
    result = crawl(sites, tmp_path / "o.jsonl", cwd=tmp_path, args=("-a", "only=nope"))
    assert result.returncode == 2
    assert "argument 'only': unknown site name(s): nope" in result.stderr


def test_spider_contracts_pass_on_the_mock_web(web, tmp_path):
    sites = write_sites_file([s.config for s in web.sites], tmp_path / "sites.yaml")
    result = run_scrapy(["check", "news", "-a", f"sites={sites}", "-s", "LOG_LEVEL=WARNING",
                         "-s", "AUTOTHROTTLE_ENABLED=0", "-s", "DOWNLOAD_DELAY=0"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Ran 6 contracts" in result.stderr and "OK" in result.stderr


@pytest.mark.parametrize("enabled", [False, True])
def test_the_telnet_console_is_off_unless_asked_for(web, tmp_path, enabled):
    """Scrapy's telnet console runs Python sent to it: a crawl starts none unless
    ``-s TELNETCONSOLE_ENABLED=1`` asks for it (README)."""
    sites = write_sites_file([s.config for s in web.sites], tmp_path / "sites.yaml")
    settings = {"TELNETCONSOLE_ENABLED": "1"} if enabled else {}
    result = crawl(sites, tmp_path / "out.jsonl", cwd=tmp_path, args=("-a", "only=jiangcheng-daily"),
                   settings=settings)
    assert result.returncode == 0, result.stderr[-2000:]
    listening = "Telnet console listening on 127.0.0.1:" in result.stderr
    assert listening == enabled
    assert ("scrapy.extensions.telnet.TelnetConsole" in result.stderr) == enabled  # the enabled extensions
