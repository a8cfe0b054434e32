"""Turn the chosen content nodes into plain text and into clean HTML."""
from __future__ import annotations

import copy
from urllib.parse import urljoin

import lxml.etree
import lxml.html

from .dom import make_element
from .fastwalk import compiled
from .patterns import BLOCK_LEVEL_TAGS, KEPT_ATTRIBUTES, KEPT_HTML_TAGS, LAZY_IMAGE_ATTRIBUTES


def render_text(nodes: list) -> str:
    """Main text: one paragraph per line; headings and list items on their own lines.

    Written in C by the compiled walks when they are built (fastwalk.py), else in Python.
    """
    if compiled is not None:
        text = compiled.render_text(nodes, BLOCK_LEVEL_TAGS)
        if text is not None:
            return text
    return _render_text_in_python(nodes)


def _render_text_in_python(nodes: list) -> str:
    """``render_text`` walking the proxies (the reference for ``_fastwalk.render_text``)."""
    parts: list[str] = []
    append = parts.append
    # Whether each open element is block-level, pushed at its start and popped at its end: the
    # tag is read once (each read of ``.tag`` builds a new str): 0.168 -> 0.152 ms a page run
    # again on the same nodes, 0.199 -> 0.195 in the pipeline (steps6's 350 pages, 2026-11-22).
    open_blocks: list[bool] = []
    push, pop = open_blocks.append, open_blocks.pop
    for node in nodes:
        append("\n")
        for event, element in lxml.etree.iterwalk(node, events=("start", "end")):
            if event == "start":
                block = element.tag in BLOCK_LEVEL_TAGS
                push(block)
                if block:
                    append("\n")
                if element.text:
                    append(element.text)
            else:
                if pop():
                    append("\n")
                if element is not node and element.tail:
                    append(element.tail)
    # Blank lines (most of them: one per block boundary) are passed before their split.
    return "\n".join([" ".join(line.split()) for line in "".join(parts).split("\n") if line and not line.isspace()])


def _absolute(base_url: str | None, value: str) -> str:
    value = value.strip()
    if not base_url or _is_plain_absolute(value):
        return value
    try:
        return urljoin(base_url, value)
    except ValueError:
        return value


def _is_plain_absolute(url: str) -> bool:
    """Is ``url`` an http(s) URL that ``urljoin`` returns unchanged, whatever the base?

    urljoin returns an absolute URL as it is when its scheme differs from the base's, and
    rebuilt from its parts when it is the same (taking the base's host when its own is empty:
    "http:///path"): the rebuild drops an empty query ("?" at the end or before "#"), an empty
    fragment ("#" at the end) and empty params (";"), removes tab and newline characters and
    lowercases the scheme. A URL with none of these comes back as it is either way, and most
    content links are such URLs: ``extract`` 1.4% faster on the 810 pages of ../shared/eval
    that have a URL (3.688 -> 3.635 ms, in-process A/B, 5 rounds, 2026-11-26).
    """
    if url.startswith("http://"):
        host_start = 7
    elif url.startswith("https://"):
        host_start = 8
    else:
        return False
    return url[host_start:host_start + 1] not in _NO_HOST and not url.endswith(("?", "#")) \
        and "?#" not in url and ";" not in url and "\n" not in url and "\t" not in url and "\r" not in url


# What follows "scheme://" when the URL names no host ("" at the end of the URL).
_NO_HOST = frozenset({"", "/", "?", "#"})


def _clean_attributes(element, tag: str, base_url: str | None) -> None:
    """Keep the element's KEPT_ATTRIBUTES only; drop script/data links, make the others absolute.

    Each kept value is read once and written once, in KEPT_ATTRIBUTES order (``tag``: the
    element's tag, read by the caller).
    """
    attributes = element.attrib
    if not attributes:
        return   # most content elements carry none: nothing to keep, drop or rewrite
    if tag not in KEPT_ATTRIBUTES:
        attributes.clear()   # nothing to keep (an <img> keeps its src: it is in KEPT_ATTRIBUTES)
        return
    if tag == "img" and not (element.get("src") or "").strip().lower().startswith(("http", "/", ".")) \
            and any(element.get(lazy) for lazy in LAZY_IMAGE_ATTRIBUTES):
        for lazy in LAZY_IMAGE_ATTRIBUTES:
            if element.get(lazy):
                element.set("src", element.get(lazy))
                break
    kept = {}
    for name in KEPT_ATTRIBUTES.get(tag, ()):
        value = element.get(name)
        if value is None:
            continue
        if name in _LINK_ATTRIBUTES:
            if value.strip().lower().startswith(_UNSAFE_LINK_SCHEMES):
                continue
            value = _absolute(base_url, value)
        kept[name] = value
    attributes.clear()   # clear() never validates names: hostile pages have invalid ones
    for name, value in kept.items():
        element.set(name, value)


# Attributes holding a link, and the link schemes dropped from them.
_LINK_ATTRIBUTES = frozenset({"href", "src"})
_UNSAFE_LINK_SCHEMES = ("javascript:", "data:", "vbscript:")


def _holds_only_inline(element) -> bool:
    if not (element.text or "").strip() and len(element) == 0:
        return False
    return all(child.tag not in BLOCK_LEVEL_TAGS or child.tag == "br" for child in element)


def render_html(nodes: list, base_url: str | None = None, *, keep_nodes: bool = True) -> str:
    """The content as clean HTML: structural tags only, safe attributes, absolute links.

    ``keep_nodes=False``: the nodes are moved out of their tree and changed instead of copied
    (``extract``, done with the tree by then). That saves the copy, and the walk below then
    meets elements that already have proxies (``extract`` keeps one per element, limits.py)
    instead of making one per copied element.
    """
    if not nodes:
        return ""
    if keep_nodes:
        wrapper = make_element("div")   # its tree classes its elements in C, like the page's
        for node in nodes:
            wrapper.append(copy.deepcopy(node))
    else:
        wrapper = nodes[0].makeelement("div")   # in the nodes' document: they move without a fix-up walk
        for node in nodes:
            wrapper.append(node)
    for child in wrapper:
        child.tail = None
    plan = compiled.render_plan(wrapper, BLOCK_LEVEL_TAGS, KEPT_HTML_TAGS) if compiled is not None else None
    if plan is None:
        plan = _render_plan_in_python(wrapper)
    unwanted = set()
    for element, tag, renamed in plan:
        if renamed is not None:
            tag = element.tag = renamed
        if tag not in KEPT_HTML_TAGS and element is not wrapper:
            unwanted.add(tag)
        _clean_attributes(element, tag, base_url)
    if unwanted:
        lxml.etree.strip_tags(wrapper, *unwanted)
    empty = compiled.empty_blocks(wrapper) if compiled is not None else None
    if empty is None:
        empty = [element for element in wrapper.iter("p", "li", "figure", "figcaption") if _is_empty_block(element)]
    for element in empty:   # an empty block stays empty when another one goes: found before any goes
        element.drop_tree()
    return lxml.html.tostring(wrapper, encoding="unicode", method="html")


def _render_plan_in_python(wrapper) -> list[tuple]:
    """(element, tag, new tag or None) of the elements of ``wrapper``'s tree that render_html's pass
    changes: renamed (<h1> to <h2>; a block-level tag not kept, holding only inline content, to
    <p>, a text block written as <div>), not kept, or with attributes. The reference for
    ``_fastwalk.render_plan``; decided on the tags as they are, which is what a pass renaming an
    element after its ancestors and before its children sees."""
    plan = []
    for element in wrapper.iter(lxml.etree.Element):
        tag = element.tag   # each read of .tag builds a new str: read once
        renamed = None
        if tag == "h1":
            renamed = "h2"
        elif tag in BLOCK_LEVEL_TAGS and tag not in KEPT_HTML_TAGS and element is not wrapper \
                and _holds_only_inline(element):
            renamed = "p"
        if renamed is not None or element.attrib or (tag not in KEPT_HTML_TAGS and element is not wrapper):
            plan.append((element, tag, renamed))
    return plan


def _is_empty_block(element) -> bool:
    """No text and no image inside. Its own text is looked at first: most blocks start with
    some, and ``text_content`` is an XPath call per element. The image is looked for with
    ``iter`` (in C), not with ``find``'s path language."""
    text = element.text
    if text and not text.isspace():
        return False
    if not len(element):
        return True   # no child: its blank text is all it holds
    return not element.text_content().strip() and next(element.iter("img"), None) is None
