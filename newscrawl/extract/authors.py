"""Find the article's authors: JSON-LD, meta tags, rel=author links, the byline text.

Names only (never URLs or the site name); an empty tuple when the page names none.
"""
from __future__ import annotations

import re

import lxml.html

from .metadata import PageMeta
from .named_attributes import AttributeTest, select_attributes, words_in_values
from .options import DEFAULT_OPTIONS, ExtractOptions
from .title import find_byline_anchor, following_texts, normalize_title, site_names_of

# Meta keys naming the author, best first.
_META_AUTHOR_KEYS = ("author", "article:author", "byl", "dc.creator", "dcterms.creator",
                     "parsely-author", "sailthru.author", "og:article:author", "citation_author")
# Byline phrases: "By Jane Doe", "作者：张三", "记者 李四", "Por Ana", "Par Marie", "Von Max", "Автор: ...".
_BYLINE_RE = re.compile(
    r"(?:(?:^|[\s(（|])(?:by|por|par|von|door|автор[:：]?)|作者|记者|記者|撰文|文\s*[/／|])"
    r"\s*[:：/|]?\s*(?P<names>[^\n:：|()（）【】\[\]]{2,80})",
    re.I,
)
# Where a byline's names end: a date, a source label, punctuation, another label.
_NAMES_END_RE = re.compile(
    r"\s*(?:\d|来源|來源|发布|時間|时间|日期|编辑|责编|原标题|\||,\s*(?:updated|published)|"
    r"\bupdated\b|\bpublished\b|\bon\b\s+\w+\s+\d|。|；|;).*$",
    re.I,
)
# Separators between several names.
_NAME_SPLIT_RE = re.compile(r"\s*(?:,|，|、|/|;|；|\band\b|&|\by\b|\be\b|\bet\b|\bund\b|\s{2,})\s*", re.I)
_URL_RE = re.compile(r"^(?:https?:)?//|^www\.|\.(?:com|cn|net|org)\b", re.I)
# rel=author links (the attribute axis is the cheap way to test every element in XPath),
# itemprop=author elements ...
_AUTHOR_REL = (AttributeTest("a", "rel", "author"),)
_AUTHOR_ITEMPROPS = ("author",)
# ... and class "author" / "author-name" / "byline__name" boxes.
_AUTHOR_CLASS_TOKEN = "author"
_AUTHOR_CLASS_WORDS = ("author-name", "byline__name")
# Characters of text after the headline searched for a byline.
_BYLINE_WINDOW_CHARS = 400
# Longest plausible list of names in one byline (characters).
_MAX_NAMES_CHARS = 80
# Most authors kept.
_MAX_AUTHORS = 6


def find_authors(root: lxml.html.HtmlElement | None, page: PageMeta,
                 options: ExtractOptions = DEFAULT_OPTIONS) -> tuple[str, ...]:
    site_keys = {normalize_title(n) for n in site_names_of(page)}
    sources = [lambda: _from_jsonld(page), lambda: _from_meta(page)]
    if root is not None:
        sources += [lambda: _from_elements(root), lambda: _from_byline(root, page, options)]
    for source in sources:  # each read only when the ones before it found no name
        kept = _keep_names(source(), site_keys)
        if kept:
            return kept
    return ()


def _from_jsonld(page: PageMeta) -> list[str]:
    names: list[str] = []
    for obj in page.jsonld:
        _collect_person(obj.get("author"), names)
        if names:
            break
    return names


def _collect_person(value, names: list[str]) -> None:
    if isinstance(value, str):
        names.extend(_split_names(value))
    elif isinstance(value, dict):
        name = value.get("name")
        if isinstance(name, str):
            names.extend(_split_names(name))
    elif isinstance(value, list):
        for item in value[:_MAX_AUTHORS]:
            _collect_person(item, names)


def _from_meta(page: PageMeta) -> list[str]:
    for key in _META_AUTHOR_KEYS:
        values = [v for v in page.meta.get(key, ()) if v and v.strip()]
        names = [n for v in values for n in _split_names(v)]
        if names:
            return names
    return []


def _from_elements(root: lxml.html.HtmlElement) -> list[str]:
    names: list[str] = []
    token = f" {_AUTHOR_CLASS_TOKEN} "
    classes = {value for value in words_in_values(root, "class", (_AUTHOR_CLASS_TOKEN,) + _AUTHOR_CLASS_WORDS)
               if token in f" {value} " or any(word in value for word in _AUTHOR_CLASS_WORDS)}
    chosen = {"class": classes, "itemprop": _AUTHOR_ITEMPROPS}
    for element in select_attributes(root, chosen, _AUTHOR_REL)[:_MAX_AUTHORS]:
        if element.tag == "meta":
            continue
        text = " ".join(element.text_content().split())
        text = re.sub(r"^(?:by|por|par|von)\s+", "", text, flags=re.I)
        if 1 < len(text) <= _MAX_NAMES_CHARS:
            names.extend(_split_names(text))
    return names


def _from_byline(root: lxml.html.HtmlElement, page: PageMeta, options: ExtractOptions) -> list[str]:
    headline = find_byline_anchor(root, page, options)   # the title search's, with the same options
    if headline is None:
        return []
    for text in following_texts(headline, _BYLINE_WINDOW_CHARS):
        match = _BYLINE_RE.search(text)
        if match:
            names = _NAMES_END_RE.sub("", match.group("names"))
            return _split_names(names)
    return []


def _split_names(value: str) -> list[str]:
    value = " ".join(value.split())
    if not value or _URL_RE.search(value):
        return []
    return [n.strip(" .·-") for n in _NAME_SPLIT_RE.split(value) if n and n.strip(" .·-")]


def _keep_names(names: list[str], site_keys: set[str]) -> tuple[str, ...]:
    kept: list[str] = []
    for name in names:
        if len(name) < 2 or len(name) > 60 or _URL_RE.search(name) or name.isdigit():
            continue
        if normalize_title(name) in site_keys or name in kept:
            continue
        kept.append(name)
    return tuple(kept[:_MAX_AUTHORS])
