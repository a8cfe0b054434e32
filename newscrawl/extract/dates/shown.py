"""Dates a page shows its readers: the byline by the headline, date-named boxes, a date
labelled as the publish date in the text, the first date of the text, an "updated" stamp.

Every search is bounded and shares per-tree work: class/id values are read once
(``named_attributes``), the headline is found once (``title``), the byline windows are
walked only as far as they are read, and page text (at most ``date_text_scan_chars``) is
searched only around its years, span by span, labelled spans first. Dates after a
copyright line, or right after an "updated"/copyright/joined label, are not publish dates.
"""
from __future__ import annotations

import bisect
from typing import Callable, Iterator

import lxml.html

from ..metadata import PageMeta
from ..named_attributes import select_attributes, words_in_values
from ..options import ExtractOptions
from ..page_texts import link_free_runs, visible_runs
from ..title import find_byline_anchor, following_texts, preceding_texts, visible_text
from . import patterns as dp
from .foreign import in_foreign_block
from .machine import box_attribute_date
from .parse import (Bounds, FoundDate, ascii_digits, dates_in_spans, has_year, holds_year, iter_text_dates,
                    short_year_dates, year_matches, year_spans)

# Characters around a year searched for its date and the publish label before it.
_LABEL_REACH_CHARS = 48
# Characters of a date-named box's text searched for its date.
_DATE_BOX_TEXT_CHARS = 300


class PageTexts:
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
        return whole and "年" not in text and not holds_year(ascii_digits(text))


def from_byline(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: Bounds,
                options: ExtractOptions, texts: PageTexts) -> Iterator[FoundDate | None]:
    """The date next to the headline: a labelled one first, else the first one after it."""
    headline = find_byline_anchor(root, page, options)
    if headline is None:
        return
    inside, _ = _split_dates(visible_text(headline), lang, bounds)
    yield from inside
    yield from _pick_in_runs(texts.after_headline(), lang, bounds, options)
    before = preceding_texts(headline, options.date_before_headline_chars, skip=texts.is_foreign)[::-1]
    yield from _pick_in_runs(before, lang, bounds, options, last=True)


def _pick_in_runs(runs: list[str], lang: str | None, bounds: Bounds, options: ExtractOptions,
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


def _split_dates(text: str, lang: str | None, bounds: Bounds,
                 prefix: str = "") -> tuple[list[FoundDate], list[FoundDate]]:
    """(labelled publish dates, other dates) of a text, in order.

    Dates right after an "updated"/copyright/joined label are dropped, and so
    is everything after a copyright line.
    """
    text = ascii_digits(text)
    if has_year(text):
        text = before_footer(text)
        dates = iter_text_dates(text, lang)
    elif ":" in text and "." in text:
        text = before_footer(text)
        dates = short_year_dates(text, lang)
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


def _updated_after(text: str, start: int, end: int, lang: str | None) -> bool:
    """True when an update label stands in the date's match or just after it ("2025年1月9日 更新")."""
    return lang in dp.UPDATE_AFTER_DATE_LANGS and \
        dp.UPDATE_AFTER_DATE_RE.search(text, start, end + dp.UPDATE_AFTER_DATE_CHARS) is not None


def from_updated_byline(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: Bounds,
                        texts: PageTexts) -> Iterator[FoundDate]:
    """A date shown as updated next to the headline: the last resort, as dateModified is."""
    headline = find_byline_anchor(root, page, texts.options)
    if headline is None:
        return
    runs = texts.after_headline()
    for index, run in enumerate(runs):
        prefix = runs[index - 1][-16:] + "\n" if index else ""
        text = before_footer(run)
        for start, _end, found in iter_text_dates(text, lang):
            if bounds.accept(found) and dp.UPDATE_CONTEXT_RE.search((prefix + text[:start])[-16:]):
                yield found


def from_date_classes(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None, bounds: Bounds,
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
        if in_foreign_block(element, headline, is_foreign):
            continue
        text = _leading_text(element, _DATE_BOX_TEXT_CHARS)
        found_in_text = False
        for found in _pick_in_text(text, lang, bounds):
            found_in_text = True
            yield found
        if not found_in_text:
            yield box_attribute_date(element, lang)


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


def from_labelled_text(texts: PageTexts, lang: str | None, bounds: Bounds) -> Iterator[FoundDate]:
    """A date labelled as the publish date anywhere in the page text (bounded).

    Years are found first (one cheap scan) and only the text around each is parsed.
    """
    text, lowered = cut_at_footer(texts.visible())
    labels = _label_starts(text, lowered)
    if not labels:
        return
    for year_start, year_end in year_matches(text):
        start = max(0, year_start - _LABEL_REACH_CHARS)
        end = year_end + _LABEL_REACH_CHARS
        first = bisect.bisect_left(labels, start)
        if first == len(labels) or labels[first] >= end:
            continue  # no publish label in this window: it holds no labelled date
        yield from _pick_in_text(text[start:end], lang, bounds, labelled_only=True)


def _pick_in_text(text: str, lang: str | None, bounds: Bounds,
                  labelled_only: bool = False) -> Iterator[FoundDate]:
    """Dates of one text: labelled publish dates first, then (unless told not to) the others.

    The same dates as ``_split_dates``, found lazily span by span around the years:
    labelled ones only in spans with a label word, the others until the caller stops.
    """
    text, lowered = cut_at_footer(text)
    spans = year_spans(text)
    if not spans:
        return
    found_in: dict[int, list[tuple[int, int, FoundDate]]] = {}

    def kinds(index: int) -> Iterator[tuple[bool, FoundDate]]:
        if index not in found_in:
            found_in[index] = dates_in_spans(text, [spans[index]], lang)
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


def _label_starts(text: str, lowered: str | None = None) -> list[int]:
    """Start offsets of the publish label words in ``text`` (every offset when lowercasing moved them).

    ``lowered``: ``text.lower()`` when the caller has it.
    """
    if lowered is None:
        lowered = text.lower()
    if len(lowered) != len(text):
        return list(range(len(text)))  # positions differ: every window is searched
    return [m.start() for m in dp.PUBLISH_LABEL_WORD_LOWER_RE.finditer(lowered)]


def from_first_text_date(root: lxml.html.HtmlElement, lang: str | None, bounds: Bounds,
                         options: ExtractOptions, texts: PageTexts) -> Iterator[FoundDate]:
    """The first date of the page text outside links and foreign blocks (old portal pages).

    Its runs are visible runs: when the whole visible text shows no year, they hold no date.
    """
    if texts.shows_no_year():
        return
    text = "\n".join(link_free_runs(root, options.date_text_scan_chars, texts.is_foreign))
    yield from _pick_in_text(text, lang, bounds)


def from_wiki_footer(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate]:
    """The date of MediaWiki's "This page was last edited on ..." footer line."""
    footer = root.get_element_by_id(dp.WIKI_LASTMOD_ID, None)
    if footer is not None:
        for _start, _end, found in iter_text_dates(ascii_digits(footer.text_content()), lang):
            yield found


def before_footer(text: str) -> str:
    """The text up to its copyright/ICP footer (all of it when there is none)."""
    return cut_at_footer(text)[0]


def cut_at_footer(text: str) -> tuple[str, str | None]:
    """``before_footer`` and the lowercased cut text (None when lowercasing moved positions).

    Arabic-Indic and Persian digits come back as ASCII ones (``ascii_digits``). The
    lowercased text serves ``_label_starts`` too: one ``lower()`` of a long text, not two.
    """
    text = ascii_digits(text)
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
