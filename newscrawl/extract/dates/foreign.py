"""Blocks whose dates are not the page's: comments, related-link lists, page furniture."""
from __future__ import annotations

import functools
from typing import Callable

import lxml.html

from ..blocks import is_link_navigation
from ..contentblocks import BlockStatsReader
from ..fastwalk import compiled
from ..options import DEFAULT_OPTIONS, ExtractOptions
from . import patterns as dp

if compiled is not None:
    # The compiled text walks ask is_foreign only about these tags and named elements; they
    # decline (the Python walks run) until told the tags.
    compiled.set_foreign_block_tags(dp.FOREIGN_BLOCK_TAGS)

def is_foreign(element: lxml.html.HtmlElement, options: ExtractOptions = DEFAULT_OPTIONS) -> bool:
    """A block whose dates are not the page's: comments, link lists, page furniture."""
    return foreign_test(options)(element)


def foreign_test(options: ExtractOptions) -> Callable[[lxml.html.HtmlElement], bool]:
    """``is_foreign`` with these options, in one call per element.

    A footer, aside or nav (``FOREIGN_BLOCK_TAGS``), or an element whose class/id name a comment, related-links or
    footer block. Names that only say "list" (or "hot", "rank", "footer") count when the
    block is also link navigation: a byline row is often styled as a list, or is the footer
    of the headline's card. The text walks call it on every element they pass (~400 a page
    of ../shared/eval): one closure instead of a partial and two nested calls. It counts
    each block once (``BlockStatsReader``): make one per page, and a new one when the tree changes.
    """
    block_stats = BlockStatsReader()

    def is_foreign(element: lxml.html.HtmlElement) -> bool:
        tag = element.tag
        if tag in dp.FOREIGN_BLOCK_TAGS:
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


def in_foreign_block(element: lxml.html.HtmlElement, headline: lxml.html.HtmlElement | None,
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
