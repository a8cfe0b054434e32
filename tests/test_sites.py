"""sites.yaml loading and validation: one message per problem, naming site and key."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from newscrawl.config.sites import SitesError, load_sites, parse_sites

REPO_ROOT = Path(__file__).resolve().parent.parent


def _problems(text: str) -> list[str]:
    with pytest.raises(SitesError) as info:
        parse_sites(textwrap.dedent(text), "s.yaml")
    return info.value.problems


def test_minimal_site_gets_defaults():
    [site] = parse_sites("sites:\n- name: a\n  start_urls: ['https://www.example.com/news/']\n"
                         "  feeds: ['https://feeds.example.org/rss']\n")
    assert site.name == "a"
    assert site.allowed_domains == ("example.com", "feeds.example.org")
    assert site.max_pages is None and site.max_depth is None and site.render == "never"


def test_full_site_is_read():
    [site] = parse_sites(textwrap.dedent("""
        sites:
          - name: full
            start_urls: [https://news.example.com/]
            feeds: [https://news.example.com/rss.xml]
            sitemaps: [https://news.example.com/sitemap.xml]
            allowed_domains: [example.com]
            article_patterns: ['/\\d{4}/\\d\\d/']
            deny_patterns: ['/video/']
            render: true
            max_pages: 50
            max_depth: 0
    """))
    assert site.allowed_domains == ("example.com",)
    assert site.article_patterns[0].search("/2024/05/x")
    assert site.render == "always" and site.max_pages == 50 and site.max_depth == 0


@pytest.mark.parametrize("entry, key, words", [
    ("colour: red", "colour", "unknown key"),
    ("max_pages: ten", "max_pages", "expected a positive integer"),
    ("max_pages: 0", "max_pages", "expected a positive integer"),
    ("max_depth: true", "max_depth", "expected a non-negative integer"),
    ("render: 'sometimes'", "render", "expected never, always or auto, got str 'sometimes'"),
    ("render: 1", "render", "expected never, always or auto"),
    ("feeds: https://example.com/rss", "feeds", "expected a list"),
    ("article_patterns: ['(unclosed']", "article_patterns", "bad regex"),
    ("sitemaps: ['ftp://example.com/sitemap.xml']", "sitemaps", "bad URL"),
    ("allowed_domains: ['https://example.com/']", "allowed_domains", "bad domain"),
])
def test_each_bad_key_names_site_and_key(entry, key, words):
    problems = _problems(f"""
        sites:
          - name: good
            start_urls: [https://example.com/]
            {entry}
    """)
    assert len(problems) == 1
    assert problems[0].startswith("s.yaml: site 'good': key '" + key + "'")
    assert words in problems[0]


def test_missing_keys_bad_start_url_and_duplicates_are_all_reported():
    problems = _problems("""
        sites:
          - name: one
            start_urls: [https://one.example/]
          - start_urls: [https://two.example/]
          - name: three
            start_urls: [not a url]
          - name: one
            start_urls: [https://four.example/]
    """)
    assert problems == [
        "s.yaml: site #2: key 'name': required key is missing",
        "s.yaml: site 'three': key 'start_urls': bad URL 'not a url' (need http:// or https:// and a host)",
        "s.yaml: site 'one' (#4): key 'name': duplicate name (first used by site #1)",
    ]


def test_yaml_syntax_error_names_the_line():
    problems = _problems("sites:\n  - name: a\n    start_urls: [https://a.example/\n")
    assert len(problems) == 1
    assert problems[0].startswith("s.yaml: line ") and "YAML syntax error" in problems[0]


def test_top_level_must_hold_a_sites_list():
    assert "key 'sites'" in _problems("- name: a\n")[0]
    assert "key 'sites'" in _problems("sites: []\n")[0]
    assert "key 'extra'" in _problems("sites:\n- name: a\n  start_urls: ['https://a.example/']\nextra: 1\n")[0]


def test_missing_file(tmp_path):
    with pytest.raises(SitesError) as info:
        load_sites(tmp_path / "nope.yaml")
    assert info.value.problems == [f"{tmp_path / 'nope.yaml'}: file not found"]


def test_shipped_sites_file_is_valid():
    sites = load_sites(REPO_ROOT / "sites.yaml")
    assert len(sites) >= 25
    names = [s.name for s in sites]
    assert len(names) == len(set(names))
    assert any(s.feeds for s in sites) and any(s.sitemaps for s in sites)


@pytest.mark.parametrize("value, mode", [("never", "never"), ("always", "always"), ("Auto", "auto"),
                                         ("true", "always"), ("false", "never")])
def test_render_modes_and_yaml_booleans(value, mode):
    [site] = parse_sites(f"sites:\n- name: a\n  start_urls: ['https://example.com/']\n  render: {value}\n")
    assert site.render == mode


def test_a_file_read_again_gives_its_new_sites_and_a_list_of_its_own(tmp_path):
    path = tmp_path / "sites.yaml"
    path.write_text("sites:\n- name: first\n  start_urls: ['https://www.example.com/']\n", encoding="utf-8")
    sites = load_sites(path)
    sites.append(sites[0])  # the caller's list is its own: the next read is not changed by this
    assert [s.name for s in load_sites(path)] == ["first"]
    path.write_text("sites:\n- name: other\n  start_urls: ['https://www.example.com/']\n", encoding="utf-8")
    assert [s.name for s in load_sites(path)] == ["other"]
    path.write_text("sites:\n- name: other\n  start_urls: [oops\n", encoding="utf-8")
    with pytest.raises(SitesError):
        load_sites(path)
