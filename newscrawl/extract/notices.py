"""Notices inside the story that are not the story: a consent box, a sign-up promotion.

- The consent box that stands in for an embedded post, video or chart until the reader agrees
  (the GDPR): "Ein Klick für den Datenschutz", "Um eingebettete Inhalte anzuzeigen, ist deine
  widerrufliche Einwilligung..." (CONSENT_NOTICE_RE, patterns.py).
- A promotion of the publisher's other channels: its newsletter, browser push, WhatsApp
  channel, subscription, "follow us on Google News" (PROMO_NOTICE_RE).

The innermost element holding such a notice (of at most ``notice_max_chars``) is page
furniture. The content's text is searched once, around the places of the patterns' keys
(NOTICE_KEYS); only a page that holds a notice is walked.
"""
from __future__ import annotations

import re

from .dom import collapsed_text, text_of
from .options import ExtractOptions
from .patterns import CONSENT_NOTICE_RE, NOTICE_KEYS, PROMO_NOTICE_RE

_NOTICE_RE = re.compile(f"{CONSENT_NOTICE_RE.pattern}|{PROMO_NOTICE_RE.pattern}", re.I)
# Chars before and after a key's place searched for a notice holding it (the longest notice of the
# patterns, a sign-up line naming its newsletter, runs ~90 chars).
_WINDOW = 120


def holds_notice(text: str, lowered: str | None = None) -> bool:
    """Does ``text`` hold a notice? The patterns are searched only around the places of their
    keys (NOTICE_KEYS): an unanchored search of the whole text of a story costs milliseconds.
    ``lowered``: ``text.lower()`` when the caller has it."""
    if lowered is None:
        lowered = text.lower()
    if len(lowered) != len(text):   # a character whose lowercase is longer: no places to map
        return _NOTICE_RE.search(text) is not None
    for key in NOTICE_KEYS:
        at = lowered.find(key)
        while at >= 0:
            if _NOTICE_RE.search(text, max(0, at - _WINDOW), at + len(key) + _WINDOW) is not None:
                return True
            at = lowered.find(key, at + len(key))
    return False


def drop_notices(nodes: list, options: ExtractOptions, texts: list | None = None) -> None:
    """Drop the innermost elements inside ``nodes`` whose text holds a notice, each of at most
    ``notice_max_chars`` chars (whitespace collapsed). ``texts``: each node's (text, lowercased
    text) when the caller has them (content.choose_content, shared with pointers.py)."""
    doomed: list = []
    for n, node in enumerate(nodes):
        text, lowered = texts[n] if texts is not None else (text_of(node), None)
        if not holds_notice(text, lowered):
            continue
        holders = {}   # element -> its collapsed text, for each element below node holding a notice
        for element in node.iter():
            if element is not node and isinstance(element.tag, str):
                line = collapsed_text(element)
                if holds_notice(line):
                    holders[element] = line
        inner = set()
        for element in holders:
            inner.update(element.iterancestors())
        doomed.extend(element for element, line in holders.items() if element not in inner
                      and len(line) <= options.notice_max_chars)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
