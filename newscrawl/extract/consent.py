"""The consent box that stands in for an embedded post, video or chart until the reader agrees.

Publishers load a tweet, a video or a chart from another site only after the reader consents
(the GDPR): until then a box says so ("Ein Klick für den Datenschutz", "Um eingebettete Inhalte
anzuzeigen, ist deine widerrufliche Einwilligung..."), in the middle of the story. Such a box,
named by CONSENT_NOTICE_RE (patterns.py), is page furniture. The content's text is searched
once; only a page that holds such a notice is walked.
"""
from __future__ import annotations

from .dom import text_of
from .options import ExtractOptions
from .patterns import CONSENT_NOTICE_RE


def drop_consent_notices(nodes: list, options: ExtractOptions) -> None:
    """Drop the innermost elements inside ``nodes`` whose text holds a consent notice, each of at
    most ``consent_notice_max_chars`` chars (whitespace collapsed)."""
    doomed = []
    for node in nodes:
        if CONSENT_NOTICE_RE.search(text_of(node)) is None:
            continue
        holders = [element for element in node.iter() if element is not node and isinstance(element.tag, str)
                   and CONSENT_NOTICE_RE.search(" ".join(element.text_content().split()))]
        inner = set()
        for element in holders:
            inner.update(element.iterancestors())
        doomed.extend(element for element in holders if element not in inner
                      and len(" ".join(element.text_content().split())) <= options.consent_notice_max_chars)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
