"""The author's bio after the story: a short block naming one of the page's authors at the end of
the content ("Ulrich Exner ist Korrespondent ...", "Steph Bazzle covers politics ...").

No word list: the page's own author names (authors.py) and the block's place and size are the
evidence. A box whose class or id names an author (AUTHOR_BOX_NAME_RE: "author-box", "authorbox")
may be longer: a bio of two paragraphs under an "About the author" heading. Such a named box that
ends the content goes also when no author's name is known (a blog signed "Julia" under a portrait).
The name is evidence there, with the box's place and size: it must be the content's last block
and a small part of it. Read on the rendered text first, so that a page whose text does not end
near an author's name costs one search of its last chars.
"""
from __future__ import annotations

from .dom import collapsed_text
from .named_blocks import names_of
from .options import ExtractOptions
from .patterns import AUTHOR_BIO_BOX_TAGS, AUTHOR_BOX_NAME_RE


def drop_author_bio(nodes: list, text: str, authors: tuple[str, ...], options: ExtractOptions) -> bool:
    """Drop the bio box at the end of the content ``nodes`` (rendered as ``text``): the outermost
    box (AUTHOR_BIO_BOX_TAGS, inside a node) of at most ``author_bio_max_chars`` holding the last
    mention of an author's name, when that mention lies in the last ``author_bio_max_chars`` of the
    text, the box names the author in its first ``author_bio_name_lead_chars`` and says more than
    the name (``author_bio_min_extra_chars``), and the text holds at least
    ``author_bio_story_share`` times the box's chars. A box named as an author's (AUTHOR_BOX_NAME_RE)
    may hold up to ``author_bio_named_max_chars``, the mention as far from the end. A paragraph or a
    list is no box: a story's last paragraph about its author ("You can follow ... on Twitter") is
    part of it. Whether one was dropped."""
    limit = options.author_bio_max_chars
    if not limit or not authors or not nodes:
        return False
    widest = max(limit, options.author_bio_named_max_chars)
    tail = text[-widest:].lower()
    names = [name.lower() for name in authors if len(name) >= options.author_bio_min_name_chars]
    name = max(names, key=tail.rfind, default=None)
    if name is None or tail.rfind(name) < 0:
        return False
    from_end = len(tail) - tail.rfind(name)
    holder = _last_holder(nodes, name)
    box, box_text, box_limit = None, "", limit
    element = holder
    while element is not None and not any(element is node for node in nodes):
        if element.tag in AUTHOR_BIO_BOX_TAGS:
            words = collapsed_text(element)
            if len(words) > widest:
                break
            own_limit = widest if _named_author_box(element) else limit
            if len(words) <= own_limit:
                box, box_text, box_limit = element, words, own_limit
        element = element.getparent()
    if box is None or from_end > box_limit or len(box_text) < len(name) + options.author_bio_min_extra_chars \
            or not 0 <= box_text.lower().find(name) < options.author_bio_name_lead_chars \
            or len(text) < options.author_bio_story_share * len(box_text):
        return False
    box.drop_tree()
    return True


def drop_named_author_box(nodes: list, text: str, options: ExtractOptions) -> bool:
    """Drop the box named as an author's (AUTHOR_BOX_NAME_RE) that ends the content ``nodes``
    (rendered as ``text``) when no author name found it: the outermost such box on the path of
    last blocks, of ``author_bio_min_extra_chars`` to ``author_bio_named_max_chars`` chars, its text
    the end of ``text``, and the text ``author_bio_story_share`` times its length. Whether one was
    dropped."""
    limit = options.author_bio_named_max_chars
    if not limit or not nodes:
        return False
    element = _last_block(nodes[-1])
    while element is not None:
        if element.tag in AUTHOR_BIO_BOX_TAGS and _named_author_box(element):
            words = "".join(element.text_content().split())   # a block's lines meet without a space
            ending = "".join(text[-2 * limit:].split())
            if options.author_bio_min_extra_chars <= len(words) <= limit and ending.endswith(words) \
                    and len(text) >= options.author_bio_story_share * len(words):
                element.drop_tree()
                return True
            return False
        element = _last_block(element)
    return False


def _last_block(element):
    """The last child element holding text, None when none does."""
    for child in reversed(element):
        if isinstance(child.tag, str) and any(not piece.isspace() for piece in child.itertext() if piece):
            return child
    return None


def _named_author_box(element) -> bool:
    """Does the element's class or id name an author's box?"""
    return AUTHOR_BOX_NAME_RE.search(names_of(element)) is not None


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
