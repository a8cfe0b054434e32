"""Notices inside the story that are not the story: a consent box, a sign-up promotion.

- The consent box that stands in for an embedded post, video or chart until the reader agrees
  (the GDPR): "Ein Klick für den Datenschutz", "Um eingebettete Inhalte anzuzeigen, ist deine
  widerrufliche Einwilligung..." (CONSENT_NOTICE_RE, patterns.py).
- A promotion of the publisher's other channels: its newsletter, browser push, WhatsApp
  channel, subscription, "follow us on Google News" (PROMO_NOTICE_RE).

The innermost element holding such a notice (of at most ``notice_max_chars``) is page
furniture. The content's text is searched once; only a page that holds a notice is walked.
"""
from __future__ import annotations

import re

from .dom import text_of
from .options import ExtractOptions
from .patterns import CONSENT_NOTICE_RE, PROMO_NOTICE_RE

_NOTICE_RE = re.compile(f"{CONSENT_NOTICE_RE.pattern}|{PROMO_NOTICE_RE.pattern}", re.I)


def drop_notices(nodes: list, options: ExtractOptions) -> None:
    """Drop the innermost elements inside ``nodes`` whose text holds a notice, each of at most
    ``notice_max_chars`` chars (whitespace collapsed)."""
    doomed = []
    for node in nodes:
        if _NOTICE_RE.search(text_of(node)) is None:
            continue
        holders = [element for element in node.iter() if element is not node and isinstance(element.tag, str)
                   and _NOTICE_RE.search(" ".join(element.text_content().split()))]
        inner = set()
        for element in holders:
            inner.update(element.iterancestors())
        doomed.extend(element for element in holders if element not in inner
                      and len(" ".join(element.text_content().split())) <= options.notice_max_chars)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
