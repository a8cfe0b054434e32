"""Bounds that keep ``extract`` finite on hostile pages (the limits in ExtractOptions' "input guards").

Each guard is cheap next to the step it protects: a regex scan before parsing, an
element count that stops at the limit, a clock read between steps.
"""
from __future__ import annotations

import re
import time
from itertools import islice

# A start tag longer than this (chars) is looked at for its attribute count; shorter tags cannot
# hold max_attributes_per_element attributes worth worrying about.
_LONG_TAG_RE = re.compile(r"<[A-Za-z][^<>]{4096,}")


def too_many_attributes(text: str, max_attributes: int) -> bool:
    """True when one start tag holds more than ``max_attributes`` attributes (libxml2 is quadratic there)."""
    for match in _LONG_TAG_RE.finditer(text):
        tag = match.group()
        if tag.count("=") > max_attributes or len(tag.split()) > max_attributes:
            return True
    return False


def too_many_elements(root, max_elements: int) -> bool:
    """True when the tree has more than ``max_elements`` nodes; stops counting at the limit."""
    return sum(1 for _ in islice(root.iter(), max_elements + 1)) > max_elements


class Deadline:
    """Seconds left for one page; ``passed()`` is read at step boundaries."""

    def __init__(self, seconds: float):
        self.ends = time.monotonic() + seconds

    def passed(self) -> bool:
        return time.monotonic() > self.ends
