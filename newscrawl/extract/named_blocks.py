"""Blocks inside the content that the page names by their class or id, for the content rules that
read a name together with the block's own counts (named_captions.py, fact_boxes.py, kickers.py)."""
from __future__ import annotations

import re
from collections.abc import Iterator

# A table, its parts and a definition list: what the older evaluation sets read as text or data
# (a caption set in a table cell, Wikipedia's "infobox" table), never a caption or a fact box.
TABLE_TAGS = frozenset(("table", "thead", "tbody", "tfoot", "tr", "td", "th", "dl", "dt", "dd"))

_NAMED_DESCENDANTS = "descendant::*[@class or @id]"
# Fewer chars of class and id (with the space between them) name nothing the rules read
_MIN_NAMES_CHARS = 6


class NamedBlocks:
    """The elements inside the content's nodes (a node itself never) that carry a class or an id, with
    their lowercased names, found in one walk that the rules reading names share; an element a rule
    removed, and what it held, is not handed to the next rule."""

    def __init__(self, nodes: list):
        self.found = []
        for node in nodes:
            for element in node.xpath(_NAMED_DESCENDANTS):   # the C walk skips the unnamed elements
                names = names_of(element)
                if len(names) >= _MIN_NAMES_CHARS:
                    self.found.append((element, names))
        self._top = _top(nodes[0]) if nodes else None
        self._removed = False

    def matching(self, pattern: re.Pattern, skip_tags=frozenset()) -> Iterator:
        """The elements whose names match ``pattern``, in document order; ``skip_tags``: never yielded."""
        for element, names in self.found:
            if element.tag in skip_tags or pattern.search(names) is None:
                continue
            if self._removed and _top(element) is not self._top:
                continue
            yield element

    def remove(self, elements: list) -> None:
        """Remove the elements still in the tree (their tails stay)."""
        for element in elements:
            if element.getparent() is not None:
                element.drop_tree()
                self._removed = True


def names_of(element) -> str:
    """The element's class and id, lowercased, with a space between them."""
    return f"{element.get('class') or ''} {element.get('id') or ''}".lower()


def _top(element):
    """The outermost ancestor of the element (the element itself when it has none)."""
    parent = element.getparent()
    while parent is not None:
        element, parent = parent, parent.getparent()
    return element


def inside_any(element, elements: list) -> bool:
    """Is the element a descendant of one of ``elements``?"""
    return any(ancestor is other for ancestor in element.iterancestors() for other in elements)
