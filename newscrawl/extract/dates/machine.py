"""Dates a page writes for machines: JSON-LD, meta tags, marked elements and their
attributes, page-script variables, the URL."""
from __future__ import annotations

from typing import Callable, Iterator

import lxml.etree
import lxml.html

from ..dom import parsed_source
from ..fastwalk import compiled
from ..metadata import PageMeta, tagged_elements
from ..named_attributes import select_attributes, words_in_values
from ..options import DEFAULT_OPTIONS, ExtractOptions
from ..title import find_byline_anchor
from . import patterns as dp
from .foreign import in_foreign_block
from .parse import FoundDate, build_date, parse_date

# Elements inside a date-named box (document order) searched for a machine date under the
# box's tooltip: a timestamp link or byline row holds a handful of spans and links (the
# tweet timestamp of htmldate-mediacloud holds its epoch on the first); a box that wraps
# the article is not walked.
_DATE_BOX_INNER_ELEMENTS = 8


def from_jsonld(page: PageMeta, keys: tuple[str, ...], lang: str | None) -> Iterator[FoundDate | None]:
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


def from_meta(page: PageMeta, keys: tuple[str, ...], lang: str | None) -> Iterator[FoundDate | None]:
    for key in keys:
        for value in page.meta.get(key, ()):
            yield parse_date(value, lang)


def from_raw_jsonld(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate | None]:
    """datePublished of JSON-LD blocks that ``read_page_meta`` could not decode."""
    for element in tagged_elements(root, "script"):
        if element.get("type") != "application/ld+json":
            continue
        script = element.text
        match = dp.RAW_JSONLD_PUBLISHED_RE.search(script) if script else None
        if match:
            yield parse_date(match.group("value"), lang)


def from_marked_elements(root: lxml.html.HtmlElement, page: PageMeta,
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


def from_time_elements(root: lxml.html.HtmlElement, page: PageMeta, lang: str | None,
                       is_foreign: Callable[[lxml.html.HtmlElement], bool],
                       options: ExtractOptions = DEFAULT_OPTIONS) -> Iterator[FoundDate | None]:
    """The first ``<time datetime>`` elements outside comments, link lists and footers."""
    times = tagged_elements(root, "time")
    headline = find_byline_anchor(root, page, options)
    for count, element in enumerate(times):
        if count >= 10:
            break
        if element.get("datetime") and not in_foreign_block(element, headline, is_foreign):
            yield _element_date(element, lang)


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


def box_attribute_date(box: lxml.html.HtmlElement, lang: str | None) -> FoundDate | None:
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


def from_scripts(root: lxml.html.HtmlElement, lang: str | None) -> Iterator[FoundDate | None]:
    """Publish-time variables of inline scripts (WeChat "var ct", "pubtime")."""
    for element in tagged_elements(root, "script"):
        script = element.text if element.get("src") is None else None
        if not script:
            continue
        for match in dp.SCRIPT_VALUE_RE.finditer(script):
            start = match.start()
            if dp.SCRIPT_KEY_BEFORE_RE.search(script[max(0, start - 40):start]):
                yield parse_date(match.group("value"), lang)


def from_url(url: str | None) -> Iterator[FoundDate | None]:
    if not url:
        return
    for pattern in dp.URL_DATE_PATTERNS.values():
        for match in pattern.finditer(url):
            yield build_date(match.groupdict())
