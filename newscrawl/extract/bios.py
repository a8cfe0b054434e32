"""The author's bio after the story: a short block naming one of the page's authors at the end of
the content ("Ulrich Exner ist Korrespondent ...", "Steph Bazzle covers politics ...").

No word list: the page's own author names (authors.py) and the block's place and size are the
evidence. Read on the rendered text first, so that a page whose text does not end near an author's
name costs one search of its last chars.
"""
from __future__ import annotations

from .dom import collapsed_text
from .options import ExtractOptions
from .patterns import AUTHOR_BIO_BOX_TAGS


def drop_author_bio(nodes: list, text: str, authors: tuple[str, ...], options: ExtractOptions) -> bool:
    """Drop the bio box at the end of the content ``nodes`` (rendered as ``text``): the outermost
    box (AUTHOR_BIO_BOX_TAGS, inside a node) of at most ``author_bio_max_chars`` holding the last
    mention of an author's name, when that mention lies in the last ``author_bio_max_chars`` of the
    text, the box names the author in its first ``author_bio_name_lead_chars`` and says more than
    the name (``author_bio_min_extra_chars``), and the text holds at least
    ``author_bio_story_share`` times the box's chars. A paragraph or a list is no box: a story's
    last paragraph about its author ("You can follow ... on Twitter") is part of it. Whether one
    was dropped."""
    limit = options.author_bio_max_chars
    if not limit or not authors or not nodes:
        return False
    tail = text[-limit:].lower()
    names = [name.lower() for name in authors if len(name) >= options.author_bio_min_name_chars]
    name = max(names, key=tail.rfind, default=None)
    if name is None or tail.rfind(name) < 0:
        return False
    holder = _last_holder(nodes, name)
    box, box_text = None, ""
    element = holder
    while element is not None and not any(element is node for node in nodes):
        if element.tag in AUTHOR_BIO_BOX_TAGS:
            words = collapsed_text(element)
            if len(words) > limit:
                break
            box, box_text = element, words
        element = element.getparent()
    if box is None or len(box_text) < len(name) + options.author_bio_min_extra_chars \
            or not 0 <= box_text.lower().find(name) < options.author_bio_name_lead_chars \
            or len(text) < options.author_bio_story_share * len(box_text):
        return False
    box.drop_tree()
    return True


def _last_holder(nodes: list, wanted: str):
    """The last element inside ``nodes`` whose own text, or a child's tail, holds ``wanted`` (a
    lowercased name); None when none does."""
    for node in reversed(nodes):
        for element in reversed(list(node.iter())):
            if not isinstance(element.tag, str):
                continue
            if wanted in (element.text or "").lower():
                return element
            if element is not node and wanted in (element.tail or "").lower():
                return element.getparent()
    return None
