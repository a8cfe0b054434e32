"""Furniture lines of post templates that a single phrase does not name: rows of the post's
metadata (date, author, category, views, comment count, blog tools) and dates written with the
month's name.

Used by content.prune_boilerplate_lines on the short blocks of the chosen content, headings and
``<time>`` elements included.
"""
from __future__ import annotations

from .dom import collapsed_text
from .patterns import (END_SECTION_HEADING_RE, FURNITURE_LINE_RE, FURNITURE_WHOLE_LINE_RE, HEADING_TAGS,
                       META_ITEM_ALONE_RE, META_ROW_ITEM_RE, META_ROW_SEPARATOR_RE, NAMED_DATE_LINE_RE, READ_MORE_LINK_RE)

# Blocks checked for furniture lines besides content.PRUNABLE_BLOCK_TAGS: headings ("Ähnliche
# Beiträge", "Category: ...", a like button's "Gefällt mir:") and <time> (a byline's date).
FURNITURE_LINE_TAGS = frozenset({*HEADING_TAGS, "time"})
# Blocks that may be a teaser (drop_read_more_teasers).
TEASER_BLOCK_TAGS = frozenset({"div", "p", "li", "article", "section"})


def is_meta_row(line: str) -> bool:
    """Is every item of the line (split at bars and middle dots) a piece of post metadata
    (META_ROW_ITEM_RE)? A line of one item only when that item is furniture alone
    (META_ITEM_ALONE_RE: a labelled list, a count, a tool): a date alone is cut only when the
    content holds few of them (``is_named_date_line``), a byline alone may be a heading."""
    items = [item for item in META_ROW_SEPARATOR_RE.split(line) if item]
    if len(items) == 1:
        return META_ITEM_ALONE_RE.match(items[0]) is not None
    return bool(items) and all(META_ROW_ITEM_RE.match(item) for item in items)


def is_named_date_line(line: str) -> bool:
    """A date written with its month's name, with its weekday and time or not, alone in its line."""
    return NAMED_DATE_LINE_RE.match(line) is not None


def is_furniture_line(line: str) -> bool:
    """A heading's or a ``<time>``'s line that is furniture: a whole furniture line
    (FURNITURE_WHOLE_LINE_RE, FURNITURE_LINE_RE) or a row of metadata. An end-section heading
    ("Mehr zum Thema") is not: content.cut_end_sections cuts it with the box it opens."""
    if END_SECTION_HEADING_RE.match(line):
        return False
    return FURNITURE_WHOLE_LINE_RE.match(line) is not None or FURNITURE_LINE_RE.match(line) is not None \
        or is_meta_row(line)


def drop_read_more_teasers(nodes: list, options) -> None:
    """Drop the teasers inside the content: a block of at most ``teaser_max_chars`` whose last
    element is a "read more" link (READ_MORE_LINK_RE) after an excerpt ("Sommerzeit ist
    Urlaubszeit, ... Seht selbst! Weiterlesen"): a pointer to another story, not this one's text."""
    doomed = []
    for node in nodes:
        for link in node.iter("a"):
            if not READ_MORE_LINK_RE.match(collapsed_text(link)):
                continue
            block = _teaser_block(link, node)
            if block is not None and len(block.text_content().strip()) <= options.teaser_max_chars:
                doomed.append(block)
    for block in doomed:
        if block.getparent() is not None:
            block.drop_tree()


def _teaser_block(link, node):
    """The nearest block around ``link`` (inside ``node``) holding text before it, when the link
    ends that block's text; else None."""
    link_text = link.text_content().strip()
    for ancestor in link.iterancestors():
        if ancestor is node:
            return None
        if ancestor.tag not in TEASER_BLOCK_TAGS:
            continue
        text = collapsed_text(ancestor)
        if len(text) > len(link_text) + 1:
            return ancestor if text.endswith(link_text) else None
    return None
