"""An article the page ships as data: its markup inside a string of one of the page's scripts.

Pages rendered in the browser from data may serve no article in their markup at all: Next.js
sends the server components' output as ``self.__next_f.push([1, "..."])``, a query cache is
dehydrated into ``window[...] = {...}``, and the article's paragraphs sit there as an HTML
string (``"\\u003cp\\u003e..."``), sometimes inside a string of JSON inside another string.
When the page's own markup gives no content, the string of the page's scripts holding the most
paragraph prose is parsed and read like a page (``serialized_article``). Only then: a page with
content in its markup never pays for it.
"""
from __future__ import annotations

import json
import re

import lxml.html

from .dom import parse_html
from .fastwalk import compiled
from .metadata import tagged_elements
from .options import DEFAULT_OPTIONS, ExtractOptions
from .revealed import paragraph_prose

# A double-quoted string literal of JavaScript or JSON (escapes kept: json.loads decodes them).
_STRING_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# A paragraph start inside a literal, as written (<p>, <p class=...>) or escaped (\u003cp).
_PARAGRAPH_IN_LITERAL_RE = re.compile(r"<p[\s>]|\\u003cp[\s>\\]", re.IGNORECASE)
# A paragraph start in a decoded string.
_PARAGRAPH_RE = re.compile(r"<p[\s>]", re.IGNORECASE)
# Strings inside strings are read this deep (Next.js: markup in JSON in a JavaScript string).
_MAX_DEPTH = 2


# Pieces every match of _PARAGRAPH_IN_LITERAL_RE holds one of (it ignores case: "<P", "\\u003CP" too),
# for a cheap count before the exact one (str.count reads ~20 times faster than a regular
# expression on large scripts); counting more than the pattern matches only costs that second look.
_PARAGRAPH_LITERALS = ("<p", "<P", "003c", "003C")


def may_carry_article(script_text: str, options: ExtractOptions = DEFAULT_OPTIONS) -> bool:
    """Whether a script's text may carry an article as markup in a string (what
    :func:`serialized_article` reads): at least ``revealed_min_chars`` long, with at least
    ``serialized_min_paragraphs`` paragraph starts written in it. Whoever strips scripts from a page
    before extraction (the crawl's noise stripping) keeps these, or such an article is lost."""
    if len(script_text) < options.revealed_min_chars:
        return False
    wanted = options.serialized_min_paragraphs
    if compiled is not None:  # one pass counting what the expression matches (the crawl asks for every long script)
        return compiled.paragraph_starts(script_text, wanted) >= wanted
    if sum(script_text.count(literal) for literal in _PARAGRAPH_LITERALS) < wanted:
        return False
    found = 0
    for _ in _PARAGRAPH_IN_LITERAL_RE.finditer(script_text):
        found += 1
        if found >= wanted:
            return True
    return False


def _markup_strings(text: str, options: ExtractOptions, depth: int = 0):
    """The decoded string literals of ``text`` (and of strings inside them) holding at least
    ``serialized_min_paragraphs`` paragraph starts."""
    for match in _STRING_RE.finditer(text):
        literal = match.group(1)
        if len(literal) < options.revealed_min_chars or not _PARAGRAPH_IN_LITERAL_RE.search(literal):
            continue
        try:
            value = json.loads(f'"{literal}"')
        except ValueError:   # a JavaScript escape JSON lacks (\x41, \'): not read
            continue
        if len(_PARAGRAPH_RE.findall(value)) >= options.serialized_min_paragraphs:
            yield value
        elif depth + 1 < _MAX_DEPTH:
            yield from _markup_strings(value, options, depth + 1)


def serialized_article(root, options: ExtractOptions) -> lxml.html.HtmlElement | None:
    """A tree (``<html><body>`` around the markup) of the script string with the most paragraph
    prose (revealed.paragraph_prose), when that is at least ``revealed_min_chars``; else None.
    ``root``: the page's tree, whose scripts were collected before cleaning (metadata.tagged_elements)."""
    best, best_prose, seen = None, 0, set()
    for script in tagged_elements(root, "script"):
        for markup in _markup_strings(script.text or "", options):
            if markup in seen:
                continue
            seen.add(markup)
            tree = parse_html(f"<html><body>{markup}</body></html>")
            if tree is None:
                continue
            prose = paragraph_prose(tree, options)
            if prose > best_prose:
                best, best_prose = tree, prose
    return best if best_prose >= options.revealed_min_chars else None
