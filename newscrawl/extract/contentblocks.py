"""Content blocks (VIPS-like): remove navigation and form blocks before scoring.

The page is split into content blocks bottom-up: text and inline elements merge
into the block-level element that holds them, and a block-level parent absorbs
its children while they are of the same kind (a <ul> of navigation <li>s is one
navigation block; a <div> of paragraphs one text block). Each block is
classified by the anchor rules of blocks.py (link navigation) or as a form
block (it holds a text field or a text area and little prose). The largest
navigation and form blocks are removed, then the density core scores what is
left. Run before ``clean_tree``, which strips the form fields this needs.
Option ``content_blocks`` (off by default: see options.py).
"""
from __future__ import annotations

import lxml.etree

from .blocks import has_prose, is_link_navigation
from .density import NodeStats, count_punctuation
from .options import ExtractOptions
from .patterns import BLOCK_LEVEL_TAGS

NAVIGATION, FORM, TEXT = "navigation", "form", "text"
# Tags whose text is code, not page text.
_CODE_TAGS = frozenset({"script", "style", "noscript", "template"})
# Elements never removed as a block: they hold the page or the article.
_KEPT_TAGS = frozenset({"html", "body", "article", "main", "head"})
_TEXT_INPUT_TYPES = frozenset({"", "text", "search", "email", "password", "tel", "url"})


def _is_text_field(element) -> bool:
    if element.tag == "textarea":
        return True
    return element.tag == "input" and (element.get("type") or "").lower() in _TEXT_INPUT_TYPES


class _Counts:
    """Per-element counts of the anchor rules, in one reverse document-order pass."""

    def __init__(self, root):
        self.elements = list(root.iter(lxml.etree.Element))
        size = len(self.elements)
        # id() of each element -> its place; valid while ``elements`` holds the proxies
        self.index = index = dict(zip(map(id, self.elements), range(size)))
        self.text, self.link_text, self.tags, self.links = [0] * size, [0] * size, [0] * size, [0] * size
        self.punct, self.longest = [0] * size, [0] * size
        self.parents = [-1] * size   # index of each element's parent (-1: the root)
        # One loop with the lists in locals, no method call per element: the date search
        # counts every block named like a list this way (dates.foreign.foreign_test). The form-field
        # and <h1> counts of find_noise_blocks have a pass of their own (fields_and_h1), and
        # max() is written as comparisons: the block counts 0.10 -> 0.065 ms a page of steps6's 350
        # pages of ../shared/eval (old and new interleaved on the same blocks, 3 runs, 2026-11-22).
        text, link_text, tags, links = self.text, self.link_text, self.tags, self.links
        punct, longest, parents = self.punct, self.longest, self.parents
        elements = self.elements
        for i in range(size - 1, -1, -1):
            element = elements[i]
            tag = element.tag
            if tag not in _CODE_TAGS:
                own = element.text
                if own and (own := own.strip()):
                    n = len(own)
                    text[i] += n
                    punct[i] += count_punctuation(own)
                    if n > longest[i]:
                        longest[i] = n
            is_link = tag == "a"
            if is_link:
                link_text[i], punct[i], longest[i] = text[i], 0, 0
            parent = element.getparent()
            if parent is None or element is root:
                continue
            p = parents[i] = index[id(parent)]
            text[p] += text[i]
            link_text[p] += link_text[i]
            tags[p] += tags[i] + 1
            links[p] += links[i] + is_link
            punct[p] += punct[i]
            if longest[i] > longest[p]:
                longest[p] = longest[i]
            tail = element.tail
            if tail and (tail := tail.strip()):
                n = len(tail)
                text[p] += n
                punct[p] += count_punctuation(tail)
                if n > longest[p]:
                    longest[p] = n

    def stats(self, i: int) -> NodeStats:
        return NodeStats(self.text[i], self.link_text[i], self.tags[i], self.links[i], self.punct[i], 0,
                         self.longest[i])

    def fields_and_h1(self) -> tuple[list[int], list[bool]]:
        """Text fields in each element, and whether it holds an <h1> (itself included)."""
        size = len(self.elements)
        fields, has_h1 = [0] * size, [False] * size
        for i in range(size - 1, -1, -1):
            element = self.elements[i]
            fields[i] += _is_text_field(element)
            has_h1[i] = has_h1[i] or element.tag == "h1"
            p = self.parents[i]
            if p >= 0:
                fields[p] += fields[i]
                has_h1[p] = has_h1[p] or has_h1[i]
        return fields, has_h1


class BlockStatsReader:
    """The anchor-rule counts of blocks (an element and everything inside it) of one tree
    that does not change meanwhile.

    The counts of a block hold those of every block inside it: a block inside one counted
    before (or counted again) is read from those counts. The date search asks for list-named
    blocks in several walks, and for the lists inside lists (a list of ~500 elements and its
    one item counted 3 times each on a page of ../shared/eval, 2026-11-22).
    """

    def __init__(self):
        self._counted: list[_Counts] = []

    def __call__(self, element) -> NodeStats:
        for counts in self._counted:
            index = counts.index.get(id(element))
            if index is not None:
                return counts.stats(index)
        counts = _Counts(element)
        self._counted.append(counts)
        return counts.stats(0)


def classify_block(stats: NodeStats, text_fields: int, options: ExtractOptions) -> str:
    """navigation, form or text, by the anchor/form rules (DEVELOPERS.md)."""
    if text_fields and not has_prose(stats, options):
        return FORM
    if is_link_navigation(stats, options):
        return NAVIGATION
    return TEXT


def find_noise_blocks(root, options: ExtractOptions) -> list:
    """The largest navigation and form blocks: of that kind, inside no block of the same kind.

    Document order visits a parent before its children, so the kind of block each
    element sits in is known when it is reached.
    """
    counts = _Counts(root)
    fields, has_h1 = counts.fields_and_h1()
    inside: dict[int, str] = {}
    noise = []
    for i, element in enumerate(counts.elements):
        parent = element.getparent()
        around = inside.get(id(parent), TEXT) if parent is not None else TEXT
        kind = TEXT
        if element.tag in BLOCK_LEVEL_TAGS and element.tag not in _KEPT_TAGS and not has_h1[i]:
            kind = classify_block(counts.stats(i), fields[i], options)
        if kind != TEXT and kind != around:
            noise.append(element)
        inside[id(element)] = kind if kind != TEXT else around
    return noise


def remove_noise_blocks(root, options: ExtractOptions) -> int:
    """Remove navigation and form blocks in place; the number removed."""
    doomed = find_noise_blocks(root, options)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
    return len(doomed)
