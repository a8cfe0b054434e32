"""Check setting values before a crawl starts: one line per bad value, naming the setting.

``scrapy crawl`` (newscrawl.commands.crawl) prints these lines and exits with code 2 before
the crawler exists, so a typo in ``-s`` never makes a request or a half-configured run.
"""
from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path
from urllib.parse import urlsplit

from ..extract.options import ExtractOptions
from .paths import resolve

# setting -> smallest allowed value (integers)
INT_SETTINGS = {
    "NEWSCRAWL_MAX_PAGES": 1, "NEWSCRAWL_MAX_DEPTH": 0, "NEWSCRAWL_MAX_QUERY_VARIANTS": 1,
    "NEWSCRAWL_MAX_PER_SHAPE": 1, "NEWSCRAWL_MAX_SITEMAPS": 0, "NEWSCRAWL_EXTRACT_WORKERS": -1,
    "NEWSCRAWL_JSONL_SYNC_ITEMS": 1, "NEWSCRAWL_STATE_RECORD_ITEMS": 1, "NEWSCRAWL_GC_THRESHOLD": 0,
    "NEWSCRAWL_STRIP_MAX_BYTES": 0, "DOWNLOAD_MAXSIZE": 0,
    "DOWNLOAD_WARNSIZE": 0, "RETRY_TIMES": 0, "REDIRECT_MAX_TIMES": 0, "CONCURRENT_REQUESTS": 1,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 1, "DEPTH_LIMIT": 0, "NEWSCRAWL_RENDER_SETTLE_MS": 0,
    "NEWSCRAWL_RENDER_QUIET_MS": 0, "NEWSCRAWL_RENDER_MAX_PAGES": 0, "NEWSCRAWL_MAX_CACHED_LISTING_BYTES": 0,
    "NEWSCRAWL_MAX_HEADER_BYTES": 1024, "NEWSCRAWL_MAX_HEADER_COUNT": 1, "NEWSCRAWL_MAX_URL_LENGTH": 16,
    "NEWSCRAWL_MAX_REMEMBERED_DROPS": 1,
}
# setting -> (smallest, largest or None, whether the smallest itself is allowed)
FLOAT_SETTINGS = {
    "DOWNLOAD_TIMEOUT": (0.0, None, False), "DOWNLOAD_DELAY": (0.0, None, True),
    "NEWSCRAWL_PROGRESS_INTERVAL": (0.0, None, False), "NEWSCRAWL_JSONL_SYNC_SECONDS": (0.0, None, False),
    "NEWSCRAWL_STATE_RECORD_SECONDS": (0.0, None, True),
    "NEWSCRAWL_NEAR_DUPLICATE_JACCARD": (0.0, 1.0, False), "NEWSCRAWL_REDIS_IDLE_SECONDS": (0.0, None, False),
    "NEWSCRAWL_RETRY_AFTER_MAX": (0.0, None, True), "NEWSCRAWL_SHUTDOWN_GRACE_SECONDS": (0.0, None, True),
    "NEWSCRAWL_LISTING_CACHE_MIB": (0.0, None, True), "NEWSCRAWL_REMEMBER_DROPS_DAYS": (0.0, None, True),
    "NEWSCRAWL_MAX_LINK_DENSITY": (0.0, 1.0, True),
}
BOOL_SETTINGS = ("ROBOTSTXT_OBEY", "AUTOTHROTTLE_ENABLED", "NEWSCRAWL_STATE_ENABLED", "NEWSCRAWL_STRIP_ENABLED",
                 "NEWSCRAWL_EXTRACT_ENABLED", "NEWSCRAWL_DURABLE_JSONL", "NEWSCRAWL_TEMPLATES_ENABLED",
                 "NEWSCRAWL_RETRY_AFTER_ENABLED", "NEWSCRAWL_SPILL_QUEUE", "NEWSCRAWL_ARTICLES_DB_ENABLED",
                 "NEWSCRAWL_ONLY_SINKS")
POSTGRES_SCHEMES = ("postgresql", "postgres")
REDIS_SCHEMES = ("redis", "rediss", "unix")


def _int_problem(name: str, value, smallest: int) -> str | None:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return f"setting {name}: expected an integer, got {value!r}"
    if isinstance(value, float) and value != number or isinstance(value, str) and "." in value:
        return f"setting {name}: expected an integer, got {value!r}"
    if number < smallest:
        return f"setting {name}: expected an integer >= {smallest}, got {number}"
    return None


def _float_problem(name: str, value, bounds: tuple[float, float | None, bool]) -> str | None:
    smallest, largest, inclusive = bounds
    try:
        number = float(value)
    except (TypeError, ValueError):
        return f"setting {name}: expected a number, got {value!r}"
    low_ok = number >= smallest if inclusive else number > smallest
    if not low_ok or (largest is not None and number > largest) or number != number:
        above = f">= {smallest}" if inclusive else f"> {smallest}"
        limit = f" and <= {largest}" if largest is not None else ""
        return f"setting {name}: expected a number {above}{limit}, got {value!r}"
    return None


def _bool_problem(name: str, value) -> str | None:
    if isinstance(value, (bool, int)) or str(value).strip().lower() in ("0", "1", "true", "false"):
        return None
    return f"setting {name}: expected True/False or 1/0, got {value!r}"


def _extract_options_problems(value) -> list[str]:
    name = "NEWSCRAWL_EXTRACT_OPTIONS"
    if isinstance(value, str):
        if not value.strip():
            return []
        try:
            value = json.loads(value)
        except ValueError as exc:
            return [f"setting {name}: expected a JSON object of extractor options, got {value!r} ({exc})"]
    if not isinstance(value, dict):
        return [f"setting {name}: expected a JSON object of extractor options, got {value!r}"]
    known = {f.name: f.type for f in fields(ExtractOptions)}
    problems = []
    for key, option in value.items():
        if key not in known:
            problems.append(f"setting {name}: unknown extractor option {key!r}")
            continue
        default = getattr(ExtractOptions(), key)
        kind = type(default)
        fits = isinstance(option, bool) if kind is bool else (
            isinstance(option, (int, float)) and not isinstance(option, bool) and (kind is float or isinstance(option, int)))
        if not fits:
            problems.append(f"setting {name}: option {key!r} expects {kind.__name__}, got {option!r}")
    return problems


def _writable_dir_problem(name: str, path: Path) -> str | None:
    """A problem when the directory of the file ``path`` cannot be created or written."""
    if path.is_dir():
        return f"setting {name}: {path} is a directory (expected a file path)"
    existing = path.parent
    while not existing.exists():
        if existing.parent == existing:
            break
        existing = existing.parent
    if not existing.is_dir():
        return f"setting {name}: {existing} is not a directory (for {path})"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"setting {name}: directory {existing} is not writable (for {path})"
    return None


def _redis_problem(value) -> str | None:
    parts = urlsplit(str(value))
    if parts.scheme not in REDIS_SCHEMES or (parts.scheme != "unix" and not parts.hostname):
        return f"setting REDIS_URL: expected redis://host:port/db (or rediss://, unix://), got {value!r}"
    try:
        parts.port  # noqa: B018 - reading the port is what checks it
    except ValueError:
        return f"setting REDIS_URL: bad port in {value!r}"
    database = parts.path.strip("/")
    if parts.scheme != "unix" and database and not database.isdigit():
        return f"setting REDIS_URL: the database must be a number, got {database!r} in {value!r}"
    return None


def _postgres_problem(value: str) -> str | None:
    """A POSTGRES_URL that is no PostgreSQL URL (named by its scheme only: the URL may hold a password)."""
    scheme = urlsplit(value).scheme
    if scheme in POSTGRES_SCHEMES:
        return None
    return f"setting POSTGRES_URL: expected postgresql://user@host/db, got a URL with scheme {scheme or '(none)'!r}"


def _enabled(settings, name: str) -> bool:
    return str(settings.get(name, True)).strip().lower() not in ("0", "false")


def setting_problems(settings) -> list[str]:
    """Every bad setting value, one line each (empty when the settings are usable)."""
    problems = []
    for name, smallest in INT_SETTINGS.items():
        if settings.get(name) is not None:
            problems.append(_int_problem(name, settings.get(name), smallest))
    for name, bounds in FLOAT_SETTINGS.items():
        if settings.get(name) is not None:
            problems.append(_float_problem(name, settings.get(name), bounds))
    for name in BOOL_SETTINGS:
        if settings.get(name) is not None:
            problems.append(_bool_problem(name, settings.get(name)))
    if settings.get("NEWSCRAWL_EXTRACT_OPTIONS"):
        problems.extend(_extract_options_problems(settings.get("NEWSCRAWL_EXTRACT_OPTIONS")))
    if settings.get("POSTGRES_URL"):
        problems.append(_postgres_problem(str(settings.get("POSTGRES_URL"))))
    if settings.get("REDIS_URL"):
        problems.append(_redis_problem(settings.get("REDIS_URL")))
    elif settings.get("STATE_PATH") and _enabled(settings, "NEWSCRAWL_STATE_ENABLED"):
        problems.append(_writable_dir_problem("STATE_PATH", resolve(settings, str(settings.get("STATE_PATH")))))
    return [problem for problem in problems if problem]
