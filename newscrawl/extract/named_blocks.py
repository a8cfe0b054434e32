"""Blocks inside the content that the page names by their class or id, for the content rules that
read a name together with the block's own counts (named_captions.py, fact_boxes.py, kickers.py)."""
from __future__ import annotations

import re
from collections.abc import Iterator

# A table, its parts and a definition list: what the older evaluation sets read as text or data
# (a caption set in a table cell, Wikipedia's "infobox" table), never a caption or a fact box.
TABLE_TAGS = frozenset(("table", "thead", "tbody", "tfoot", "tr", "td", "th", "dl", "dt", "dd"))


_NAMED_DESCENDANTS = "descendant::*[@class or @id]"


def named_elements(nodes: list, pattern: re.Pattern, skip_tags=frozenset()) -> Iterator:
    """The elements inside the content's nodes (a node itself never) whose lowercased class and id
    match ``pattern``, in document order; ``skip_tags``: tags never yielded."""
    for node in nodes:
        for element in node.xpath(_NAMED_DESCENDANTS):   # the C walk skips the unnamed elements
            if element.tag in skip_tags:
                continue
            names = f"{element.get('class') or ''} {element.get('id') or ''}"
            if len(names) >= 6 and pattern.search(names.lower()) is not None:
                yield element


def inside_any(element, elements: list) -> bool:
    """Is the element a descendant of one of ``elements``?"""
    return any(ancestor is other for ancestor in element.iterancestors() for other in elements)


def drop_elements(elements: list) -> None:
    """Remove the elements still in the tree (their tails stay)."""
    for element in elements:
        if element.getparent() is not None:
            element.drop_tree()
