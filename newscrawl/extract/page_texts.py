"""The page's visible body text, as whitespace-collapsed runs, for the date search.

Two readings, both bounded to about ``max_chars`` characters:

* ``visible_runs``: every text node of <body> outside script/style/noscript.
  Read with two attribute-free XPaths (all body texts, and the hidden ones)
  instead of one testing the parent of every text node (~5x slower).
* ``link_free_runs``: the same without links and foreign blocks (comments, related
  lists, footers), each skipped whole with its tail, in one walk down the tree.
"""
from __future__ import annotations

import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Callable

import lxml.etree
import lxml.html

from .fastwalk import compiled
from .metadata import tagged_elements

# Elements whose text a reader never sees (_fastwalk.pyx's _hides_text names them too).
_HIDDEN_PARENTS = frozenset({"script", "style", "noscript"})
_BODY_TEXTS = lxml.etree.XPath("descendant::body/descendant::text()", smart_strings=False)
_BODY_TEXT_NODES = lxml.etree.XPath("descendant::body/descendant::text()")
# Per tree: the body texts, joined for word search.
_BODY_INDEXES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
# Up to this many text nodes are fetched by position (a pass over the texts each).
_MAX_BY_POSITION = 3
_HIDDEN_BODY_TEXTS = lxml.etree.XPath(
    "descendant::body/descendant::script/text()|descendant::body/descendant::style/text()"
    "|descendant::body/descendant::noscript/text()", smart_strings=False)
# The exact reading, used when a hidden text also appears as a visible one.
_VISIBLE_BODY_TEXTS = lxml.etree.XPath(
    "//body//text()[not(parent::script) and not(parent::style) and not(parent::noscript)]",
    smart_strings=False)
# Whitespace of XPath normalize-space(): a text of only these is no run.
_XML_SPACE = " \t\r\n"


def body_texts(root: lxml.html.HtmlElement) -> list[str]:
    """Every text node of <body>, hidden ones too, in document order (cached per tree)."""
    return _body_index(root).texts


def texts_starting_with(root: lxml.html.HtmlElement, prefix: str) -> list[int]:
    """Indexes in ``body_texts`` of the texts that start with ``prefix`` after their leading
    XML whitespace (``prefix`` itself holds no NUL and does not start with XML whitespace).

    Found with str.find in the joined texts: a hit counts when only XML whitespace lies
    between it and the NUL before it; only the first hit of each text can. A text's index
    is the count of NUL separators before the hit.
    """
    if not prefix:
        return []
    joined = _body_index(root).joined
    found: list[int] = []
    counted, count = 0, 0
    position = joined.find(prefix)
    while position >= 0:
        start = position
        while start and joined[start - 1] in _XML_SPACE:
            start -= 1
        if start == 0 or joined[start - 1] == "\0":
            count += joined.count("\0", counted, position)
            counted = position
            found.append(count)
        next_text = joined.find("\0", position)
        if next_text < 0:
            break
        position = joined.find(prefix, next_text + 1)
    return found


def body_text_nodes(root: lxml.html.HtmlElement, indexes: list[int]) -> list:
    """The text nodes at these indexes of ``body_texts``, as lxml smart strings.

    With one <body> below ``root``, a few are fetched with a position predicate on the
    step (``descendant::body/descendant::text()[17]``), where libxml2 stops at the 17th
    text; ``(...)[17]`` collects every text of the page first. 0.084 -> 0.024 ms a call,
    compiling included (1,218 calls with one index, the references of 2,405 pages of
    ../shared/eval, 2026-11-26, both timed in turn, the same nodes). With several bodies
    the step would count per body.
    """
    if len(indexes) > _MAX_BY_POSITION:
        wanted = set(indexes)
        return [node for index, node in enumerate(_BODY_TEXT_NODES(root)) if index in wanted]
    if not indexes:
        return []
    if sum(body is not root for body in tagged_elements(root, "body")) == 1:
        expression = "|".join(f"descendant::body/descendant::text()[{index + 1}]" for index in indexes)
    else:
        expression = "|".join(f"(descendant::body/descendant::text())[{index + 1}]" for index in indexes)
    return lxml.etree.XPath(expression)(root)


@dataclass(frozen=True)
class _BodyIndex:
    texts: list[str]
    joined: str  # the texts joined by NUL, which no text holds


def _body_index(root: lxml.html.HtmlElement) -> _BodyIndex:
    index = _BODY_INDEXES.get(root)
    if index is None:
        texts = _BODY_TEXTS(root)
        index = _BODY_INDEXES[root] = _BodyIndex(texts, "\0".join(texts))
    return index


def visible_runs(root: lxml.html.HtmlElement, max_chars: int) -> list[str]:
    """Visible body texts, whitespace collapsed, until their length passes ``max_chars``.

    Read in one C walk when the compiled walks are built (fastwalk.py), else from the XPaths.
    """
    if compiled is not None:
        runs = compiled.visible_runs(root, max_chars)
        if runs is not None:
            return runs
    return _visible_runs_in_python(root, max_chars)


def _visible_runs_in_python(root: lxml.html.HtmlElement, max_chars: int) -> list[str]:
    """``visible_runs`` from the XPaths' texts (the reference for ``_fastwalk.visible_runs``).

    The hidden texts are matched in order against all the body texts; that finds them only
    when no visible text is equal to one of them (a headline repeated in a <noscript>), else
    the exact XPath reads the visible ones. Looked for before the walk: one found while
    walking can come after the size limit has already cut the runs, with a visible text
    skipped in its place.
    """
    hidden = [text for text in _hidden_body_texts(root) if text.strip(_XML_SPACE)]
    texts = body_texts(root)
    if hidden:
        hidden_counts = Counter(hidden)
        if Counter(text for text in texts if text in hidden_counts) != hidden_counts:
            return _runs(_VISIBLE_BODY_TEXTS(root), max_chars)
    runs: list[str] = []
    size, next_hidden = 0, 0
    for text in texts:
        if not text.strip(_XML_SPACE):
            continue  # blank (no hidden text counted here is blank)
        if next_hidden < len(hidden) and text == hidden[next_hidden]:
            next_hidden += 1
            continue
        run = " ".join(text.split())
        runs.append(run)
        size += len(run) + 1
        if size > max_chars:
            break
    return runs


def _hidden_body_texts(root: lxml.html.HtmlElement) -> list[str]:
    """The text nodes of <body>'s script, style and noscript elements (``_HIDDEN_BODY_TEXTS``).

    Read from the elements of the per-tree tag walk: the three-branch XPath walks the
    tree three times (0.23 ms a page over the 2,584 pages of ../shared/eval's 7 older sets,
    2026-11-22). The text nodes of such an element are its text and its children's
    tails; one inside another (a script in a noscript) is left to the XPath, whose
    document order interleaves them.
    """
    texts: list[str] = []
    for element in tagged_elements(root, "hidden"):
        if next(element.iterancestors("body"), None) is None:
            continue
        if next(element.iterancestors(*_HIDDEN_PARENTS), None) is not None:
            return _HIDDEN_BODY_TEXTS(root)
        if element.text is not None:
            texts.append(element.text)
        texts.extend(child.tail for child in element if child.tail is not None)
    return texts


def link_free_runs(root: lxml.html.HtmlElement, max_chars: int,
                   is_foreign: Callable[[lxml.html.HtmlElement], bool]) -> list[str]:
    """Visible body texts outside links and foreign blocks, until they pass ``max_chars``.

    A link or foreign block is skipped whole, its tail included; <body> and <html>
    are never foreign (their classes describe the page, e.g. "no-sidebars").

    Walked in C when the compiled walks are built (fastwalk.py), else in Python.
    """
    body = first_body(root)
    if body is None:
        return []
    if compiled is not None:
        runs = compiled.link_free_runs(body, max_chars, is_foreign)
        if runs is not None:
            return runs
    return _link_free_runs_in_python(body, max_chars, is_foreign)


def _link_free_runs_in_python(body: lxml.html.HtmlElement, max_chars: int,
                              is_foreign: Callable[[lxml.html.HtmlElement], bool]) -> list[str]:
    """``link_free_runs`` from ``body`` walking the proxies (the reference for the compiled walk).

    One ``iterwalk`` (lxml's walk in C, a skipped block never entered) instead of a
    stack of tuples in Python: 0.69 -> 0.45 ms a call (862 pages of ../shared/eval,
    2026-11-26, each page's call timed alone), the same runs on every page. The size limit is read before
    each text or tail, except the tail of an element without children, added right
    after its text as the stack walk did.
    """
    runs: list[str] = []
    size = _add_run(runs, body.text or "", 0)
    shows = [True]  # per open element: are its own text nodes shown
    walker = lxml.etree.iterwalk(body, events=TEXT_WALK_EVENTS)
    next(walker)  # the start of <body>
    skipped = opened = None
    for event, element in walker:
        if event == "start":
            if size > max_chars:
                break
            opened = element
            tag = element.tag
            if tag == "a" or is_foreign(element):
                walker.skip_subtree()
                skipped = element
                continue
            shown = tag not in _HIDDEN_PARENTS
            if shown:
                text = element.text  # each read of .text/.tail builds a new str: read once
                if text:
                    size = _add_run(runs, text, size)
            shows.append(shown)
            continue
        if event == "end":
            if element is skipped:
                continue
            shows.pop()
            if not shows or (size > max_chars and element is not opened):
                break
        else:  # a comment or processing instruction: only its tail is text
            if size > max_chars:
                break
            opened = None
        if shows[-1]:
            tail = element.tail
            if tail:
                size = _add_run(runs, tail, size)
    return runs


# The events of a text walk (link_free_runs, title._block_texts): comments and processing
# instructions carry tails.
TEXT_WALK_EVENTS = ("start", "end", "comment", "pi")


def first_body(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    """The first <body> of the tree in document order (``next(root.iter("body"), None)``).

    Found as the body child of <html> after checking the children before it (<head>):
    ``root.iter("body")`` looks for the next match as soon as it yields one, so taking
    its first item walks the whole tree (0.14 ms a page over the 2,584 pages of ../shared/eval's
    7 older sets, 2026-11-22; ``find`` ~0.004 ms).
    """
    if root.tag == "body":
        return root
    body = root.find("body")
    if body is None:
        return next(root.iter("body"), None)
    for sibling in reversed(list(body.itersiblings(preceding=True))):
        for inner in sibling.iter("body"):
            return inner
    return body


def _runs(texts, max_chars: int) -> list[str]:
    runs: list[str] = []
    size = 0
    for text in texts:
        size = _add_run(runs, text, size)
        if size > max_chars:
            break
    return runs


def _add_run(runs: list[str], text: str, size: int) -> int:
    """Append the collapsed text (none for XML whitespace only); the new total size."""
    if not text.strip(_XML_SPACE):
        return size
    runs.append(" ".join(text.split()))
    return size + len(runs[-1]) + 1
