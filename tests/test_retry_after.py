"""Retry-After parsing (the wait itself is shown by the fault crawl in test_crawl_faults.py)."""
from datetime import datetime, timezone

from newscrawl.crawl.retry_after import parse_retry_after

NOW = datetime(2024, 5, 11, 12, 0, 0, tzinfo=timezone.utc)


def test_delta_seconds():
    assert parse_retry_after(b"120") == 120.0
    assert parse_retry_after(" 3 ") == 3.0


def test_http_date_in_the_future_and_past():
    assert parse_retry_after("Sat, 11 May 2024 12:00:30 GMT", now=NOW) == 30.0
    assert parse_retry_after("Sat, 11 May 2024 11:59:00 GMT", now=NOW) == 0.0


def test_unusable_values():
    for value in (None, b"", "soon", "-5", "1.5e9x"):
        assert parse_retry_after(value, now=NOW) is None
