"""Class and id names as evidence: how strongly a name says "boilerplate", weighed against what
the named block holds.

A name is written by a page builder or a design system for its own reasons: Elementor wraps every
block in ``elementor-widget-container``, a BEM grid calls its main column
``sidebar-grid__container``, a magazine marks every paragraph of a story served in full
``paywall``. So a block named like boilerplate (dom.clean_tree's rule) is removed before the
density pass only when its own counts agree: little of the page's prose, few paragraphs, or many
links. A named block that holds prose is kept as a *suspect*: the density pass weighs it down
(content.find_best_node) and, inside the chosen article, it goes unless it is a large part of it
(content.drop_named_boxes). The strength of the name sets how much prose outweighs it
(``NameStrength``).
"""
from __future__ import annotations

import functools
import re
from enum import IntEnum
from typing import NamedTuple

from .density import subtree_counts
from .options import ExtractOptions
from .patterns import (COMMENT_BLOCK_RE, INLINE_NAMED_TAGS, LAYOUT_HEAD_WORDS, LIKELY_BLOCK_ASCII_RE,
                       LIKELY_BLOCK_RE, PAGE_BUILDER_CLASS_RE, UNLIKELY_BLOCK_ASCII_RE, UNLIKELY_BLOCK_RE)


class NameStrength(IntEnum):
    """How strongly a class/id string names boilerplate."""
    PART = 1       # only inside compound names: a BEM modifier, a page builder's or layout box's name
    WHOLE = 2      # a whole token names it ("sidebar", "related-posts", "share-buttons")
    COMMENTS = 3   # reader comments: never the article, whatever they hold


_WORD_SEPARATORS_RE = re.compile(r"[-_]+")


@functools.lru_cache(maxsize=8192)   # pages repeat their names
def name_strength(classes: str, ident: str) -> NameStrength:
    """The strength of the boilerplate name of an element (one dom.clean_tree judged named).

    A token counts only if it names boilerplate alone (``token_names_boilerplate``); it is a part
    (``token_names_part``) when the word sits inside a compound name. The names of an element
    that no token names alone (the words only meet across tokens) are a part too.
    """
    names = f"{classes} {ident}"
    if COMMENT_BLOCK_RE.search(names):
        return NameStrength.COMMENTS
    for token in names.lower().split():
        if token_names_boilerplate(token) and not token_names_part(token):
            return NameStrength.WHOLE
    return NameStrength.PART


@functools.lru_cache(maxsize=16384)   # tokens repeat across pages far more than whole class strings
def token_names_boilerplate(token: str) -> bool:
    """Does a lowercased class/id token name boilerplate alone (UNLIKELY_BLOCK_RE, not LIKELY_BLOCK_RE)?
    An ASCII token is searched with the patterns' lowercase twins (patterns.ascii_lowercase_twin)."""
    if token.isascii():
        return UNLIKELY_BLOCK_ASCII_RE.search(f" {token}") is not None and LIKELY_BLOCK_ASCII_RE.search(token) is None
    return UNLIKELY_BLOCK_RE.search(f" {token}") is not None and LIKELY_BLOCK_RE.search(token) is None


def token_names_part(token: str) -> bool:
    """Is a lowercased class token naming boilerplate only as part of a compound name?

    - a page builder's or a CSS utility's class (PAGE_BUILDER_CLASS_RE: ``elementor-widget-container``,
      ``wp-block-...``, ``md:basis-1/3``, ``c-layout@lg``);
    - the word only in a BEM modifier (``TestReport__Section--Ads``, ``o-section--has-ads``);
    - a BEM block (the part before ``__``) whose last word is a layout box (LAYOUT_HEAD_WORDS:
      ``sidebar-grid__container`` is a grid, ``share-zone`` a zone, ``c-fixed-sidebar-layout`` a layout).
    A BEM element inherits its block's name: ``share__tool`` is a whole "share".
    """
    if PAGE_BUILDER_CLASS_RE.search(token):
        return True
    if "--" in token:
        token = token.split("--", 1)[0]
        if not UNLIKELY_BLOCK_RE.search(f" {token}"):
            return True
    words = [word for word in _WORD_SEPARATORS_RE.split(token.split("__", 1)[0]) if word]
    return len(words) > 1 and words[-1] in LAYOUT_HEAD_WORDS


class NamedVerdicts(NamedTuple):
    doomed: list     # named blocks whose counts agree with their name: removed before the density pass
    suspects: list   # named blocks kept for the prose they hold


def judge_named_blocks(root, named: list, options: ExtractOptions) -> NamedVerdicts:
    """Weigh each named block's name against its counts (``subtree_counts``, on the tree as it is).

    A block is kept as a suspect when it holds prose: at most ``name_keep_max_link_density`` of
    its text in links, and a share of the page's non-link text and a number of paragraphs of at
    least the minimum for its name's strength (options ``name_keep_*``). Blocks of one name
    (``name_key``) are judged together: a story whose every paragraph is named "paywall" holds
    the page's prose in them all. An inline element inside a sentence (a "tag-link" keyword link)
    is a word of the text: kept. Comment sections keep the old rule: removed.
    """
    if not named:
        return NamedVerdicts([], [])
    body = next(root.iterchildren("body"), root)
    *counts, body_counts = subtree_counts(root, [*named, body])
    page_plain = max(body_counts.text_chars - body_counts.link_chars, 1) if body_counts is not None else 1
    judged = []
    for element, element_counts in zip(named, counts):
        if element_counts is None:   # not in the tree any more
            continue
        tag = element.tag
        if tag in INLINE_NAMED_TAGS and _inside_sentence(element):
            continue
        classes, ident = element.get("class") or "", element.get("id") or ""
        judged.append((element_counts, element, name_key_of(tag, classes, ident), name_strength(classes, ident)))
    groups = _group_counts(judged)
    doomed, suspects = [], []
    for _, element, key, strength in judged:
        if strength is not NameStrength.COMMENTS and _holds_prose(groups[key], strength, page_plain, options):
            suspects.append(element)
        else:
            doomed.append(element)
    return NamedVerdicts(doomed, suspects)


def name_key(element) -> tuple:
    """Blocks of one name: the same tag, named by the same boilerplate tokens (``<p class="paywall">``
    and ``<p class="paywall has-dropcap">`` are one name)."""
    return name_key_of(element.tag, element.get("class") or "", element.get("id") or "")


def name_key_of(tag, classes: str, ident: str) -> tuple:
    """``name_key`` from a tag and its class and id values already read."""
    return tag, boilerplate_tokens(classes, ident)


@functools.lru_cache(maxsize=8192)
def boilerplate_tokens(classes: str, ident: str) -> frozenset:
    """The class and id tokens that name boilerplate alone (lowercased); all of them when none
    does (the words meet across tokens)."""
    tokens = f"{classes} {ident}".lower().split()
    named = frozenset(token for token in tokens if token_names_boilerplate(token))
    return named or frozenset(tokens)


class _Counts(NamedTuple):
    plain: int
    text: int
    link: int
    paragraphs: int


def _group_counts(judged: list) -> dict:
    """Per name (``name_key``): the counts of its blocks that lie inside no other block of the group;
    for a block alone, its own counts."""
    members: dict = {}
    for counts, _, key, _ in judged:
        members.setdefault(key, []).append(counts)
    groups = {}
    for key, blocks in members.items():
        total_text = total_link = total_paragraphs = 0
        end = -1
        for block in sorted(blocks):
            if block.position <= end:
                continue
            end = block.position + block.tags
            total_text += block.text_chars
            total_link += block.link_chars
            total_paragraphs += block.paragraphs + (key[0] == "p")
        groups[key] = _Counts(total_text - total_link, total_text, total_link, total_paragraphs)
    return groups


def _holds_prose(counts: _Counts, strength: NameStrength, page_plain: int, options: ExtractOptions) -> bool:
    if counts.text == 0 or counts.link > options.name_keep_max_link_density * counts.text:
        return False
    if strength is NameStrength.WHOLE:
        share, paragraphs = options.name_keep_whole_min_share, options.name_keep_whole_min_paragraphs
    else:
        share, paragraphs = options.name_keep_part_min_share, options.name_keep_part_min_paragraphs
    return counts.plain >= share * page_plain and counts.paragraphs >= paragraphs


def _inside_sentence(element) -> bool:
    """Text on both sides of an inline element in its line: a word of a sentence."""
    if not (element.tail or "").strip():
        return False
    previous = element.getprevious()
    before = previous.tail if previous is not None else element.getparent().text
    return bool((before or "").strip())
