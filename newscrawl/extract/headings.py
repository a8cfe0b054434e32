"""Headings whose id is an anchor made from their own words, not a name of boilerplate.

Tables of contents link to a story's crossheads by ids their scripts make from the heading's
text, with a prefix of their own: ``<h3 id="nav_nur_die_folie__1">Nur die Folie bleibt
zurück</h3>``. The prefix ("nav") then reads like a name of navigation, and the crosshead went
with the navigation (dom.clean_tree).
"""
from __future__ import annotations

import re

from .patterns import ANCHOR_HEADING_MIN_WORDS

_WORD_SPLIT_RE = re.compile(r"[\W_]+")


def is_anchored_heading(element) -> bool:
    """Does the element's id hold the first ANCHOR_HEADING_MIN_WORDS words of its own text, in
    order (an anchor made from its text)? Shorter texts do not count: a widget's id repeats its
    short label ("share-this" over "Share this")."""
    ident = element.get("id")
    if not ident:
        return False
    words = [word for word in _WORD_SPLIT_RE.split(element.text_content().lower()) if word]
    if len(words) < ANCHOR_HEADING_MIN_WORDS:
        return False
    ident_words = [word for word in _WORD_SPLIT_RE.split(ident.lower()) if word]
    head = words[:ANCHOR_HEADING_MIN_WORDS]
    return any(ident_words[k:k + len(head)] == head for k in range(len(ident_words) - len(head) + 1))
