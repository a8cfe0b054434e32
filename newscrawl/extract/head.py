"""The ``<head>`` of a page whose body is not read: its title and dates still count."""
from __future__ import annotations

import re

import lxml.html

from .dom import parse_html
from .limits import too_many_attributes

_HEAD_END_RE = re.compile(r"</head\s*>", re.I)


def read_head(html: str, max_chars: int, max_attributes: int) -> lxml.html.HtmlElement | None:
    """The tree of a page's ``<head>`` alone, parsed from its text up to the first ``</head>``
    within ``max_chars``.

    None when there is no ``</head>`` there, or when the head holds a start tag with more than
    ``max_attributes`` attributes (the guard a whole page passes first, limits.py).
    """
    end = _HEAD_END_RE.search(html, 0, max_chars)
    if end is None:
        return None
    head = html[:end.end()]
    if too_many_attributes(head, max_attributes):
        return None
    return parse_html(head)
