"""Site templates learned from similar pages (DEVELOPERS.md "site templates").

Pages of one site whose URLs are alike share the markup before and after the
article. Learning, over c+1 such pages (``template_similar_pages`` = c):

1. split each page into line elements (sourcelines.py: source lines, or one
   element per block-level tag on a minified page);
2. its fuzzy text region is the element with the longest text, among the
   elements not shared by every page (a long footer notice is not the article);
3. intersect, in order, the elements before the region over all pages, and
   the elements after it;
4. the elements of those intersections that occur once on every page, nearest
   the region first, are the first and last markers.

On a page, the template matches when a first marker and a later last marker
each occur exactly once; the HTML between them is the template region.
"""
from __future__ import annotations

import difflib
import json
from collections import Counter
from dataclasses import asdict, dataclass

from .options import ExtractOptions
from .sourcelines import element_text, source_elements

TEMPLATE_FORMAT_VERSION = 1


@dataclass(frozen=True)
class SiteTemplate:
    """First and last markers of a site's article region (serialisable to JSON)."""

    first_markers: tuple[str, ...]   # elements before the article, nearest first
    last_markers: tuple[str, ...]    # elements after the article, nearest first
    url_pattern: str = ""            # longest common substring of the learning pages' URLs
    pages: int = 0                   # pages it was learned from

    def to_dict(self) -> dict:
        data = asdict(self)
        data["first_markers"] = list(self.first_markers)
        data["last_markers"] = list(self.last_markers)
        data["version"] = TEMPLATE_FORMAT_VERSION
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict) -> "SiteTemplate":
        """A template from its dict; ValueError naming the key when the data is not one."""
        if not isinstance(data, dict):
            raise ValueError("a site template is a JSON object")
        if data.get("version") != TEMPLATE_FORMAT_VERSION:
            raise ValueError(f"site template version {data.get('version')!r}, expected {TEMPLATE_FORMAT_VERSION}")
        markers = {}
        for key in ("first_markers", "last_markers"):
            value = data.get(key)
            if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
                raise ValueError(f"site template key {key!r}: expected a non-empty list of strings")
            markers[key] = tuple(value)
        return cls(markers["first_markers"], markers["last_markers"], str(data.get("url_pattern") or ""),
                   int(data.get("pages") or 0))

    @classmethod
    def from_json(cls, text: str) -> "SiteTemplate":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"site template is not JSON: {error}") from None
        return cls.from_dict(data)


# --- URL groups -------------------------------------------------------------

def longest_common_substring(a: str, b: str) -> str:
    match = difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
    return a[match.a:match.a + match.size]


def url_similarity(a: str, b: str) -> float:
    """Length of the longest common substring over the length of the longer URL."""
    if not a or not b:
        return 0.0
    return len(longest_common_substring(a, b)) / max(len(a), len(b))


def group_by_url(urls: list[str | None], options: ExtractOptions) -> list[list[int]]:
    """Indexes of the URLs in groups of alike URLs (each joins the first group it is alike to).

    Pages without a URL form one group of their own.
    """
    groups: list[list[int]] = []
    no_url: list[int] = []
    for i, url in enumerate(urls):
        if not url:
            no_url.append(i)
            continue
        for group in groups:
            if url_similarity(url, urls[group[0]] or "") >= options.template_url_similarity:
                group.append(i)
                break
        else:
            groups.append([i])
    if no_url:
        groups.append(no_url)
    return groups


# --- learning ---------------------------------------------------------------

@dataclass(frozen=True)
class PageElements:
    """One page split into non-empty line elements, with its fuzzy text region."""

    elements: list[str]
    counts: Counter


def split_page(source: str, options: ExtractOptions) -> PageElements:
    elements = [e for e in source_elements(source, options) if e]
    return PageElements(elements, Counter(elements))


def text_region(page: PageElements, shared: set[str]) -> int:
    """Index of the element with the longest text, preferring elements not on every page."""
    best, best_length = -1, -1
    for prefer_unshared in (True, False):
        for i, element in enumerate(page.elements):
            if prefer_unshared and element in shared:
                continue
            length = len(element_text(element))
            if length > best_length:
                best, best_length = i, length
        if best_length > 0:
            return best
    return best


def expand_region(page: PageElements, shared: set[str], center: int, options: ExtractOptions) -> tuple[int, int]:
    """First and last element of the article around ``center``: page-specific elements
    with a paragraph's worth of text, reached over at most ``template_region_gap``
    other elements (an ad box or a picture inside the article does not end it)."""
    gap, minimum = options.template_region_gap, options.template_region_min_chars

    def reach(step: int) -> int:
        edge, i, run = center, center + step, 0
        while 0 <= i < len(page.elements) and run <= gap:
            element = page.elements[i]
            if element not in shared and len(element_text(element)) >= minimum:
                edge, run = i, 0
            else:
                run += 1
            i += step
        return edge
    return reach(-1), reach(1)


def ordered_intersection(sequences: list[list[str]]) -> list[str]:
    """Elements common to all sequences, in their common order (pairwise longest matches)."""
    if not sequences:
        return []
    common = sequences[0]
    for other in sequences[1:]:
        matcher = difflib.SequenceMatcher(None, common, other, autojunk=False)
        common = [e for block in matcher.get_matching_blocks() for e in common[block.a:block.a + block.size]]
    return common


def _unique_markers(candidates, pages: list[PageElements], limit: int) -> tuple[str, ...]:
    markers = []
    for element in candidates:
        if element not in markers and all(page.counts[element] == 1 for page in pages):
            markers.append(element)
            if len(markers) == limit:
                break
    return tuple(markers)


def learn_from(pages: list[PageElements], options: ExtractOptions) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """First and last markers of pages already split (empty tuples when none)."""
    shared = set(pages[0].counts)
    for page in pages[1:]:
        shared &= set(page.counts)
    before, after = [], []
    for page in pages:
        region = text_region(page, shared)
        if region < 0:
            return (), ()
        start, end = expand_region(page, shared, region, options)
        before.append(page.elements[:start])
        after.append(page.elements[end + 1:])
    limit = options.template_max_markers
    first = _unique_markers(reversed(ordered_intersection(before)), pages, limit)
    last = _unique_markers(ordered_intersection(after), pages, limit)
    return first, last


def learn_template(pages: list[tuple[str | None, str]], options: ExtractOptions | None = None
                   ) -> SiteTemplate | None:
    """A template from (url, html) pages of one site; None when they share no markers.

    Uses the largest group of alike URLs; learns from c+1 of its pages at a time
    and keeps the first template that matches at least half of the group.
    """
    options = options or ExtractOptions()
    groups = group_by_url([url for url, _ in pages], options)
    group = max(groups, key=len) if groups else []
    if len(group) < 2:
        return None
    split = [split_page(pages[i][1], options) for i in group]
    size = options.template_similar_pages + 1
    for start in range(0, max(1, len(split) - 1), size):
        window = split[start:start + size]
        if len(window) < 2:
            window = split[-size:]
        first, last = learn_from(window, options)
        if not first or not last:
            continue
        urls = [url for i in group[start:start + size] if (url := pages[i][0])]
        template = SiteTemplate(first, last, _common_url_part(urls), len(window))
        if sum(locate_region(page.elements, template) is not None for page in split) * 2 >= len(split):
            return template
    return None


def _common_url_part(urls: list[str]) -> str:
    if not urls:
        return ""
    common = urls[0]
    for url in urls[1:]:
        common = longest_common_substring(common, url)
    return common


# --- applying ---------------------------------------------------------------

def _unique_position(counts_positions: dict[str, list[int]], markers: tuple[str, ...],
                     after: int = -1) -> int:
    for marker in markers:
        positions = counts_positions.get(marker, ())
        if len(positions) == 1 and positions[0] > after:
            return positions[0]
    return -1


def locate_region(elements: list[str], template: SiteTemplate) -> tuple[int, int] | None:
    """Element range [start, end) between a first and a last marker, or None (no match)."""
    wanted = set(template.first_markers) | set(template.last_markers)
    positions: dict[str, list[int]] = {}
    for i, element in enumerate(elements):
        if element in wanted:
            positions.setdefault(element, []).append(i)
    first = _unique_position(positions, template.first_markers)
    if first < 0:
        return None
    last = _unique_position(positions, template.last_markers, after=first)
    if last < 0:
        return None
    return first + 1, last


def template_region(source: str, template: SiteTemplate, options: ExtractOptions) -> str | None:
    """The page's HTML between the template's markers, or None when the template does not match."""
    elements = [e for e in source_elements(source, options) if e]
    found = locate_region(elements, template)
    if found is None:
        return None
    return "\n".join(elements[found[0]:found[1]])
