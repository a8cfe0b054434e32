"""Read what a page says about itself: meta tags, JSON-LD, <title>, canonical, lang.

Runs on the raw tree, before scripts are removed (JSON-LD lives in <script>).
"""
from __future__ import annotations

import json
import weakref
from dataclasses import dataclass, field

import lxml.html

from .fastwalk import compiled

# The elements the page-meta, title and date searches and the cleaning read, by tag, found in one
# walk per tree (<style> and <noscript> for the texts a reader never sees, page_texts.visible_runs;
# the headings for the headline, title.py; <noscript>, <form>, <h1>, <article> and <main> for
# dom.clean_tree; <body> to know whether a tree has one, page_texts.body_text_nodes).
_TAGGED = ("meta", "script", "title", "link", "time", "style", "noscript", "h1", "h2", "form", "article", "main",
           "body")
# A <meta>'s value (content, else value or datetime) and its keys (name, property, itemprop, http-equiv).
_META_ATTRIBUTES = ("content", "value", "datetime", "name", "property", "itemprop", "http-equiv")
# The tags of texts a reader never sees, kept together too ("hidden": in document order).
_HIDDEN = frozenset({"script", "style", "noscript"})
# Per tree: {tag or "hidden": [elements in document order]}.
_TAGGED_BY_TREE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


@dataclass
class PageMeta:
    # lowercased name/property/itemprop/http-equiv -> contents in document order
    meta: dict[str, list[str]] = field(default_factory=dict)
    # JSON-LD objects, @graph members flattened, in document order
    jsonld: list[dict] = field(default_factory=list)
    title_tag: str | None = None
    canonical: str | None = None
    lang: str | None = None

    def first(self, *keys: str) -> str | None:
        """The first non-empty content of the first key present."""
        for key in keys:
            for value in self.meta.get(key, ()):
                if value and value.strip():
                    return value.strip()
        return None

    def jsonld_types(self) -> list[str]:
        types = []
        for obj in self.jsonld:
            kind = obj.get("@type")
            for name in kind if isinstance(kind, list) else [kind]:
                if isinstance(name, str):
                    types.append(name)
        return types


def _flatten_jsonld(data, out: list[dict], depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            _flatten_jsonld(item, out, depth + 1)
    elif isinstance(data, dict):
        out.append(data)
        graph = data.get("@graph")
        if graph is not None:
            _flatten_jsonld(graph, out, depth + 1)
        main = data.get("mainEntity")
        if isinstance(main, dict):
            _flatten_jsonld(main, out, depth + 1)


def tagged_elements(root: lxml.html.HtmlElement, tag: str) -> list[lxml.html.HtmlElement]:
    """The elements of the tree with one of the tags of ``_TAGGED`` (<meta>, <script>, <h1>...).

    In document order; ``tag="hidden"``: the <script>, <style> and <noscript> ones together.
    All are collected in one walk, remembered per tree (each ``root.iter(tag)``
    is a walk of its own, ~0.13 ms on an average page of ../shared/eval): read them
    on the raw tree, before cleaning changes it.
    """
    found = _TAGGED_BY_TREE.get(root)
    if found is None:
        found = compiled.tagged_elements(root, _TAGGED, _HIDDEN) if compiled is not None else None
        if found is None:
            found = {name: [] for name in _TAGGED}
            hidden = found["hidden"] = []
            for element in root.iter(*_TAGGED):
                found[element.tag].append(element)
                if element.tag in _HIDDEN:
                    hidden.append(element)
        _TAGGED_BY_TREE[root] = found
    return found[tag]


def attribute_rows(elements: list, names: tuple[str, ...]) -> list[tuple]:
    """``tuple(element.get(name) for name in names)`` of each element (one C pass over each
    element's attributes when the compiled walks are built)."""
    if compiled is not None:
        return compiled.attribute_rows(elements, names)
    return [tuple(element.get(name) for name in names) for element in elements]


def read_page_meta(root: lxml.html.HtmlElement) -> PageMeta:
    page = PageMeta()
    for content, value, moment, *keys in attribute_rows(tagged_elements(root, "meta"), _META_ATTRIBUTES):
        if content is None:
            content = value or moment
        if content is None:
            continue
        for key in keys:
            if key:
                page.meta.setdefault(key.strip().lower(), []).append(content)
    for script in tagged_elements(root, "script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json":
            continue
        raw = (script.text or "").strip()
        if not raw:
            continue
        try:
            data = json.loads(raw, strict=False)
        except ValueError:
            continue
        _flatten_jsonld(data, page.jsonld)
    titles = [title for title in tagged_elements(root, "title") if title is not root]
    title = titles[0] if titles else None
    if title is not None:
        page.title_tag = " ".join(title.text_content().split()) or None
    for link in tagged_elements(root, "link"):
        if "canonical" in (link.get("rel") or "").lower().split() and link.get("href"):
            page.canonical = link.get("href").strip()
            break
    lang = root.get("lang") or root.get("xml:lang") or page.first("content-language", "og:locale", "language")
    if lang:
        page.lang = lang.strip().replace("_", "-").split("-")[0].lower() or None
    return page
