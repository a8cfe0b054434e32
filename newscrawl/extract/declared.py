"""The article body a page declares in JSON-LD (``articleBody``), as a check on the choice.

Many publishers state their article's text in ``<script type="application/ld+json">``. The
density score does not read it; ``content.choose_content`` does, as a check: when the text
it chose covers little of the declared body, the page element that covers the body best is
taken instead. The output always comes from that element, the page's own markup: the
declared text only points at it (it may be shortened, or carry no paragraphs).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import lxml.html

from .metadata import PageMeta
from .options import ExtractOptions
from .patterns import DECLARED_BODY_KEYS

_TAG_RE = re.compile(r"<[^>]+>")
_WORD_RE = re.compile(r"\w+")
# The text nodes of the tree outside code (the JSON-LD's own text holds the body).
_PAGE_TEXTS = "//body//text()[not(parent::script or parent::style or parent::noscript or parent::template)]"


@dataclass
class DeclaredBody:
    shingles: frozenset   # word trigrams of the declared body (declared_shingles)
    node: lxml.html.HtmlElement | None   # the element of the page that covers the body best, None when none does
    held: list            # the elements inside ``node`` holding text found in the body (and ``node``)


def declared_shingles(text: str) -> frozenset:
    """The text's word trigrams (lowercased ``\\w+`` words)."""
    words = _WORD_RE.findall(text.lower())
    return frozenset(zip(words, words[1:], words[2:]))


def coverage(declared: DeclaredBody, text: str) -> float:
    """Share of the declared body's word trigrams found in ``text``."""
    if not declared.shingles:
        return 0.0
    return len(declared.shingles & declared_shingles(text)) / len(declared.shingles)


def _collapse(text: str) -> str:
    return " ".join(text.split())


def declared_body_text(page: PageMeta, options: ExtractOptions) -> str | None:
    """The longest declared body of the page's JSON-LD objects, as plain text (markup inside
    it removed, entities decoded), when it has at least ``declared_body_min_chars`` chars."""
    best = ""
    for obj in page.jsonld:
        for key in DECLARED_BODY_KEYS:
            value = obj.get(key)
            if isinstance(value, str) and len(value) > len(best):
                best = value
    if len(best) < options.declared_body_min_chars:
        return None
    text = _collapse(html.unescape(_TAG_RE.sub(" ", best)))
    return text if len(text) >= options.declared_body_min_chars else None


def read_declared_body(root, page: PageMeta, options: ExtractOptions) -> DeclaredBody | None:
    """The page's declared body and the element that covers it best, read on the raw tree
    (before cleaning, which keeps that element: dom.clean_tree). None without a declared body."""
    body = declared_body_text(page, options)
    if body is None:
        return None
    node, held = _covering_node(root, body, options)
    return DeclaredBody(declared_shingles(body), node, held)


def _covering_node(root, body: str, options: ExtractOptions) -> tuple[object, list]:
    """The element whose text best matches the declared body (the Dice coefficient of their
    characters: twice the matched chars over the sum of both lengths), among the ancestors of
    the text runs found in the body that hold at least half of the matched chars; and the
    elements inside it holding such runs. A run counts when it has at least
    ``declared_run_min_chars`` chars and its text appears in the body."""
    matched: dict = {}
    for run in root.xpath(_PAGE_TEXTS):
        if len(run) < options.declared_run_min_chars:
            continue
        text = _collapse(run)
        if len(text) < options.declared_run_min_chars or text not in body:
            continue
        owner = run.getparent()
        if run.is_tail:
            owner = owner.getparent()
        if owner is not None:
            matched[owner] = matched.get(owner, 0) + len(text)
    total = sum(matched.values())
    if not total:
        return None, []
    held: dict = {}
    for owner, chars in matched.items():
        held[owner] = held.get(owner, 0) + chars
        for ancestor in owner.iterancestors():
            held[ancestor] = held.get(ancestor, 0) + chars
    best, best_dice = None, 0.0
    for element, chars in held.items():
        if 2 * chars < total:
            continue
        dice = 2 * chars / (len(body) + len(_collapse(element.text_content())))
        if dice > best_dice:
            best, best_dice = element, dice
    if best is None:
        return None, []
    return best, [best, *(owner for owner in matched if any(a is best for a in owner.iterancestors()))]
