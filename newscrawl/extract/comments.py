"""Reader comments: the prose of each comment of a page, appended after the article when
``ExtractOptions.include_comments`` is on.

A comment area is a block named by the comment vocabulary (``patterns.COMMENT_BLOCK_RE``:
WordPress' ``ol.comment-list`` and ``div#comments``, Blogger's ``div.comments``, Movable Type's
``div.comments-content``, ``pinglun`` on Chinese portals...) that holds comment units: elements
named by the same vocabulary, or the items of a list. The outermost such block is the area; the
reply form, the author and date lines, reply links and headings inside it are furniture
(``patterns.COMMENT_FURNITURE_WORDS``, ``COMMENT_FURNITURE_TAGS``), and so is every block whose
text is mostly links ("Reply", "Load more...", "Delete"; ``comments_line_max_link_share``). What
is left is the readers' prose, in the page's own markup; an area that is still mostly links is a
list of links to comments, not comments.

Areas are copied before the cleaning pass (which drops them) and appended after the article is
chosen, so comments never change which block is the article, its score or its verdict.
"""
from __future__ import annotations

import copy
import string

import lxml.etree
import lxml.html

from .dom import collapsed_text
from .options import ExtractOptions
from .output import render_text
from .patterns import (COMMENT_AREA_TAGS, COMMENT_BLOCK_RE, COMMENT_BLOCK_TOKEN, COMMENT_BLOCK_WORDS,
                       COMMENT_FURNITURE_TAGS, COMMENT_FURNITURE_WORDS, FURNITURE_LINE_RE, TIMESTAMP_LINE_RE)

# Blocks of a comment area read as one line each: dropped when the line is mostly links, furniture or a date.
_LINE_TAGS = ("p", "div", "span", "li", "dd", "dt", "ul", "ol", "dl", "article", "section", "blockquote")
# Elements that can be one comment of an area (named by the vocabulary, or a list's item).
_UNIT_TAGS = frozenset({"li", "article", "div", "dd", "p", "section", "blockquote"})
_LIST_ITEM_TAGS = frozenset({"li", "dd"})
# A comment itself, never furniture for its name: WordPress names the post author's own comments
# "comment-author-NAME bypostauthor".
_UNIT_ITEM_TAGS = frozenset({"li", "article"})


class CommentArea:
    """One comment area: the block on the page, and a copy holding only the readers' prose."""

    __slots__ = ("element", "prose")

    def __init__(self, element: lxml.html.HtmlElement, prose: lxml.html.HtmlElement):
        self.element = element
        self.prose = prose


def _candidates_xpath(scope: str) -> lxml.etree.XPath:
    """The blocks of ``scope`` whose lowercased class or id holds a word of the comment vocabulary
    (one XPath walk in C: most pages have none, and are done here)."""
    names = f"translate(concat(@class, ' ', @id), '{string.ascii_uppercase}', '{string.ascii_lowercase}')"
    words = " or ".join(f"contains({names}, '{word}')" for word in (*COMMENT_BLOCK_WORDS, COMMENT_BLOCK_TOKEN))
    tags = " or ".join(f"self::{tag}" for tag in COMMENT_AREA_TAGS)
    return lxml.etree.XPath(f"{scope}//*[{tags}][{words}]")


_ANYWHERE = _candidates_xpath("")
_IN_MAIN = _candidates_xpath("(//main | //article)")


def find_comment_areas(root: lxml.html.HtmlElement, options: ExtractOptions) -> list[CommentArea]:
    """The page's comment areas, in page order, read before the cleaning pass removes them.

    An area holding the page's ``<h1>`` is a wrapper of the article, not a comment area. With
    ``comments_in_main_only``, only areas inside the page's ``<main>`` or an ``<article>`` whose
    comments are list items or ``<article>`` elements."""
    areas: list[CommentArea] = []
    chosen: set = set()
    in_main_only = options.comments_in_main_only
    for element in (_IN_MAIN if in_main_only else _ANYWHERE)(root):
        names = _names(element)
        if not COMMENT_BLOCK_RE.search(names) or _names_furniture(names):
            continue
        if any(ancestor in chosen for ancestor in element.iterancestors()):
            continue
        if next(element.iter("h1"), None) is not None or not _holds_units(element):
            continue
        prose = _prose_copy(element, options)
        if prose is None or (in_main_only and next(prose.iter(*_UNIT_ITEM_TAGS, "dd"), None) is None):
            continue
        chosen.add(element)
        areas.append(CommentArea(element, prose))
    return areas


def append_comments(areas: list[CommentArea], nodes: list, text: str,
                    options: ExtractOptions) -> tuple[str, list]:
    """(text with the comments' prose after it, the prose blocks to render after ``nodes``).

    An area around the chosen article is left out (it is the article), and so is one inside it
    that the cleaning left whole (its text is there already). None when the comments hold more
    than ``comments_max_share`` of the article's chars."""
    if not text:
        return text, []
    chosen = set(nodes)
    kept = [area.prose for area in areas if not _around(area.element, chosen) and not _kept_whole(area, chosen)]
    if not kept:
        return text, []
    comments = render_text(kept)
    if not comments or len(comments) > options.comments_max_share * len(text):
        return text, []
    return f"{text}\n{comments}", kept


def _around(element: lxml.html.HtmlElement, chosen: set) -> bool:
    return any(node in chosen for node in element.iterdescendants())


def _kept_whole(area: CommentArea, chosen: set) -> bool:
    element = area.element
    if element not in chosen and not any(ancestor in chosen for ancestor in element.iterancestors()):
        return False
    return collapsed_text(area.prose) in collapsed_text(element)


def _names(element: lxml.html.HtmlElement) -> str:
    return f"{element.get('class', '')} {element.get('id', '')}".strip().lower()


def _names_furniture(names: str) -> bool:
    return any(word in names for word in COMMENT_FURNITURE_WORDS)


def _holds_units(area: lxml.html.HtmlElement) -> bool:
    """Does the area hold a comment unit: a list item, or an element named by the comment
    vocabulary (not as furniture), that holds a paragraph or text of its own?"""
    for element in area.iterdescendants(*_UNIT_TAGS):
        if element.tag not in _LIST_ITEM_TAGS:
            names = _names(element)
            if not names or not COMMENT_BLOCK_RE.search(names) or _names_furniture(names):
                continue
        if (element.text and not element.text.isspace()) or next(element.iter("p"), None) is not None:
            return True
    return False


def _prose_copy(area: lxml.html.HtmlElement, options: ExtractOptions) -> lxml.html.HtmlElement | None:
    """A copy of the area without its furniture; None when no prose is left."""
    prose = copy.deepcopy(area)
    prose.tail = None
    doomed = [element for element in prose.iterdescendants(lxml.etree.Element)
              if element.tag in COMMENT_FURNITURE_TAGS
              or (element.tag not in _UNIT_ITEM_TAGS and _names_furniture(_names(element)))]
    doomed.extend(prose.iterdescendants(lxml.etree.Comment))
    _drop_all(doomed)
    _drop_all([block for block in prose.iterdescendants(*_LINE_TAGS) if _is_furniture_line(block, options)])
    text = collapsed_text(prose)
    if not text or _link_share(prose, text) > options.comments_area_max_link_share:
        return None
    return prose


def _drop_all(elements: list) -> None:
    for element in elements:
        if element.getparent() is not None:
            element.drop_tree()   # keeps its tail: text after a dropped author line stays


def _is_furniture_line(block: lxml.html.HtmlElement, options: ExtractOptions) -> bool:
    """A block whose text is mostly links ("Reply", "Load more...", "Ann on <post title>"), a blog
    engine's furniture line ("Leave a reply") or a date alone."""
    text = collapsed_text(block)
    if not text:
        return False
    if FURNITURE_LINE_RE.match(text) or TIMESTAMP_LINE_RE.match(text):
        return True
    return _link_share(block, text) >= options.comments_line_max_link_share


def _link_share(block: lxml.html.HtmlElement, text: str) -> float:
    """The share of the block's non-space chars that are in links."""
    linked = sum(len("".join(link.text_content().split())) for link in block.iter("a"))
    return linked / max(1, len("".join(text.split())))
