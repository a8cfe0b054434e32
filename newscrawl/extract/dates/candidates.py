"""Find the publish date of a page, as an ISO 8601 string: the sources in order and the choice.

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

Each source runs only when reached (``machine``: what a page writes for machines;
``shown``: what it shows its readers).
"""
from __future__ import annotations

import itertools
from datetime import datetime
from typing import Callable, Iterator

import lxml.html

from ..metadata import PageMeta
from ..options import DEFAULT_OPTIONS, ExtractOptions
from . import patterns as dp
from .foreign import foreign_test
from .machine import (from_jsonld, from_marked_elements, from_meta, from_raw_jsonld, from_scripts,
                      from_time_elements, from_url)
from .parse import Bounds, FoundDate, date_bounds
from .shown import (PageTexts, from_byline, from_date_classes, from_first_text_date, from_labelled_text,
                    from_updated_byline, from_wiki_footer)
from .zones import in_page_zone, local_day_of


def find_published(root: lxml.html.HtmlElement | None, page: PageMeta, url: str | None,
                   fetched_at: datetime | None = None,
                   options: ExtractOptions = DEFAULT_OPTIONS) -> str | None:
    """The page's publish date as ISO 8601, or None when no source gives one."""
    bounds = date_bounds(fetched_at, options)
    lang = page.lang
    if root is not None and _is_wiki(page):
        revised = _first_accepted([lambda: from_jsonld(page, dp.JSONLD_MODIFIED_KEYS, lang),
                                   lambda: from_wiki_footer(root, lang)], bounds)
        if revised is not None:
            return revised.iso()
    is_foreign = foreign_test(options)  # one per page: it remembers the blocks it counted
    texts = PageTexts(root, page, options, is_foreign)
    machine: list[Callable[[], Iterator[FoundDate | None]]] = [
        lambda: from_jsonld(page, dp.JSONLD_PUBLISHED_KEYS, lang),
        lambda: from_meta(page, dp.META_PUBLISHED_KEYS, lang),
    ]
    shown: list[Callable[[], Iterator[FoundDate | None]]] = []
    if root is not None:
        machine.append(lambda: from_raw_jsonld(root, lang))
        machine.append(lambda: from_marked_elements(root, page, lang))
        shown += [
            lambda: from_byline(root, page, lang, bounds, options, texts),
            lambda: from_date_classes(root, page, lang, bounds, options, is_foreign),
            lambda: from_labelled_text(texts, lang, bounds),
        ]
    late: list[Callable[[], Iterator[FoundDate | None]]] = []
    if root is not None:
        late.append(lambda: from_scripts(root, lang))
    late += [
        lambda: from_url(url),
        lambda: from_jsonld(page, dp.JSONLD_MODIFIED_KEYS, lang),
        lambda: from_meta(page, dp.META_MODIFIED_KEYS, lang),
    ]
    if root is not None:
        late.append(lambda: from_first_text_date(root, lang, bounds, options, texts))
    late.append(lambda: from_url(page.first("og:image", "twitter:image")))
    if root is not None:
        late.append(lambda: from_updated_byline(root, page, lang, bounds, texts))

    machine_dates = _accepted(machine, bounds)
    found = next(machine_dates, None)
    if found is None and root is not None:
        # No publisher statement: the page's <time datetime> elements are machine dates too
        # (they may be a related story's, so they never overrule a statement).
        machine_dates = _accepted([lambda: from_time_elements(root, page, lang, is_foreign, options)],
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
                local = _first_accepted([lambda: from_scripts(root, lang)], bounds)
            found = local_day_of(found, local)
            if local is None and root is not None:
                found = in_page_zone(found, root, page)
        return found.iso()
    found = _first_accepted(shown + late, bounds)
    return found.iso() if found is not None else None


def _accepted(sources: list[Callable[[], Iterator[FoundDate | None]]],
              bounds: Bounds) -> Iterator[FoundDate]:
    """The plausible dates of the sources, in order, each source run only when reached."""
    for source in sources:
        for found in source():
            if bounds.accept(found):
                yield found


def _first_accepted(sources: list[Callable[[], Iterator[FoundDate | None]]],
                    bounds: Bounds) -> FoundDate | None:
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


def _is_wiki(page: PageMeta) -> bool:
    """True for a page made by a wiki engine (its generator meta)."""
    generator = (page.first("generator") or "").lower()
    return generator.startswith(dp.WIKI_GENERATORS)
