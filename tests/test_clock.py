"""utc_now: ISO 8601 UTC to the second, the same string as datetime's, new each second."""
from __future__ import annotations

from datetime import datetime, timezone

from newscrawl.run import clock


def test_utc_now_is_the_current_second_in_iso_8601(monkeypatch):
    before = datetime.now(timezone.utc).replace(microsecond=0)
    stamp = clock.utc_now()
    after = datetime.now(timezone.utc).replace(microsecond=0)
    assert stamp.endswith("+00:00") and "." not in stamp
    assert before <= datetime.fromisoformat(stamp) <= after
    monkeypatch.setattr(clock.time, "time", lambda: 1_800_000_000.75)
    assert clock.utc_now() == "2027-01-15T08:00:00+00:00"
    monkeypatch.setattr(clock.time, "time", lambda: 1_800_000_001.2)
    assert clock.utc_now() == "2027-01-15T08:00:01+00:00"
