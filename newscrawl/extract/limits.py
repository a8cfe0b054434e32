"""Bounds that keep ``extract`` finite on hostile pages (the limits in ExtractOptions' "input guards").

Each guard is cheap next to the step it protects: a scan for long tags before parsing, an
element count that stops at the limit, a clock read between steps.
"""
from __future__ import annotations

import re
import time
from itertools import islice

from .fastwalk import compiled

# A start tag longer than this (chars) is looked at for its attribute count; shorter tags cannot
# hold max_attributes_per_element attributes worth worrying about.
LONG_TAG_CHARS = 4096
_LONG_TAG_RE = re.compile(r"<[A-Za-z][^<>]{%d,}" % LONG_TAG_CHARS)
# Slices of the page checked for "<" and ">" before that regex runs: any run of LONG_TAG_CHARS
# chars holds one whole slice of half that length (aligned on its multiples).
_SLICE_CHARS = LONG_TAG_CHARS // 2


# The tag name after "<", and one attribute: a name (HTML's attribute-name characters) and its
# value if any, quoted or not (HTML's tokenizer). A quoted value counts once however many words,
# "=" or spaces it holds: an SVG path's d, a JSON data-* value, a long srcset.
_TAG_NAME_RE = re.compile(r"<[^\s/>]*")
_ATTRIBUTE_RE = re.compile(r"""[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]*))?""")


def too_many_attributes(text: str, max_attributes: int) -> bool:
    """True when one start tag holds more than ``max_attributes`` attributes (libxml2 is quadratic there).

    Attributes are counted as HTML's tokenizer reads them, up to one more than the limit (a tag of
    a million attributes costs no more than one of ``max_attributes``)."""
    for start in _long_tag_starts(text):
        tag = _LONG_TAG_RE.match(text, start)
        if tag is not None and count_attributes(tag.group(), max_attributes + 1) > max_attributes:
            return True
    return False


def count_attributes(tag: str, limit: int) -> int:
    """The attributes of a start tag's text (from its "<", possibly cut off), counted up to ``limit``."""
    count = 0
    name = _TAG_NAME_RE.match(tag)
    for _ in _ATTRIBUTE_RE.finditer(tag, name.end() if name else 0):
        count += 1
        if count >= limit:
            break
    return count


def _long_tag_starts(text: str) -> list[int]:
    """Where ``_LONG_TAG_RE`` can match: the last "<" before each slice holding no "<" or ">".

    A long tag is a run of more than LONG_TAG_CHARS chars free of "<" and ">" after its "<",
    so it holds such a slice and starts at the last "<" before it. Real pages have few such
    slices (long texts and scripts): ~40 ``str.find`` calls on a page of 80,000 chars instead of
    the regex stepping through every tag (0.3 ms a page of ../shared/eval, 2026-11-22).
    """
    starts: list[int] = []
    previous_clean = False   # the slice before held no "<" or ">": the same tag goes on
    for start in range(0, len(text) - _SLICE_CHARS + 1, _SLICE_CHARS):
        end = start + _SLICE_CHARS
        if text.find("<", start, end) < 0 and text.find(">", start, end) < 0:
            if not previous_clean:   # one search back per run of slices, not one per slice
                tag_start = text.rfind("<", 0, start)
                if tag_start >= 0 and (not starts or starts[-1] != tag_start):
                    starts.append(tag_start)
            previous_clean = True
        else:
            previous_clean = False
    return starts


def elements_within(root, max_elements: int) -> list | None:
    """What ``extract`` holds until the page is done; None when the tree has more than
    ``max_elements`` nodes (``root.iter()``'s, counted no further than the limit).

    Pure Python: the nodes of ``root.iter()`` in document order. With a proxy alive for every
    element, the later walks (metadata, dates, cleaning, density) reuse it instead of making
    and freeing one per element each time; the list frees them last to first, deepest first
    (see DensityTable). With the compiled walks (fastwalk.py) most of those walks make no
    proxies, so the nodes are only counted, in C, and nothing is held: extract() 1.9% faster
    than holding them (in-process A/B over the 2,584 eval pages, 2 rounds, 2026-11-26).
    """
    if compiled is not None:
        return [] if compiled.count_nodes(root, max_elements) <= max_elements else None
    nodes = list(islice(root.iter(), max_elements + 1))
    return nodes if len(nodes) <= max_elements else None


class Deadline:
    """Seconds left for one page; ``passed()`` is read at step boundaries."""

    def __init__(self, seconds: float):
        self.ends = time.monotonic() + seconds

    def passed(self) -> bool:
        return time.monotonic() > self.ends
