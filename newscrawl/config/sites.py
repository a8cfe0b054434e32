"""Load and validate ``sites.yaml``: the list of news sites to crawl.

The whole file is checked before any request. Every problem becomes one line
naming the file, the site and the key, and :class:`SitesError` carries them all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from .pattern_check import nested_unbounded_repeat

# key -> (expected python type, human name); bool is checked apart from int.
_LIST_KEYS = ("start_urls", "feeds", "sitemaps", "allowed_domains", "article_patterns", "deny_patterns")
_SCALAR_KEYS = {"name": (str, "a string"), "render": (str, "never, always or auto"),
                "max_pages": (int, "a positive integer"), "max_depth": (int, "a non-negative integer")}
KNOWN_KEYS = frozenset(_LIST_KEYS) | frozenset(_SCALAR_KEYS)
REQUIRED_KEYS = ("name", "start_urls")
# render: fetch pages plainly, always through the browser, or plainly first and through the browser
# only when a page looks script-built (newscrawl.render); YAML true/false mean always/never.
RENDER_MODES = ("never", "always", "auto")
_RENDER_BOOLS = {True: "always", False: "never"}
_HOST_RE = re.compile(r"^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?$", re.I)


@dataclass(frozen=True)
class SiteConfig:
    """One validated entry of ``sites.yaml``."""

    name: str
    start_urls: tuple[str, ...]
    feeds: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    allowed_domains: tuple[str, ...] = ()
    article_patterns: tuple[re.Pattern, ...] = ()
    deny_patterns: tuple[re.Pattern, ...] = ()
    render: str = "never"  # one of RENDER_MODES
    max_pages: int | None = None
    max_depth: int | None = None


class SitesError(Exception):
    """A sites file that cannot be used; ``problems`` holds one line per problem."""

    def __init__(self, problems: list[str]):
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class _Checker:
    source: str
    problems: list[str] = field(default_factory=list)

    def add(self, where: str, key: str | None, message: str) -> None:
        prefix = f"{self.source}: {where}"
        self.problems.append(f"{prefix}: key '{key}': {message}" if key else f"{prefix}: {message}")


def host_of(url: str) -> str:
    return (urlsplit(url).hostname or "").lower()


def default_domains(urls: list[str]) -> tuple[str, ...]:
    """Hosts of the site's URLs, a leading ``www.`` removed so sibling hosts are allowed."""
    domains = []
    for url in urls:
        host = host_of(url)
        host = host[4:] if host.startswith("www.") else host
        if host and host not in domains:
            domains.append(host)
    return tuple(domains)


def _describe(value) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:60]}"


def _check_url(checker: _Checker, where: str, key: str, url) -> bool:
    if not isinstance(url, str):
        checker.add(where, key, f"expected a URL string, got {_describe(url)}")
        return False
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        checker.add(where, key, f"bad URL {url!r} (need http:// or https:// and a host)")
        return False
    try:
        parts.port  # noqa: B018 - reading the port is what checks it
    except ValueError:
        checker.add(where, key, f"bad URL {url!r} (bad port)")
        return False
    return True


def _check_list(checker: _Checker, where: str, key: str, value) -> list:
    if not isinstance(value, list):
        checker.add(where, key, f"expected a list, got {_describe(value)}")
        return []
    return value


def _check_patterns(checker: _Checker, where: str, key: str, value) -> tuple[re.Pattern, ...]:
    compiled = []
    for pattern in _check_list(checker, where, key, value):
        if not isinstance(pattern, str):
            checker.add(where, key, f"expected a regex string, got {_describe(pattern)}")
            continue
        try:
            compiled.append(re.compile(pattern))
        except re.error as exc:
            checker.add(where, key, f"bad regex {pattern!r}: {exc}")
            continue
        if nested_unbounded_repeat(pattern):
            checker.add(where, key, f"regex {pattern!r} repeats a repeat (like (a+)+): it can take exponential "
                                    "time on a long URL; write it without the nesting (e.g. (a+)+ as a+)")
    return tuple(compiled)


def _check_render(checker: _Checker, where: str, value) -> str | None:
    if isinstance(value, bool):
        return _RENDER_BOOLS[value]
    if isinstance(value, str) and value.strip().lower() in RENDER_MODES:
        return value.strip().lower()
    checker.add(where, "render", f"expected never, always or auto, got {_describe(value)}")
    return None


def _check_scalar(checker: _Checker, where: str, key: str, value):
    if key == "render":
        return _check_render(checker, where, value)
    kind, wanted = _SCALAR_KEYS[key]
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        checker.add(where, key, f"expected {wanted}, got {_describe(value)}")
        return None
    if key == "max_pages" and value < 1 or key == "max_depth" and value < 0:
        checker.add(where, key, f"expected {wanted}, got {value}")
        return None
    if key == "name" and not value.strip():
        checker.add(where, key, "must not be empty")
        return None
    return value


def _check_site(checker: _Checker, index: int, raw) -> SiteConfig | None:
    where = f"site #{index + 1}"
    if not isinstance(raw, dict):
        checker.add(where, None, f"expected a mapping with name and start_urls, got {_describe(raw)}")
        return None
    if isinstance(raw.get("name"), str) and raw["name"].strip():
        where = f"site '{raw['name']}'"
    before = len(checker.problems)
    for key in raw:
        if key not in KNOWN_KEYS:
            checker.add(where, key, f"unknown key (known: {', '.join(sorted(KNOWN_KEYS))})")
    for key in REQUIRED_KEYS:
        if key not in raw:
            checker.add(where, key, "required key is missing")
    values = {key: _check_scalar(checker, where, key, raw[key]) for key in _SCALAR_KEYS if key in raw}
    urls = {}
    for key in ("start_urls", "feeds", "sitemaps"):
        items = _check_list(checker, where, key, raw.get(key, []))
        urls[key] = tuple(u.strip() for u in items if _check_url(checker, where, key, u))
    if "start_urls" in raw and not raw["start_urls"] and isinstance(raw["start_urls"], list):
        checker.add(where, "start_urls", "needs at least one URL")
    domains = []
    for domain in _check_list(checker, where, "allowed_domains", raw.get("allowed_domains", [])):
        if not isinstance(domain, str) or not _HOST_RE.match(domain):
            checker.add(where, "allowed_domains", f"bad domain {domain!r} (a host name, no scheme or path)")
        else:
            domains.append(domain.lower().rstrip("."))
    patterns = {key: _check_patterns(checker, where, key, raw[key])
                for key in ("article_patterns", "deny_patterns") if key in raw}
    if len(checker.problems) > before:
        return None
    return SiteConfig(
        name=values["name"], start_urls=urls["start_urls"], feeds=urls["feeds"], sitemaps=urls["sitemaps"],
        allowed_domains=tuple(domains) or default_domains([*urls["start_urls"], *urls["feeds"], *urls["sitemaps"]]),
        article_patterns=patterns.get("article_patterns", ()), deny_patterns=patterns.get("deny_patterns", ()),
        render=values.get("render") or "never", max_pages=values.get("max_pages"), max_depth=values.get("max_depth"),
    )


# libyaml's loader where PyYAML was built with it: a 10,000-site file loads in 0.8 s of CPU against
# 3.9 s with the pure-Python one (timed on such a file, 2026-11-27); both build the same data
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The last sites text checked and its sites: a crawl reads the file twice at start (its arguments are
# checked before the spider is made), so the second read costs no parse
_last_parsed: tuple[str, str, tuple[SiteConfig, ...]] | None = None


def parse_sites(text: str, source: str = "sites.yaml") -> list[SiteConfig]:
    """Validate the YAML text of a sites file; raise SitesError listing every problem."""
    global _last_parsed
    if _last_parsed is not None and _last_parsed[0] == source and _last_parsed[1] == text:
        return list(_last_parsed[2])
    sites = _parse_sites(text, source)
    _last_parsed = (source, text, tuple(sites))
    return sites


def _parse_sites(text: str, source: str) -> list[SiteConfig]:
    checker = _Checker(source)
    try:
        data = yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "file"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise SitesError([f"{source}: {place}: YAML syntax error: {problem}"]) from None
    if not isinstance(data, dict) or "sites" not in data:
        raise SitesError([f"{source}: top level: key 'sites': expected a mapping with a 'sites' list"])
    for key in data:
        if key != "sites":
            checker.add("top level", key, "unknown key (known: sites)")
    raw_sites = data["sites"]
    if not isinstance(raw_sites, list) or not raw_sites:
        checker.add("top level", "sites", f"expected a non-empty list of sites, got {_describe(raw_sites)}")
        raise SitesError(checker.problems)
    sites, seen = [], {}
    for index, raw in enumerate(raw_sites):
        site = _check_site(checker, index, raw)
        name = raw.get("name") if isinstance(raw, dict) else None
        if isinstance(name, str) and name in seen:
            checker.add(f"site '{name}' (#{index + 1})", "name", f"duplicate name (first used by site #{seen[name] + 1})")
        elif isinstance(name, str):
            seen[name] = index
        if site is not None:
            sites.append(site)
    if checker.problems:
        raise SitesError(checker.problems)
    return sites


def load_sites(path: str | Path | Traversable) -> list[SiteConfig]:
    """Read and validate a sites file (a path, or a file in a package); raise SitesError listing every problem."""
    path = Path(path) if isinstance(path, str) else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SitesError([f"{path}: file not found"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SitesError([f"{path}: cannot read: {exc}"]) from None
    return parse_sites(text, str(path))
