"""The day of a date given in UTC: the day the page shows, or the day in the site's own zone."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Iterator

import lxml.html

from ..metadata import PageMeta, tagged_elements
from . import patterns as dp
from .parse import FoundDate, parse_date, zone_offset

# A zoned time of the page tells its zone when it lies this near the UTC machine moment
# (hours): times of the same day share the site's offset, daylight saving included.
_PAGE_ZONE_REACH_HOURS = 24


def local_day_of(utc: FoundDate, shown: FoundDate | None) -> FoundDate:
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


def in_page_zone(utc: FoundDate, root: lxml.html.HtmlElement, page: PageMeta) -> FoundDate:
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
    local = moment + zone_offset(zone)
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
    return found.naive() - zone_offset(found.zone or "+00:00")
