"""Text to dates: one written date read as a ``FoundDate``, and every date of a text found.

A date is read with the formats of ``patterns.TEXT_DATE_FORMATS`` (their named groups say
which part is which: ``build_date``), a machine value also as an epoch, a compact
"20180902" or an RFC 2822 date. Every format holds a year, so texts are searched only
around their years, found with ``str.find`` (``year_matches``).
"""
from __future__ import annotations

import email.utils
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Iterator, TypeGuard

from ..options import ExtractOptions
from . import patterns as dp

# Texts longer than this are searched for dates only around their years (chars): below it
# one pass of each pattern is cheaper than finding the years first.
_WINDOWED_TEXT_CHARS = 1000
# Widest reach of a written date before and after its year: day, a month name (up to 12
# letters, twice in "2 Sep / Sept"), labels like "de"/"del" and a clock time with
# seconds, AM/PM and zone, with single spaces, plus margin (chars).
_DATE_REACH_BEFORE = 120
_DATE_REACH_AFTER = 160


@dataclass(frozen=True)
class FoundDate:
    """A calendar day with the clock time and zone offset when the page gave them."""
    year: int
    month: int
    day: int
    hour: int | None = None
    minute: int | None = None
    second: int | None = None
    zone: str | None = None  # "+08:00"

    def iso(self) -> str:
        text = f"{self.year:04d}-{self.month:02d}-{self.day:02d}"
        if self.hour is None:
            return text
        text += f"T{self.hour:02d}:{self.minute or 0:02d}:{self.second or 0:02d}"
        return text + (self.zone or "")

    def naive(self) -> datetime:
        return datetime(self.year, self.month, self.day, self.hour or 0, self.minute or 0)


@dataclass(frozen=True)
class Bounds:
    """The moments a publish date can be: from ``date_min_year`` to a little after the fetch."""
    earliest: datetime
    latest: datetime

    def accept(self, found: FoundDate | None) -> TypeGuard[FoundDate]:
        if found is None:
            return False
        moment = found.naive()
        return self.earliest <= moment <= self.latest


def date_bounds(fetched_at: datetime | None, options: ExtractOptions) -> Bounds:
    """The bounds of a page fetched at ``fetched_at`` (now when None; an aware time is read in UTC)."""
    latest = fetched_at or datetime.now()
    if latest.tzinfo is not None:
        latest = latest.astimezone(timezone.utc).replace(tzinfo=None)
    return Bounds(datetime(options.date_min_year, 1, 1),
                  latest + timedelta(hours=options.date_future_slack_hours))


def parse_date(value: str | None, lang: str | None = None) -> FoundDate | None:
    """Read one machine-written or displayed date (meta content, datetime attribute)."""
    if not value:
        return None
    value = ascii_digits(value.strip())
    if not value:
        return None
    match = dp.EPOCH_RE.match(value)
    if match:
        return _from_epoch(int(match.group("epoch")), lang)
    match = dp.COMPACT_DATE_RE.match(value)
    if match:
        return build_date(match.groupdict())
    for _, _, found in iter_text_dates(value[:200], lang):
        return found
    return _from_rfc2822(value)


def iter_text_dates(text: str, lang: str | None = None) -> list[tuple[int, int, FoundDate]]:
    """Every date written in ``text`` as (start, end, date), in text order, no overlaps.

    Every date holds a year, so a long text is searched only around its years
    (spans of ``_DATE_REACH_*`` chars; exact while whitespace runs are short, as
    in collapsed page text).
    """
    spans = year_spans(text)
    return dates_in_spans(text, spans, lang) if spans else []


def dates_in_spans(text: str, spans: list[tuple[int, int]],
                   lang: str | None) -> list[tuple[int, int, FoundDate]]:
    """The dates of ``iter_text_dates`` that lie in these (disjoint) spans of ``text``."""
    found: list[tuple[int, int, FoundDate]] = []
    taken: list[tuple[int, int]] = []
    holds: dict[str, bool] = {}  # per needs_one_of: does the text hold one of its characters
    for date_format in dp.TEXT_DATE_FORMATS.values():
        needed = date_format.needs_one_of
        if needed:
            if needed not in holds:
                holds[needed] = any(character in text for character in needed)
            if not holds[needed]:
                continue
        for span_start, span_end in spans:
            for match in date_format.regex.finditer(text, span_start, span_end):
                start, end = match.span()
                if any(start < e and s < end for s, e in taken):
                    continue
                date = build_date(match.groupdict(), lang)
                if date is None:
                    continue
                taken.append((start, end))
                found.append((start, end, date))
    found.sort(key=lambda item: item[0])
    return found


def year_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of ``text`` that can hold a date: all of a short text, else around years."""
    if len(text) <= _WINDOWED_TEXT_CHARS:
        return [(0, len(text))] if has_year(text) else []
    spans: list[tuple[int, int]] = []
    for year_start, year_end in year_matches(text):
        start = max(0, year_start - _DATE_REACH_BEFORE)
        end = year_end + _DATE_REACH_AFTER
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def year_matches(text: str) -> list[tuple[int, int]]:
    """The (start, end) spans of ``HAS_YEAR_RE.finditer(text)``, found with ``str.find``.

    The regex tries both alternatives at every character (~1 ms on 10,000 chars);
    here "19"/"20" and "年" are found first and the regex's leftmost,
    non-overlapping choice is replayed on those places only.
    """
    candidates = list(_four_digit_years(text))
    position = text.find("年")  # \d{2}\s*年
    while position >= 0:
        start = position
        while start > 0 and text[start - 1].isspace():
            start -= 1
        digits = text[start - 2:start] if start >= 2 else ""
        if digits.isdecimal():
            candidates.append((start - 2, position + 1))
        position = text.find("年", position + 1)
    candidates.sort()
    matches: list[tuple[int, int]] = []
    taken_until = 0
    for start, end in candidates:
        if start >= taken_until:
            matches.append((start, end))
            taken_until = end
    return matches


def has_year(text: str) -> bool:
    """``bool(HAS_YEAR_RE.search(text))``, found with ``str.find``.

    The regex tries its two alternatives at every character: 13 us on 500 chars of prose,
    this 1 us (timeit, 2026-11-26); the byline runs of every page are asked.
    """
    return holds_year(text) or ("年" in text and bool(year_matches(text)))


def holds_year(text: str) -> bool:
    """True when ``HAS_YEAR_RE`` finds a four-digit year in ``text`` (it stops at the first)."""
    return next(_four_digit_years(text), None) is not None


def _four_digit_years(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of every ``(?:19|20)\\d{2}`` in ``text``, found with ``str.find``: the 19s, then the 20s."""
    for century in ("19", "20"):
        position = text.find(century)
        while position >= 0:
            digits = text[position + 2:position + 4]
            if len(digits) == 2 and digits.isdecimal():
                yield position, position + 4
            position = text.find(century, position + 1)


def ascii_digits(text: str) -> str:
    """``text`` with Arabic-Indic and Persian digits written as ASCII digits, same length."""
    if text.isascii() or dp.EASTERN_DIGIT_RE.search(text) is None:
        return text
    return text.translate(dp.EASTERN_DIGITS_TO_ASCII)


def build_date(groups: dict, lang: str | None = None) -> FoundDate | None:
    """A FoundDate from regex groups (year/year2, month/monthname or first/second, day, time)."""
    try:
        if groups.get("year2"):
            year = 2000 + int(groups["year2"])
        else:
            year = int(groups["year"])
        if groups.get("monthname"):
            month = dp.MONTH_NAMES.get(groups["monthname"].lower().rstrip("."))
            day = int(groups["day"])
        elif groups.get("num1"):
            month, day = _order_numeric(int(groups["num1"]), int(groups["num2"]),
                                        groups.get("sep"), lang)
        else:
            month, day = int(groups["month"]), int(groups["day"])
        if not month:
            return None
        datetime(year, month, day)
    except (TypeError, ValueError):
        return None
    hour = groups.get("hour")
    if hour is None:
        return FoundDate(year, month, day)
    hour = int(hour)
    ampm = (groups.get("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    second = groups.get("second")
    return FoundDate(year, month, day, hour, int(groups["minute"]),
                     int(second) if second else None, _zone(groups.get("zone")))


def _order_numeric(first: int, second: int, sep: str | None, lang: str | None) -> tuple[int, int]:
    """Month and day of "a/b/yyyy": whichever cannot be a month is the day; else by usage.

    The US writes month first with slashes; most other places day first.
    """
    if first > 12:
        return second, first
    if second > 12:
        return first, second
    if sep == "/" and (lang or "en") == "en":
        return first, second
    return second, first


def short_year_dates(text: str, lang: str | None) -> list[tuple[int, int, FoundDate]]:
    """The "25.04.24 | 14:07" dates of a byline run that holds no four-digit year."""
    found = []
    for match in dp.SHORT_YEAR_DATE_RE.finditer(text):
        date = build_date(match.groupdict(), lang)
        if date is not None:
            found.append((match.start(), match.end(), date))
    return found


def _zone(text: str | None) -> str | None:
    if not text:
        return None
    text = text.upper()
    if text in ("Z", "UTC", "GMT"):
        return "+00:00"
    digits = text[1:].replace(":", "")
    return f"{text[0]}{digits[:2]}:{digits[2:4]}"


def zone_offset(zone: str) -> timedelta:
    """The offset of a zone: "-04:00" -> -4 hours."""
    sign = -1 if zone[0] == "-" else 1
    return sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))


def _from_epoch(seconds: int, lang: str | None = None) -> FoundDate | None:
    """A Unix timestamp read in the zone of the page's language (``EPOCH_ZONE_BY_LANG``)."""
    if lang is None:
        zone = dp.EPOCH_ZONE_NO_LANG
    else:
        zone = dp.EPOCH_ZONE_BY_LANG.get(lang, dp.EPOCH_ZONE_OTHER_LANG)
    try:
        moment = datetime.fromtimestamp(seconds, tz=timezone(zone_offset(zone)))
    except (OverflowError, OSError, ValueError):
        return None
    return FoundDate(moment.year, moment.month, moment.day, moment.hour, moment.minute,
                     moment.second, zone)


def _from_rfc2822(value: str) -> FoundDate | None:
    try:
        parts = email.utils.parsedate_tz(value)
    except (TypeError, ValueError, IndexError):
        return None
    if not parts or not parts[0]:
        return None
    year, month, day, hour, minute, second, *_rest, offset = parts
    zone = None
    if offset is not None:
        sign = "+" if offset >= 0 else "-"
        zone = f"{sign}{abs(offset) // 3600:02d}:{abs(offset) % 3600 // 60:02d}"
    try:
        datetime(year, month, day)
    except ValueError:
        return None
    return FoundDate(year, month, day, hour, minute, second, zone)
