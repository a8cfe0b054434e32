"""Text density and symbol density of every element, in one iterative pass.

Definitions (DEVELOPERS.md, "text + symbol density"), for element i:

    T    characters of text in i's subtree (whitespace at the ends of each text node ignored)
    LT   characters of text inside <a> elements of the subtree
    TG   number of descendant elements
    LTG  number of descendant <a> elements
    Sb   punctuation marks (ASCII and CJK) in the non-link text
    PNum number of descendant <p> elements

    TD    = (T - LT) / (TG - LTG)          (denominator taken as 1 when it is 0 or less)
    SbD   = (T - LT) / (Sb + 1)
    SD    = standard deviation of TD over all elements
    score = log(SD) * TD * log10(PNum + 2) * log(SbD)

Logs are guarded: a log argument below e counts as e (log = 1), so a page with a
tiny SD, or a node with a high punctuation share, never flips the sign of a score.

The pass walks ``list(root.iter())`` backwards: every descendant comes before its
ancestor, so each element adds its finished totals to its parent's slot. No
recursion: a page nested 100,000 deep costs the same as a flat one.
"""
from __future__ import annotations

import math
import re
from typing import NamedTuple

import lxml.etree

from .fastwalk import compiled
from .patterns import CONTAINER_TAGS, PUNCTUATION

# The ASCII marks as bytes, and every mark in one character class (see count_punctuation).
_ASCII_PUNCTUATION = "".join(sorted(mark for mark in PUNCTUATION if mark.isascii())).encode("ascii")
_PUNCTUATION_RE = re.compile("[" + re.escape("".join(sorted(PUNCTUATION))) + "]")


def count_punctuation(text: str) -> int:
    """Punctuation marks in the text: bytes.translate on ASCII text, else the regex.

    Both are ~4x faster than str.translate, which looks every character up in a dict.
    """
    if text.isascii():
        data = text.encode("ascii")
        return len(data) - len(data.translate(None, _ASCII_PUNCTUATION))
    return len(_PUNCTUATION_RE.findall(text))


def guarded_log(value: float) -> float:
    """Natural log, taken as 1 for arguments below e (the formula's guard)."""
    return math.log(value) if value > math.e else 1.0


class NodeStats(NamedTuple):
    """The counts of one element (see the module docstring for the names).

    A NamedTuple, immutable like a frozen dataclass and made 4x faster (the content rules
    make one per block they test).
    """

    text_chars: int          # T
    link_chars: int          # LT
    tags: int                # TG
    link_tags: int           # LTG
    punctuation: int         # Sb
    paragraphs: int          # PNum
    longest_plain_run: int   # longest text node outside links, in chars

    @property
    def plain_chars(self) -> int:
        return self.text_chars - self.link_chars

    @property
    def text_density(self) -> float:
        return self.plain_chars / max(self.tags - self.link_tags, 1)

    @property
    def symbol_density(self) -> float:
        return self.plain_chars / (self.punctuation + 1)

    @property
    def link_density(self) -> float:
        return self.link_chars / self.text_chars if self.text_chars else 0.0


class DensityTable:
    """Counts of every element of a tree, indexed by document order."""

    def __init__(self, root: lxml.etree._Element, use_compiled: bool = True):
        self._sd: float | None = None
        counts = compiled.density_counts(root, CONTAINER_TAGS) if compiled is not None and use_compiled else None
        # The counts in C, for the score pass (``candidate_scores``); None without the compiled walks.
        self.compiled_counts = None
        if counts is not None:   # the same lists, counted in C (fastwalk.py)
            (self.elements, self.tag_names, self.text, self.link_text, self.tags, self.link_tags,
             self.punctuation, self.paragraphs, self.longest_run, self.compiled_counts) = counts
            self._index_elements()
        else:
            self._count_in_python(root)

    def _index_elements(self) -> None:
        # Keyed by id(): the list keeps every proxy alive (so ids stay unique) and is
        # the only owner, freed last-to-first, deepest first. Proxies freed ancestors
        # first cost O(depth) each in lxml: minutes on a 100,000-deep page.
        self.position = dict(zip(map(id, self.elements), range(len(self.elements))))

    def _count_in_python(self, root) -> None:
        """The counts, walking the proxies (the reference for ``_fastwalk.density_counts``)."""
        self.elements = list(root.iter(lxml.etree.Element))
        self._index_elements()   # the pass below finds each parent's slot by it
        size = len(self.elements)
        self.text = [0] * size
        self.link_text = [0] * size
        self.tags = [0] * size
        self.link_tags = [0] * size
        self.punctuation = [0] * size
        self.paragraphs = [0] * size
        self.longest_run = [0] * size
        # Each element's tag, read once here: every read of ``element.tag`` builds a new str.
        self.tag_names = [""] * size
        self._count(root)

    def _count(self, root) -> None:
        text, link_text, tags, link_tags = self.text, self.link_text, self.tags, self.link_tags
        punct, paragraphs, longest = self.punctuation, self.paragraphs, self.longest_run
        position, tag_names, elements = self.position, self.tag_names, self.elements
        for i in range(len(elements) - 1, -1, -1):
            element = elements[i]
            tag = tag_names[i] = element.tag
            is_link = tag == "a"
            own = element.text
            if own:
                own = own.strip()
                if own:
                    n = len(own)
                    text[i] += n
                    if not is_link:   # a link's punctuation and longest run are zeroed below
                        punct[i] += count_punctuation(own)
                        if n > longest[i]:
                            longest[i] = n
            if is_link:
                link_text[i] = text[i]
                punct[i] = 0
                longest[i] = 0
            if element is root:
                continue
            parent = element.getparent()
            if parent is None:
                continue
            p = position[id(parent)]
            text[p] += text[i]
            link_text[p] += link_text[i]
            tags[p] += tags[i] + 1
            link_tags[p] += link_tags[i] + is_link
            punct[p] += punct[i]
            paragraphs[p] += paragraphs[i] + (tag == "p")
            if longest[i] > longest[p]:
                longest[p] = longest[i]
            tail = element.tail
            if tail:
                tail = tail.strip()
                if tail:
                    n = len(tail)
                    text[p] += n
                    punct[p] += count_punctuation(tail)
                    if n > longest[p]:
                        longest[p] = n

    def stats(self, i: int) -> NodeStats:
        return NodeStats(self.text[i], self.link_text[i], self.tags[i], self.link_tags[i],
                         self.punctuation[i], self.paragraphs[i], self.longest_run[i])

    def index_of(self, element) -> int:
        return self.position[id(element)]

    def find(self, element) -> int | None:
        """Index of an element of the tree, None for one added after the pass."""
        return self.position.get(id(element))

    def text_density(self, i: int) -> float:
        return (self.text[i] - self.link_text[i]) / max(self.tags[i] - self.link_tags[i], 1)

    def standard_deviation(self) -> float:
        """SD: the standard deviation of TD over all elements (computed once)."""
        if self._sd is None and self.compiled_counts is not None:
            self._sd = self.compiled_counts.standard_deviation()   # the same float operations, in C
        if self._sd is None:
            n = len(self.elements)
            if n < 2:
                self._sd = 0.0
            else:
                # TD of every element; a conditional, not max(), and a list, not a generator:
                # 0.15 -> 0.09 ms on 700 elements, the same floats summed in the same order.
                values = [(t - lt) / (tg - ltg if tg - ltg > 1 else 1) for t, lt, tg, ltg
                          in zip(self.text, self.link_text, self.tags, self.link_tags)]
                mean = sum(values) / n
                self._sd = math.sqrt(max(sum([v * v for v in values]) / n - mean * mean, 0.0))
        return self._sd

    def score(self, i: int, log_sd: float) -> float:
        """score = log(SD) * TD * log10(PNum + 2) * log(SbD)."""
        plain = self.text[i] - self.link_text[i]
        if plain <= 0:
            return 0.0
        text_density = plain / max(self.tags[i] - self.link_tags[i], 1)
        symbol_density = plain / (self.punctuation[i] + 1)
        return log_sd * text_density * math.log10(self.paragraphs[i] + 2) * guarded_log(symbol_density)
