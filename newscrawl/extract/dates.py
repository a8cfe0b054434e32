"""Find the publish date of a page, as an ISO 8601 string.

Sources, best first: JSON-LD datePublished, publish meta tags,
elements marked as the publish date (itemprop, data-ptime, <time datetime>),
the byline text near the headline, date-named byline boxes, a labelled date
in the page text ("发布时间：..."), page-script variables, the URL, then the
modified dates, and last a date shown as updated next to the headline. The
first source giving a plausible date wins: after 1995 and not after the fetch
time. When a machine source (JSON-LD, meta, marked elements) gives one, the
shown date is looked for only when the machine dates disagree on the day or
are in UTC; a UTC date shown nowhere is read in the zone of the page's other
zoned times. A wiki page is dated by its revision shown, not its creation.

Every search is bounded and shares per-tree work: class/id/itemprop values are
read once (``named_attributes``), the headline is found once (``title``), the
byline windows are walked only as far as they are read, and page text (at most
``date_text_scan_chars``) is searched only around its years (found with
``str.find``), span by span, labelled spans first.
"""
from __future__ import annotations

import bisect
import email.utils
import functools
import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Callable, Iterator, TypeGuard

import lxml.etree
import lxml.html

from . import date_patterns as dp
from .blocks import is_link_navigation
from .contentblocks import BlockStatsReader
from .dom import parsed_source
from .fastwalk import compiled
from .metadata import PageMeta, tagged_elements
from .named_attributes import select_attributes, words_in_values
from .options import DEFAULT_OPTIONS, ExtractOptions
from .page_texts import link_free_runs, visible_runs
from .title import find_byline_anchor, following_texts, preceding_texts, visible_text

# Characters around a year searched for its date and the publish label before it.
_LABEL_REACH_CHARS = 48
# Characters of a date-named box's text searched for its date.
_DATE_BOX_TEXT_CHARS = 300
# Elements inside a date-named box (document order) searched for a machine date under the
# box's tooltip: a timestamp link or byline row holds a handful of spans and links (the
# tweet timestamp of htmldate-mediacloud holds its epoch on the first); a box that wraps
# the article is not walked.
_DATE_BOX_INNER_ELEMENTS = 8
# Texts longer than this are searched for dates only around their years (chars): below it
# one pass of each pattern is cheaper than finding the years first.
_WINDOWED_TEXT_CHARS = 1000
# Widest reach of a written date before and after its year: day, a month name (up to 12
# letters, twice in "2 Sep / Sept"), labels like "de"/"del" and a clock time with
# seconds, AM/PM and zone, with single spaces, plus margin (chars).
_DATE_REACH_BEFORE = 120
_DATE_REACH_AFTER = 160
# A zoned time of the page tells its zone when it lies this near the UTC machine moment
# (hours): times of the same day share the site's offset, daylight saving included.
_PAGE_ZONE_REACH_HOURS = 24


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
class _Bounds:
    earliest: datetime
    latest: datetime

    def accept(self, found: FoundDate | None) -> TypeGuard[FoundDate]:
        if found is None:
            return False
        moment = found.naive()
        return self.earliest <= moment <= self.latest


def find_published(root: lxml.html.HtmlElement | None, page: PageMeta, url: str | None,
                   fetched_at: datetime | None = None,
                   options: ExtractOptions = DEFAULT_OPTIONS) -> str | None:
    """The page's publish date as ISO 8601, or None when no source gives one."""
    bounds = _bounds(fetched_at, options)
    lang = page.lang
    if root is not None and _is_wiki(page):
        revised = _first_accepted([lambda: _from_jsonld(page, dp.JSONLD_MODIFIED_KEYS, lang),
                                   lambda: _from_wiki_footer(root, lang)], bounds)
        if revised is not None:
            return revised.iso()
    is_foreign = _foreign_test(options)  # one per page: it remembers the blocks it counted
    texts = _PageTexts(root, page, options, is_foreign)
    machine: list[Callable[[], Iterator[FoundDate | None]]] = [
        lambda: _from_jsonld(page, dp.JSONLD_PUBLISHED_KEYS, lang),
        lambda: _from_meta(page, dp.META_PUBLISHED_KEYS, lang),
    ]
    shown: list[Callable[[], Iterator[FoundDate | None]]] = []
    if root is not None:
        machine.append(lambda: _from_raw_jsonld(root, lang))
        machine.append(lambda: _from_marked_elements(root, page, lang))
        shown += [
            lambda: _from_byline(root, page, lang, bounds, options, texts),
            lambda: _from_date_classes(root, page, lang, bounds, options, is_foreign),
            lambda: _from_labelled_text(texts, lang, bounds),
        ]
    late: list[Callable[[], Iterator[FoundDate | None]]] = []
    if root is not None:
        late.append(lambda: _from_scripts(root, lang))
    late += [
        lambda: _from_url(url),
        lambda: _from_jsonld(page, dp.JSONLD_MODIFIED_KEYS, lang),
        lambda: _from_meta(page, dp.META_MODIFIED_KEYS, lang),
    ]
    if root is not None:
        late.append(lambda: _from_first_text_date(root, lang, bounds, options, texts))
    late.append(lambda: _from_url(page.first("og:image", "twitter:image")))
    if root is not None:
        late.append(lambda: _from_updated_byline(root, page, lang, bounds, texts))

    machine_dates = _accepted(machine, bounds)
    found = next(machine_dates, None)
    if found is None and root is not None:
        # No publisher statement: the page's <time datetime> elements are machine dates too
        # (they may be a related story's, so they never overrule a statement).
        machine_dates = _accepted([lambda: _from_time_elements(root, page, lang, is_foreign, options)],
                                  bounds)
        found = next(machine_dates, None)
    if found is not None:
        day = (found.year, found.month, found.day)
        others = (d for d in machine_dates if (d.year, d.month, d.day) != day)  # read as far as needed
        other = next(others, None)
        if other is None and found.zone != "+00:00":
            return found.iso()  # the shown date could not change the choice: not searched
        local = _first_accepted(shown, bounds)
        if other is not None:
            found = _shown_machine_date(found, itertools.chain([other], others), local) or found
        if found.zone == "+00:00":
            if local is None and root is not None:
                local = _first_accepted([lambda: _from_scripts(root, lang)], bounds)
            found = _local_day_of(found, local)
            if local is None and root is not None:
                found = _in_page_zone(found, root, page)
        return found.iso()
    found = _first_accepted(shown + late, bounds)
    return found.iso() if found is not None else None


def _accepted(sources: list[Callable[[], Iterator[FoundDate | None]]],
              bounds: _Bounds) -> Iterator[FoundDate]:
    """The plausible dates of the sources, in order, each source run only when reached."""
    for source in sources:
        for found in source():
            if bounds.accept(found):
                yield found


def _first_accepted(sources: list[Callable[[], Iterator[FoundDate | None]]],
                    bounds: _Bounds) -> FoundDate | None:
    return next(_accepted(sources, bounds), None)


def _shown_machine_date(first: FoundDate, others: Iterator[FoundDate],
                        shown: FoundDate | None) -> FoundDate | None:
    """When machine sources disagree, the first one whose day the page also shows.

    ``others`` (the later machine dates) are read only when the page shows a day that is
    not ``first``'s: for a UTC date the shown day is looked for before they are, and the
    marked elements are mostly not searched (find_published 0.909 -> 0.877 ms a page of
    ../shared/eval, 2026-11-26, old and new code alternating in one process, 2,584 pages, 3 rounds).
    """
    if shown is None:
        return None
    day = (shown.year, shown.month, shown.day)
    for found in itertools.chain([first], others):
        if (found.year, found.month, found.day) == day:
            return found
    return None


def _local_day_of(utc: FoundDate, shown: FoundDate | None) -> FoundDate:
    """The displayed date when it is the same moment as a UTC machine date.

    Pages often state UTC in meta while showing, and
    meaning, the reader's local day: a shown date no more than 14 hours (the
    widest zone offset) from the machine moment names the same publication,
    and its day is the one readers see.
    """
    if shown is None or (shown.year, shown.month, shown.day) == (utc.year, utc.month, utc.day):
        return utc
    if shown.hour is None:
        shown_day = datetime(shown.year, shown.month, shown.day)
        utc_day = datetime(utc.year, utc.month, utc.day)
        offset_hours = (shown_day - utc_day).total_seconds() / 3600
        # the local day starts within [-14h, +14h] of the UTC moment's day boundaries
        moment = utc.naive()
        if shown_day - timedelta(hours=14) <= moment < shown_day + timedelta(hours=24 + 14) \
                and abs(offset_hours) <= 24:
            return shown
        return utc
    if abs(shown.naive() - utc.naive()) <= timedelta(hours=14):
        return shown
    return utc


def _in_page_zone(utc: FoundDate, root: lxml.html.HtmlElement, page: PageMeta) -> FoundDate:
    """A UTC machine date, shown nowhere, moved to the zone the page writes its own times in.

    Sites that give the publish time in UTC (React/Arc CMSs: "2020-05-02T02:54:29Z")
    often write other times of the same hours with the site's offset (a broadcast
    schedule, the render clock: "Fri, 01 May 2020 23:00:00 -0400"). When those near
    the moment agree on one offset, the same moment is read in it: the day its
    readers saw (htmldate-mediacloud gold is that day, 2026-11-22).
    """
    moment = _utc_moment(utc)
    reach = timedelta(hours=_PAGE_ZONE_REACH_HOURS)
    offsets = set()
    for text in _zoned_texts(root, page):
        for match in dp.ZONED_TIME_RE.finditer(text):
            other = parse_date(match.group(0))
            if other is not None and other.zone not in (None, "+00:00", "-00:00") \
                    and abs(_utc_moment(other) - moment) <= reach:
                offsets.add(other.zone)
    if len(offsets) != 1:
        return utc
    zone = offsets.pop()
    local = moment + _offset(zone)
    return FoundDate(local.year, local.month, local.day, local.hour, local.minute, utc.second, zone)


def _zoned_texts(root: lxml.html.HtmlElement, page: PageMeta) -> Iterator[str]:
    """The texts a page writes machine times in: inline scripts, meta values, <time datetime>."""
    for element in tagged_elements(root, "script"):
        if element.text and element.get("src") is None:
            yield element.text
    for values in page.meta.values():
        yield from values
    for element in tagged_elements(root, "time"):
        yield element.get("datetime") or ""


def _utc_moment(found: FoundDate) -> datetime:
    """The naive UTC moment of a date with a clock time and zone."""
    return found.naive() - _offset(found.zone or "+00:00")


def _offset(zone: str) -> timedelta:
    """The offset of a zone: "-04:00" -> -4 hours."""
    sign = -1 if zone[0] == "-" else 1
    return sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6]))


def _is_wiki(page: PageMeta) -> bool:
    """True for a page made by a wiki engine (its generator meta)."""
    generator = (page.first("generator") or "").lower()
    return generator.startswith(dp.WIKI_GENERATORS)


def _from_wiki_footer(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate]:
    """The date of MediaWiki's "This page was last edited on ..." footer line."""
    footer = root.get_element_by_id(dp.WIKI_LASTMOD_ID, None)
    if footer is not None:
        for _start, _end, found in iter_text_dates(_ascii_digits(footer.text_content()), lang):
            yield found


# --------------------------------------------------------------------------- parsing


def parse_date(value: str | None, lang: str | None = None) -> FoundDate | None:
    """Read one machine-written or displayed date (meta content, datetime attribute)."""
    if not value:
        return None
    value = _ascii_digits(value.strip())
    if not value:
        return None
    match = dp.EPOCH_RE.match(value)
    if match:
        return _from_epoch(int(match.group("epoch")), lang)
    match = dp.COMPACT_DATE_RE.match(value)
    if match:
        return _build(match.groupdict())
    for _, _, found in iter_text_dates(value[:200], lang):
        return found
    return _from_rfc2822(value)


def iter_text_dates(text: str, lang: str | None = None) -> list[tuple[int, int, FoundDate]]:
    """Every date written in ``text`` as (start, end, date), in text order, no overlaps.

    Every date holds a year, so a long text is searched only around its years
    (spans of ``_DATE_REACH_*`` chars; exact while whitespace runs are short, as
    in collapsed page text).
    """
    spans = _year_spans(text)
    return _dates_in_spans(text, spans, lang) if spans else []


def _dates_in_spans(text: str, spans: list[tuple[int, int]],
                    lang: str | None) -> list[tuple[int, int, FoundDate]]:
    """The dates of ``iter_text_dates`` that lie in these (disjoint) spans of ``text``."""
    found: list[tuple[int, int, FoundDate]] = []
    taken: list[tuple[int, int]] = []
    cjk = "年" in text or "년" in text
    for pattern in dp.TEXT_DATE_PATTERNS:
        if pattern in dp.CJK_YEAR_DATE_PATTERNS and not cjk:
            continue
        for span_start, span_end in spans:
            for match in pattern.finditer(text, span_start, span_end):
                start, end = match.span()
                if any(start < e and s < end for s, e in taken):
                    continue
                date = _build(match.groupdict(), lang)
                if date is None:
                    continue
                taken.append((start, end))
                found.append((start, end, date))
    found.sort(key=lambda item: item[0])
    return found


def _year_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of ``text`` that can hold a date: all of a short text, else around years."""
    if len(text) <= _WINDOWED_TEXT_CHARS:
        return [(0, len(text))] if _has_year(text) else []
    spans: list[tuple[int, int]] = []
    for year_start, year_end in _year_matches(text):
        start = max(0, year_start - _DATE_REACH_BEFORE)
        end = year_end + _DATE_REACH_AFTER
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], end)
        else:
            spans.append((start, end))
    return spans


def _year_matches(text: str) -> list[tuple[int, int]]:
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


def _has_year(text: str) -> bool:
    """``bool(HAS_YEAR_RE.search(text))``, found with ``str.find``.

    The regex tries its two alternatives at every character: 13 us on 500 chars of prose,
    this 1 us (timeit, 2026-11-26); the byline runs of every page are asked.
    """
    return _holds_year(text) or ("年" in text and bool(_year_matches(text)))


def _holds_year(text: str) -> bool:
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


def _before_footer(text: str) -> str:
    """The text up to its copyright/ICP footer (all of it when there is none)."""
    return _cut_at_footer(text)[0]


def _cut_at_footer(text: str) -> tuple[str, str | None]:
    """``_before_footer`` and the lowercased cut text (None when lowercasing moved positions).

    Arabic-Indic and Persian digits come back as ASCII ones (``_ascii_digits``). The
    lowercased text serves ``_label_starts`` too: one ``lower()`` of a long text, not two.
    """
    text = _ascii_digits(text)
    lowered = text.lower()
    if len(lowered) == len(text):
        footer = _footer_start(lowered)
        if footer < 0:
            return text, lowered
        return text[:footer], lowered[:footer]
    # a character changed length when lowercased: positions differ
    footer_match = dp.FOOTER_TEXT_RE.search(text)
    return (text[:footer_match.start()] if footer_match else text), None


def _footer_start(lowered: str) -> int:
    """Where the first footer marker starts in lowercased text; -1 when none is there."""
    starts = [start for marker in dp.FOOTER_MARKERS if (start := lowered.find(marker)) >= 0]
    return min(starts, default=-1)


def _ascii_digits(text: str) -> str:
    """``text`` with Arabic-Indic and Persian digits written as ASCII digits, same length."""
    if text.isascii() or dp.EASTERN_DIGIT_RE.search(text) is None:
        return text
    return text.translate(dp.EASTERN_DIGITS_TO_ASCII)


def _build(groups: dict, lang: str | None = None) -> FoundDate | None:
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


def _zone(text: str | None) -> str | None:
    if not text:
        return None
    text = text.upper()
    if text in ("Z", "UTC", "GMT"):
        return "+00:00"
    digits = text[1:].replace(":", "")
    return f"{text[0]}{digits[:2]}:{digits[2:4]}"


def _from_epoch(seconds: int, lang: str | None = None) -> FoundDate | None:
    """A Unix timestamp read in the zone of the page's language (``EPOCH_ZONE_BY_LANG``)."""
    if lang is None:
        zone = dp.EPOCH_ZONE_NO_LANG
    else:
        zone = dp.EPOCH_ZONE_BY_LANG.get(lang, dp.EPOCH_ZONE_OTHER_LANG)
    try:
        moment = datetime.fromtimestamp(seconds, tz=timezone(_offset(zone)))
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


def _bounds(fetched_at: datetime | None, options: ExtractOptions) -> _Bounds:
    latest = fetched_at or datetime.now()
    if latest.tzinfo is not None:
        latest = latest.astimezone(timezone.utc).replace(tzinfo=None)
    return _Bounds(datetime(options.date_min_year, 1, 1),
                   latest + timedelta(hours=options.date_future_slack_hours))


# --------------------------------------------------------------------------- sources


def _from_jsonld(page: PageMeta, keys: tuple[str, ...], lang: str | None) -> Iterator[FoundDate | None]:
    """JSON-LD dates, article-typed objects first."""
    objects = sorted(page.jsonld, key=lambda obj: 0 if _is_article_object(obj) else 1)
    for key in keys:
        for obj in objects:
            value = obj.get(key)
            if isinstance(value, str):
                yield parse_date(value, lang)


def _is_article_object(obj: dict) -> bool:
    kind = obj.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and ("Article" in k or "Posting" in k or "Report" in k) for k in kinds)


def _from_meta(page: PageMeta, keys: tuple[str, ...], lang: str | None) -> Iterator[FoundDate | None]:
    for key in keys:
        for value in page.meta.get(key, ()):
            yield parse_date(value, lang)


def _from_marked_elements(root: lxml.html.HtmlElement, page: PageMeta,
                          lang: str | None) -> Iterator[FoundDate | None]:
    """itemprop=datePublished, data-ptime, <time pubdate>, class "published": the publisher's marks."""
    token = f" {dp.PUBLISHED_CLASS_TOKEN} "
    classes = {value for value in words_in_values(root, "class", [dp.PUBLISHED_CLASS_TOKEN])
               if token in f" {value} "}
    chosen = {"class": classes, "itemprop": dp.MARKED_DATE_ITEMPROPS}
    times = tagged_elements(root, "time")
    # The source scan only spares the XPath walks; the compiled selection tests them in its one walk.
    tests = dp.MARKED_DATE_ATTRIBUTES if compiled is not None or _may_hold_marked_date_names(root) else ()
    if any(element.get("pubdate") is not None for element in times):
        tests += dp.PUBDATE_TIME_ATTRIBUTES
    for element in select_attributes(root, chosen, tests):
        yield _element_date(element, lang)


def _from_time_elements(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None,
                        is_foreign: Callable[[lxml.html.HtmlElement], bool],
                        options: ExtractOptions = DEFAULT_OPTIONS) -> Iterator[FoundDate | None]:
    """The first ``<time datetime>`` elements outside comments, link lists and footers."""
    times = tagged_elements(root, "time")
    headline = find_byline_anchor(root, page, options)
    for count, element in enumerate(times):
        if count >= 10:
            break
        if element.get("datetime") and not _in_foreign_block(element, headline, is_foreign):
            yield _element_date(element, lang)


def _may_hold_marked_date_names(root: lxml.html.HtmlElement) -> bool:
    """False when the page's source shows that no element has an attribute of MARKED_DATE_ATTRIBUTES."""
    source = parsed_source(root)
    if source is None:
        return True
    for match in dp.MARKED_DATE_NAME_END_RE.finditer(source):
        start = match.start()
        if source[max(0, start - len(dp.MARKED_DATE_NAME_START)):start].lower() == dp.MARKED_DATE_NAME_START:
            return True
    return False


def _element_date(element: lxml.html.HtmlElement, lang: str | None,
                  text_too: bool = True) -> FoundDate | None:
    found = _attribute_date(element, lang, dp.ATTRIBUTE_DATE_KEYS)
    if found is not None or not text_too:
        return found
    return parse_date(" ".join(element.text_content().split())[:200], lang)


def _attribute_date(element: lxml.html.HtmlElement, lang: str | None,
                    keys: tuple[str, ...]) -> FoundDate | None:
    """The date of the element's first attribute among ``keys``, else of a ``data-...time/date`` one."""
    for key in keys:
        found = parse_date(element.get(key), lang)
        if found is not None:
            return found
    for key, value in element.attrib.items():
        if key.startswith("data-") and ("time" in key or "date" in key):
            found = parse_date(value, lang)
            if found is not None:
                return found
    return None


def _box_attribute_date(box: lxml.html.HtmlElement, lang: str | None) -> FoundDate | None:
    """The date a date box writes only in its attributes (its text shows none).

    None when that date is the box's tooltip over an element that holds a machine
    date: the tooltip renders that moment for people, often in the reader's zone,
    and the inner element (a date box too when named so) gives the moment itself.
    """
    found = _element_date(box, lang, text_too=False)
    if found is None or _attribute_date(box, lang, dp.MACHINE_DATE_KEYS) is not None:
        return found
    inner = box.iterdescendants(lxml.etree.Element)
    for _, element in zip(range(_DATE_BOX_INNER_ELEMENTS), inner):
        if _attribute_date(element, lang, dp.MACHINE_DATE_KEYS) is not None:
            return None
    return found


def _in_foreign_block(element: lxml.html.HtmlElement, headline: lxml.html.HtmlElement | None,
                      is_foreign: Callable[[lxml.html.HtmlElement], bool], depth: int = 8) -> bool:
    """True inside a comment, related-links or footer block (its dates are not the page's).

    A block holding the headline is the story's whatever its names: layout wrappers
    are named after the sidebar beside them ("layout--has-sidebar").
    """
    node = element
    for _ in range(depth):
        node = node.getparent()
        if node is None or node.tag in ("body", "html"):
            return False  # their classes describe the page ("no-sidebars"), not a block
        if is_foreign(node):
            return not _holds(node, headline)
    return False


def _holds(block: lxml.html.HtmlElement, element: lxml.html.HtmlElement | None) -> bool:
    """True when ``element`` lies inside ``block``."""
    return element is not None and any(node is block for node in element.iterancestors())


# What a class/id value says of its block (``_foreign_names``).
_NOT_FOREIGN_NAMED, _LIST_NAMED, _FOREIGN_NAMED = 0, 1, 2


@functools.lru_cache(maxsize=8192)
def _foreign_names(names: str) -> int:
    """Cached: pages repeat the same class names (menu items, list entries) many times."""
    if names.isspace():
        return _NOT_FOREIGN_NAMED
    lowered = names.lower()
    if dp.NOT_ARTICLE_STRONG_CLASS_RE.search(lowered):
        return _FOREIGN_NAMED
    return _LIST_NAMED if dp.NOT_ARTICLE_CLASS_RE.search(lowered) else _NOT_FOREIGN_NAMED


def _from_byline(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: _Bounds,
                 options: ExtractOptions, texts: _PageTexts) -> Iterator[FoundDate | None]:
    """The date next to the headline: a labelled one first, else the first one after it."""
    headline = find_byline_anchor(root, page, options)
    if headline is None:
        return
    inside, _ = _split_dates(visible_text(headline), lang, bounds)
    yield from inside
    yield from _pick_in_runs(texts.after_headline(), lang, bounds, options)
    before = preceding_texts(headline, options.date_before_headline_chars, skip=texts.is_foreign)[::-1]
    yield from _pick_in_runs(before, lang, bounds, options, last=True)


def _from_updated_byline(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: _Bounds,
                         texts: _PageTexts) -> Iterator[FoundDate]:
    """A date shown as updated next to the headline: the last resort, as dateModified is."""
    headline = find_byline_anchor(root, page, texts.options)
    if headline is None:
        return
    runs = texts.after_headline()
    for index, run in enumerate(runs):
        prefix = runs[index - 1][-16:] + "\n" if index else ""
        text = _before_footer(run)
        for start, _end, found in iter_text_dates(text, lang):
            if bounds.accept(found) and dp.UPDATE_CONTEXT_RE.search((prefix + text[:start])[-16:]):
                yield found


def _is_foreign(element: lxml.html.HtmlElement, options: ExtractOptions = DEFAULT_OPTIONS) -> bool:
    """A block whose dates are not the page's: comments, link lists, page furniture."""
    return _foreign_test(options)(element)


def _foreign_test(options: ExtractOptions) -> Callable[[lxml.html.HtmlElement], bool]:
    """``_is_foreign`` with these options, in one call per element.

    A footer, aside or nav, or an element whose class/id name a comment, related-links or
    footer block. Names that only say "list" (or "hot", "rank", "footer") count when the
    block is also link navigation: a byline row is often styled as a list, or is the footer
    of the headline's card. The text walks call it on every element they pass (~400 a page
    of ../shared/eval): one closure instead of a partial and two nested calls. It counts
    each block once (``BlockStatsReader``): make one per page, and a new one when the tree changes.
    """
    block_stats = BlockStatsReader()

    def is_foreign(element: lxml.html.HtmlElement) -> bool:
        tag = element.tag
        if tag == "footer" or tag == "aside" or tag == "nav":
            return True
        names = element.get("class")
        ident = element.get("id")
        if ident:
            names = f"{names or ''} {ident}"
        if not names:
            return False
        kind = _foreign_names(names)
        if kind == _LIST_NAMED:
            return is_link_navigation(block_stats(element), options)
        return kind == _FOREIGN_NAMED
    return is_foreign


class _PageTexts:
    """Texts of one page that several sources read, each read once (one per page and tree).

    The runs after the byline anchor serve the byline and the updated-byline searches; the
    visible text serves the labelled-text search and tells the first-text-date search
    when the page shows no year.
    """

    def __init__(self, root: lxml.html.HtmlElement | None, page: PageMeta, options: ExtractOptions,
                 is_foreign: Callable[[lxml.html.HtmlElement], bool]):
        self.root, self.page, self.options, self.is_foreign = root, page, options, is_foreign
        self._after: list[str] | None = None
        self._visible: str | None = None

    def after_headline(self) -> list[str]:
        """``following_texts`` of the byline anchor outside foreign blocks (none without an anchor)."""
        if self._after is None:
            headline = find_byline_anchor(self.root, self.page, self.options)
            self._after = [] if headline is None else following_texts(
                headline, self.options.date_after_headline_chars, skip=self.is_foreign)
        return self._after

    def visible(self) -> str:
        """The visible body runs joined by newlines, up to ``date_text_scan_chars``."""
        if self._visible is None:
            self._visible = "\n".join(visible_runs(self.root, self.options.date_text_scan_chars))
        return self._visible

    def shows_no_year(self) -> bool:
        """True when the visible text is whole (not cut at the limit) and holds no year.

        Then no part of it holds a date (105 of the 784 pages of ../shared/eval that reach the
        first text date, 2026-11-26). "年" anywhere counts as a year: a run ending in two digits
        and one starting with "年" can meet once the runs between are left out. Eastern digits
        are read as ASCII ones (a year of the text is one of its ASCII reading too).
        """
        text = self.visible()
        whole = len(text) + 1 <= self.options.date_text_scan_chars  # visible_runs' size when it stopped
        return whole and "年" not in text and not _holds_year(_ascii_digits(text))


def _pick_in_runs(runs: list[str], lang: str | None, bounds: _Bounds, options: ExtractOptions,
                  last: bool = False) -> Iterator[FoundDate]:
    """Dates of the byline runs; a long run (prose, caption) counts only when labelled."""
    labelled: list[FoundDate] = []
    plain: list[FoundDate] = []
    for index, run in enumerate(runs):
        context = runs[index - 1][-16:] + "\n" if index else ""
        good, other = _split_dates(run, lang, bounds, prefix=context)
        labelled += good
        if len(run) <= options.date_byline_max_run_chars:
            plain += other
    if last:
        labelled.reverse()
        plain.reverse()
    yield from labelled
    yield from plain


def _split_dates(text: str, lang: str | None, bounds: _Bounds,
                 prefix: str = "") -> tuple[list[FoundDate], list[FoundDate]]:
    """(labelled publish dates, other dates) of a text, in order.

    Dates right after an "updated"/copyright/joined label are dropped, and so
    is everything after a copyright line.
    """
    text = _ascii_digits(text)
    if _has_year(text):
        text = _before_footer(text)
        dates = iter_text_dates(text, lang)
    elif ":" in text and "." in text:
        text = _before_footer(text)
        dates = _short_year_dates(text, lang)
    else:
        return [], []
    labelled: list[FoundDate] = []
    plain: list[FoundDate] = []
    for start, end, found in dates:
        if not bounds.accept(found):
            continue
        context = (prefix + text[:start])[-16:]
        if dp.NOT_PUBLISH_CONTEXT_RE.search(context) or _updated_after(text, start, end, lang):
            continue
        (labelled if dp.PUBLISH_LABEL_RE.search(context) else plain).append(found)
    return labelled, plain


def _short_year_dates(text: str, lang: str | None) -> list[tuple[int, int, FoundDate]]:
    """The "25.04.24 | 14:07" dates of a byline run that holds no four-digit year."""
    found = []
    for match in dp.SHORT_YEAR_DATE_RE.finditer(text):
        date = _build(match.groupdict(), lang)
        if date is not None:
            found.append((match.start(), match.end(), date))
    return found


def _updated_after(text: str, start: int, end: int, lang: str | None) -> bool:
    """True when an update label stands in the date's match or just after it ("2025年1月9日 更新")."""
    return lang in dp.UPDATE_AFTER_DATE_LANGS and \
        dp.UPDATE_AFTER_DATE_RE.search(text, start, end + dp.UPDATE_AFTER_DATE_CHARS) is not None


def _pick_in_text(text: str, lang: str | None, bounds: _Bounds,
                  labelled_only: bool = False) -> Iterator[FoundDate]:
    """Dates of one text: labelled publish dates first, then (unless told not to) the others.

    The same dates as ``_split_dates``, found lazily span by span around the years:
    labelled ones only in spans with a label word, the others until the caller stops.
    """
    text, lowered = _cut_at_footer(text)
    spans = _year_spans(text)
    if not spans:
        return
    found_in: dict[int, list[tuple[int, int, FoundDate]]] = {}

    def kinds(index: int) -> Iterator[tuple[bool, FoundDate]]:
        if index not in found_in:
            found_in[index] = _dates_in_spans(text, [spans[index]], lang)
        for start, end, found in found_in[index]:
            if not bounds.accept(found):
                continue
            context = text[:start][-16:]
            if not dp.NOT_PUBLISH_CONTEXT_RE.search(context) and not _updated_after(text, start, end, lang):
                yield bool(dp.PUBLISH_LABEL_RE.search(context)), found

    labels = _label_starts(text, lowered)
    for index, (span_start, span_end) in enumerate(spans):
        first = bisect.bisect_left(labels, span_start - 16)
        if first < len(labels) and labels[first] < span_end:
            yield from (found for labelled, found in kinds(index) if labelled)
    if not labelled_only:
        for index in range(len(spans)):
            yield from (found for labelled, found in kinds(index) if not labelled)


def _from_date_classes(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: _Bounds,
                       options: ExtractOptions, is_foreign: Callable[[lxml.html.HtmlElement], bool]
                       ) -> Iterator[FoundDate | None]:
    """Byline boxes named date/time/pubtime/info..., outside comments and link lists."""
    headline = find_byline_anchor(root, page, options)
    chosen = {"class": _date_box_names(words_in_values(root, "class", dp.DATE_CLASS_WORDS)),
              "id": _date_box_names(words_in_values(root, "id", dp.DATE_ID_WORDS))}
    seen = 0
    for element in select_attributes(root, chosen):
        seen += 1
        if seen > options.date_max_class_elements:
            return
        if _in_foreign_block(element, headline, is_foreign):
            continue
        text = _leading_text(element, _DATE_BOX_TEXT_CHARS)
        found_in_text = False
        for found in _pick_in_text(text, lang, bounds):
            found_in_text = True
            yield found
        if not found_in_text:
            yield _box_attribute_date(element, lang)


def _leading_text(element: lxml.html.HtmlElement, limit: int) -> str:
    """The first ``limit`` chars of the element's whitespace-collapsed text.

    Reads text nodes only until enough is collected: a date-named box can be a
    wrapper of the whole article.
    """
    pieces: list[str] = []
    size = 0
    for piece in element.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > limit and len(" ".join("".join(pieces).split())) >= limit:
            break
    return " ".join("".join(pieces).split())[:limit]


def _date_box_names(values: set[str]) -> set[str]:
    """The class/id values that name a date or byline box and no comment or related block."""
    kept = set()
    for value in values:
        lowered = value.lower()
        if dp.DATE_CLASS_RE.search(lowered) and not dp.NOT_ARTICLE_CLASS_RE.search(lowered):
            kept.add(value)
    return kept


def _from_labelled_text(texts: _PageTexts, lang: str | None, bounds: _Bounds) -> Iterator[FoundDate]:
    """A date labelled as the publish date anywhere in the page text (bounded).

    Years are found first (one cheap scan) and only the text around each is parsed.
    """
    text, lowered = _cut_at_footer(texts.visible())
    labels = _label_starts(text, lowered)
    if not labels:
        return
    for year_start, year_end in _year_matches(text):
        start = max(0, year_start - _LABEL_REACH_CHARS)
        end = year_end + _LABEL_REACH_CHARS
        first = bisect.bisect_left(labels, start)
        if first == len(labels) or labels[first] >= end:
            continue  # no publish label in this window: it holds no labelled date
        yield from _pick_in_text(text[start:end], lang, bounds, labelled_only=True)


def _label_starts(text: str, lowered: str | None = None) -> list[int]:
    """Start offsets of the publish label words in ``text`` (every offset when lowercasing moved them).

    ``lowered``: ``text.lower()`` when the caller has it.
    """
    if lowered is None:
        lowered = text.lower()
    if len(lowered) != len(text):
        return list(range(len(text)))  # positions differ: every window is searched
    return [m.start() for m in dp.PUBLISH_LABEL_WORD_LOWER_RE.finditer(lowered)]


def _from_first_text_date(root: lxml.html.HtmlElement, lang: str | None, bounds: _Bounds,
                          options: ExtractOptions, texts: _PageTexts) -> Iterator[FoundDate]:
    """The first date of the page text outside links and foreign blocks (old portal pages).

    Its runs are visible runs: when the whole visible text shows no year, they hold no date.
    """
    if texts.shows_no_year():
        return
    text = "\n".join(link_free_runs(root, options.date_text_scan_chars, texts.is_foreign))
    yield from _pick_in_text(text, lang, bounds)


def _from_raw_jsonld(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate | None]:
    """datePublished of JSON-LD blocks that ``read_page_meta`` could not decode."""
    for element in tagged_elements(root, "script"):
        if element.get("type") != "application/ld+json":
            continue
        script = element.text
        match = dp.RAW_JSONLD_PUBLISHED_RE.search(script) if script else None
        if match:
            yield parse_date(match.group("value"), lang)


def _from_scripts(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate | None]:
    """Publish-time variables of inline scripts (WeChat "var ct", "pubtime")."""
    for element in tagged_elements(root, "script"):
        script = element.text if element.get("src") is None else None
        if not script:
            continue
        for match in dp.SCRIPT_VALUE_RE.finditer(script):
            start = match.start()
            if dp.SCRIPT_KEY_BEFORE_RE.search(script[max(0, start - 40):start]):
                yield parse_date(match.group("value"), lang)


def _from_url(url: str | None) -> Iterator[FoundDate | None]:
    if not url:
        return
    for pattern in dp.URL_DATE_PATTERNS:
        for match in pattern.finditer(url):
            yield _build(match.groupdict())
