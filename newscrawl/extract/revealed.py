"""A hidden container that holds the page's article: content the page's scripts reveal.

Pages that stream or unlock their article put it in an element with the HTML ``hidden``
attribute and let a script show it: React's streaming renderer sends the article as
``<div hidden id="S:1">`` to be moved into its place, a paywall script unhides a
``<div hidden>`` served in full. When no visible container holds as much prose, that
element is the article and cleaning keeps it (dom.clean_tree).
"""
from __future__ import annotations

from .options import ExtractOptions


def paragraph_prose(element, options: ExtractOptions) -> int:
    """Characters in the element's <p> of at least ``revealed_paragraph_chars`` (whitespace
    collapsed): its prose, not its labels and menu items."""
    total = 0
    for paragraph in element.iter("p"):
        chars = len(" ".join(paragraph.text_content().split()))
        if chars >= options.revealed_paragraph_chars:
            total += chars
    return total


def revealed_article(root, hidden: list, options: ExtractOptions):
    """The element of ``hidden`` (in document order) with the ``hidden`` attribute that holds the
    most prose, when that is at least ``revealed_min_chars`` and ``revealed_min_ratio`` times the
    prose outside every hidden element; else None."""
    candidates = [element for element in hidden if element.get("hidden") is not None]
    if not candidates:
        return None
    best, best_prose = None, 0
    for element in candidates:
        prose = paragraph_prose(element, options)
        if prose > best_prose:
            best, best_prose = element, prose
    if best_prose < options.revealed_min_chars:
        return None
    held = set(hidden)
    outermost = [element for element in hidden if not any(a in held for a in element.iterancestors())]
    visible = paragraph_prose(root, options) - sum(paragraph_prose(element, options) for element in outermost)
    return best if best_prose >= options.revealed_min_ratio * visible else None
