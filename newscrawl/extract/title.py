"""Find the article's title: the headline shown on the page, never the site name.

Order: an h1/h2 or class/id "title"/"headline" element whose text
matches the start of ``<title>`` (or of og:title / JSON-LD headline), then
og:title / twitter:title / JSON-LD headline, then ``<title>`` without its
site-name part. Site names come from og:site_name, application-name and the
JSON-LD publisher.
"""
from __future__ import annotations

import functools
import re
import unicodedata
import weakref
from typing import Iterator

import lxml.etree
import lxml.html

from .fastwalk import compiled
from .metadata import PageMeta, tagged_elements
from .named_attributes import select_attributes, words_in_values
from .options import DEFAULT_OPTIONS, ExtractOptions
from .page_texts import TEXT_WALK_EVENTS, body_text_nodes, body_texts, texts_starting_with

# Words (case-sensitive) of class and id values naming a title or headline, and the itemprop
# naming it; their elements are headline candidates after h1/h2.
_TITLE_CLASS_WORDS = ("title", "Title", "headline", "Headline")
_TITLE_ID_WORDS = ("title", "Title", "headline")
_TITLE_ITEMPROPS = ("headline",)
# Tags whose text a reader never sees.
_INVISIBLE_TAGS = frozenset({"script", "style", "noscript", "template", "head", "title"})
# Per tree: (page, options, reference titles, headline element, byline anchor), so the
# title, date and author searches of one page find the headline once.
_HEADLINES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
# Runs of the whitespace of XPath normalize-space().
_XML_SPACE_RE = re.compile(r"[ \t\r\n]+")
# Text of an element outside the scripts and styles it holds.
_OWN_VISIBLE_TEXT = lxml.etree.XPath(".//text()[not(parent::script) and not(parent::style)]",
                                     smart_strings=False)
# Separators between the headline and site/channel names inside <title>.
_TITLE_SEPARATOR_RE = re.compile(
    r"\s+[-–—|·•»:/]\s+|\s*[_|｜┃»«]\s*|\s*--+\s*|\s*-\s*(?=[\u3000-\u9fff\uff00-\uffef])"
    r"|(?<=[\u3000-\u9fff\uff00-\uffef])\s*-\s*"
)
# Words that make a short <title> part a site or channel name ("网易新闻", "BBC News").
_SITE_WORD_RE = re.compile(
    r"(?:网|網|新闻|新聞|频道|頻道|日报|日報|晚报|时报|在线|官网|首页|论坛|博客|"
    r"\bnews\b|\btimes\b|\bpost\b|\bdaily\b|\btv\b|\bonline\b|\bmagazine\b|\bherald\b|"
    r"\btribune\b|\bjournal\b|\bgazette\b|\bblog\b|\.com\b|\.cn\b|\.net\b|\.org\b)",
    re.I,
)
# JSON-LD types whose headline/name is an article title.
_ARTICLE_TYPE_RE = re.compile(r"Article|Posting|Report|NewsArticle|Blog", re.I)
# Trailing truncation marks of on-page headlines ("...无敌免...").
_ELLIPSIS_RE = re.compile(r"(?:\.\.\.|…)+$")
_CJK_SPACE_RE = re.compile(r"(?<=[\u3000-\u9fff\uff00-\uffef]) | (?=[\u3000-\u9fff\uff00-\uffef])")
_QUOTES = "\"'“”‘’「」『』《》【】«»"


def find_title(root: lxml.html.HtmlElement | None, page: PageMeta,
               options: ExtractOptions = DEFAULT_OPTIONS) -> str | None:
    """The page's headline, or None when the page names none."""
    site_names = site_names_of(page)
    if root is not None:
        references, headline, _ = _page_headline(root, page, options)
        if headline is not None:
            title = _title_of_element(headline, references)
            if not _is_site_name(title, site_names):
                return title
    else:
        references = _reference_titles(page, site_names, options)
    for reference in references:
        if not _is_site_name(reference, site_names):
            return reference
    if root is not None:
        for h1 in tagged_elements(root, "h1"):
            text = visible_text(h1)
            if len(text) >= options.title_min_chars and not _is_site_name(text, site_names):
                return text
    return None


def find_headline_element(root: lxml.html.HtmlElement, page: PageMeta,
                          options: ExtractOptions = DEFAULT_OPTIONS,
                          references: list[str] | None = None) -> lxml.html.HtmlElement | None:
    """The element showing the headline: h1 first, then h2 and class/id title elements.

    An element counts when its text matches one of the page's own titles
    (<title>, og:title, JSON-LD headline, site names removed).
    """
    if references is None:
        references = _reference_titles(page, site_names_of(page), options)
    keys = [normalize_title(r) for r in references]
    keys = [k for k in keys if k]
    if not keys:
        return None
    site_keys = {normalize_title(n) for n in site_names_of(page)}
    headings = tagged_elements(root, "h1")[: options.title_max_candidates]
    headings += tagged_elements(root, "h2")[: options.title_max_candidates]
    found = _first_matching(headings, keys, site_keys, options)
    if found is not None:
        return found
    named = []
    chosen = {"class": words_in_values(root, "class", _TITLE_CLASS_WORDS),
              "id": words_in_values(root, "id", _TITLE_ID_WORDS), "itemprop": _TITLE_ITEMPROPS}
    for element in select_attributes(root, chosen)[: options.title_max_candidates]:
        if element.tag not in ("html", "body", "title", "meta") and not _in_link_list(element):
            named.append(element)
    found = _first_matching(named, keys, site_keys, options)
    if found is not None:
        return found
    return _element_with_text(root, references, options)


def _first_matching(elements, keys: list[str], site_keys: set[str],
                    options: ExtractOptions) -> lxml.html.HtmlElement | None:
    for element in elements:
        text = normalize_title(visible_text(element))
        if len(text) < options.title_min_chars or text in site_keys or len(text) > 400:
            continue
        if any(_matches(text, key, options) for key in keys):
            return element
    return None


def _in_link_list(element: lxml.html.HtmlElement) -> bool:
    """A title-classed element inside a link or list item names another page."""
    return any(a.tag in ("a", "li") for a in element.iterancestors()) or element.tag == "a"


def _element_with_text(root: lxml.html.HtmlElement, references: list[str],
                       options: ExtractOptions) -> lxml.html.HtmlElement | None:
    """The element whose own text starts one of the page's titles (old table layouts).

    The longest such text wins (a breadcrumb word also starts the title);
    it must cover ``title_min_share`` of the title's headline part.
    """
    best, best_length = None, 0
    for reference in references:
        if len(reference) < options.title_min_chars:
            continue
        shortest = max(options.title_min_chars, int(options.title_min_share * len(reference)))
        for text, parent, is_tail in _texts_starting(root, reference, options.title_min_chars):
            own = " ".join(text.split())
            if len(own) < shortest and not _TITLE_SEPARATOR_RE.match(reference, len(own)):
                continue  # short and not a whole part of the title: a breadcrumb word
            if parent is not None and is_tail:
                parent = parent.getparent()
            if parent is not None and parent.tag == "a" and _is_heading(parent.getparent()):
                parent = parent.getparent()  # <h3><a href=self>Headline</a></h3>
            if parent is None or parent.tag in ("title", "a", "option", "script", "style"):
                continue
            length = len(own)
            if length > best_length:
                best, best_length = parent, length
        if best is not None:
            return best
    return None


def _texts_starting(root: lxml.html.HtmlElement, reference: str, min_chars: int) -> list[tuple]:
    """Body text nodes of at least ``min_chars`` that start ``reference``, whitespace normalized,
    as (text, the element it belongs to, whether it is that element's tail).

    Such a text starts, after its leading whitespace, with the reference's first
    ``min_chars`` characters up to their first whitespace: only the texts starting
    so are normalized and compared. Finding and checking them: 148 -> 52 us a page,
    against the texts holding that word anywhere (every reference of 2,405 pages of
    ../shared/eval, 2026-11-26, both timed in turn on the same index, the same texts).
    With the compiled walks, one C walk finds the texts starting so.
    """
    head = reference[:min_chars]
    if not head.split():
        return []
    word = _XML_SPACE_RE.split(head, 1)[0]
    starting = compiled.body_texts_starting(root, word) if compiled is not None and word else None
    if starting is not None:
        return [found for found in starting if _starts_reference(found[0], reference, min_chars)]
    texts = body_texts(root)
    chosen = [index for index in texts_starting_with(root, word) if _starts_reference(texts[index], reference, min_chars)]
    return [(str(node), node.getparent(), node.is_tail) for node in body_text_nodes(root, chosen)]


def _starts_reference(text: str, reference: str, min_chars: int) -> bool:
    own = _XML_SPACE_RE.sub(" ", text).strip(" ")
    return len(own) >= min_chars and reference.startswith(own)


def _is_heading(element: lxml.html.HtmlElement | None) -> bool:
    return element is not None and element.tag in ("h1", "h2", "h3", "h4", "h5", "h6")


def visible_text(element: lxml.html.HtmlElement) -> str:
    """The element's text without the scripts and styles inside it, whitespace collapsed."""
    if next(element.iter("script", "style"), None) is None:
        return _clean_text(" ".join(element.itertext()))  # the same texts, without an XPath call
    return _clean_text(" ".join(_OWN_VISIBLE_TEXT(element)))


def _title_of_element(element: lxml.html.HtmlElement, references: list[str]) -> str:
    """The headline element's text; the page's own title when the element adds labels to it.

    "原创 Headline" or "Headline 发布时间：..." shown in one element give "Headline"
    when <title>/og:title says so; a displayed, shorter (truncated) text is kept.
    """
    text = visible_text(element)
    key = normalize_title(text)
    inside = [r for r in references if normalize_title(r) and normalize_title(r) in key]
    if not inside:
        return text
    longest = max(inside, key=lambda r: len(normalize_title(r)))
    return text if normalize_title(longest) == key else longest


def find_byline_anchor(root: lxml.html.HtmlElement, page: PageMeta,
                       options: ExtractOptions = DEFAULT_OPTIONS) -> lxml.html.HtmlElement | None:
    """The headline element, else the first h1: the byline (date, authors) sits next to it.

    Remembered per tree: the title, date and author searches of one page share it.
    """
    return _page_headline(root, page, options)[2]


def _page_headline(root: lxml.html.HtmlElement, page: PageMeta, options: ExtractOptions
                   ) -> tuple[list[str], lxml.html.HtmlElement | None, lxml.html.HtmlElement | None]:
    """(reference titles, headline element, byline anchor) of a page, found once per tree."""
    cached = _HEADLINES.get(root)
    if cached is not None and cached[0] is page and cached[1] is options:
        return cached[2:]
    references = _reference_titles(page, site_names_of(page), options)
    headline = find_headline_element(root, page, options, references=references)
    anchor = headline if headline is not None else first_h1(root)
    _HEADLINES[root] = (page, options, references, headline, anchor)
    return references, headline, anchor


def following_texts(element: lxml.html.HtmlElement, max_chars: int, skip=None) -> list[str]:
    """Visible text runs after ``element`` (not inside it), in document order, ~max_chars.

    Walks siblings, then the parents' siblings, so only the window is visited.
    ``skip(element)`` drops whole blocks (comments, link lists): the date search's is_foreign,
    which says no to an element outside ``dates.patterns.FOREIGN_BLOCK_TAGS`` with no class or
    id; the C walk does not ask it about those. Walked in C when the compiled walks are built
    (``iter_following_texts`` is the reference).
    """
    if compiled is not None:
        runs = compiled.following_runs(element, max_chars, skip, _INVISIBLE_TAGS)
        if runs is not None:   # the same runs, walked in C (skip asked in the same order)
            return runs
    return list(iter_following_texts(element, max_chars, skip))


def iter_following_texts(element: lxml.html.HtmlElement, max_chars: int, skip=None) -> Iterator[str]:
    """The runs of ``following_texts``, walked only as far as the caller reads."""
    runs: list[str] = []
    size = 0
    node = element
    while node is not None and size < max_chars:
        size = _add_run(runs, node.tail, size)
        yield from runs
        runs.clear()
        if size >= max_chars:
            return
        for sibling in node.itersiblings():
            for text in _block_texts(sibling, skip):
                size = _add_run(runs, text, size)
                yield from runs
                runs.clear()
                if size >= max_chars:
                    return
        node = node.getparent()


def _block_texts(block, skip=None) -> Iterator[str]:
    """The text nodes of a block and its tail in document order, invisible and skipped elements
    left out (their tails kept).

    One ``iterwalk`` (lxml's walk in C, a skipped element never entered) instead of a stack of
    tuples: following_texts 0.089 -> 0.068 ms a call (the byline anchors of 2,143 pages of
    ../shared/eval, 2026-11-26, both walks timed in turn, the same runs on every page).
    """
    tag = block.tag
    if not isinstance(tag, str) or tag in _INVISIBLE_TAGS or (skip is not None and skip(block)):
        if block.tail:
            yield block.tail
        return
    walker = lxml.etree.iterwalk(block, events=TEXT_WALK_EVENTS)
    for event, item in walker:
        if event == "start":
            if item is not block and (item.tag in _INVISIBLE_TAGS or (skip is not None and skip(item))):
                walker.skip_subtree()  # its "end" still comes: its tail is read there
                continue
            text = item.text
        else:  # the end of an element, or a comment or processing instruction: the tail
            text = item.tail
        if text:
            yield text


def preceding_texts(element: lxml.html.HtmlElement, max_chars: int, skip=None) -> list[str]:
    """Visible text runs before ``element``, nearest first, ~max_chars (walked in C when the
    compiled walks are built; this Python walk is the reference). ``skip``: as for
    ``following_texts``."""
    if compiled is not None:
        found = compiled.preceding_runs(element, max_chars, skip, _INVISIBLE_TAGS)
        if found is not None:
            return found
    runs: list[str] = []
    size = 0
    node = element
    while node is not None and size < max_chars:
        for sibling in node.itersiblings(preceding=True):
            # reverse document order: a node's tail, its children backwards, then its text
            stack = [(sibling, False)]
            while stack:
                item, opened = stack.pop()
                if opened:
                    text = item.text
                else:
                    text = item.tail
                    tag = item.tag
                    if isinstance(tag, str) and tag not in _INVISIBLE_TAGS and (skip is None or not skip(item)):
                        stack.append((item, True))
                        stack.extend((child, False) for child in item)
                if text:
                    size = _add_run(runs, text, size)
                    if size >= max_chars:
                        return runs
        node = node.getparent()
        if node is not None and node.text and node.text.strip():
            runs.append(" ".join(node.text.split()))
            size += len(runs[-1]) + 1
    return runs


def _add_run(runs: list[str], text: str | None, size: int) -> int:
    """Append the whitespace-collapsed text when it has any; the new total size."""
    if text:
        collapsed = " ".join(text.split())
        if collapsed:
            runs.append(collapsed)
            return size + len(collapsed) + 1
    return size


def first_h1(root: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    """The first h1 with text (the byline usually follows it)."""
    for h1 in tagged_elements(root, "h1"):
        if _clean_text(h1.text_content()):
            return h1
    return None


def site_names_of(page: PageMeta) -> list[str]:
    """Names the page gives its site (og:site_name, application-name, publisher)."""
    names = []
    for key in ("og:site_name", "application-name", "apple-mobile-web-app-title",
                "twitter:site", "al:android:app_name", "al:ios:app_name", "publisher"):
        for value in page.meta.get(key, ()):
            value = _clean_text(value).lstrip("@")
            if value:
                names.append(value)
    for obj in page.jsonld:
        publisher = obj.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(_clean_text(publisher["name"]))
        if obj.get("@type") in ("WebSite", "Organization", "NewsMediaOrganization") \
                and isinstance(obj.get("name"), str):
            names.append(_clean_text(obj["name"]))
    return [n for n in names if n]


def strip_site_name(title: str, site_names: list[str],
                    options: ExtractOptions = DEFAULT_OPTIONS) -> str:
    """``<title>`` without the site/channel parts ("_新浪网", "- BBC News", "Site | ")."""
    title = _clean_text(title)
    parts = [p for p in _TITLE_SEPARATOR_RE.split(title) if p and p.strip()]
    if len(parts) < 2:
        return title
    site_keys = {normalize_title(n) for n in site_names}
    keep = [not _part_is_site(p, site_keys) for p in parts]
    if not any(keep):
        return title
    longest = max(len(p) for p, k in zip(parts, keep) if k)
    start, end = 0, len(parts)
    while start < end and (not keep[start] or _is_short_part(parts[start], longest, options)):
        start += 1
    while end > start and (not keep[end - 1] or _is_short_part(parts[end - 1], longest, options)):
        end -= 1
    if start >= end:
        return max((p for p, k in zip(parts, keep) if k), key=len)
    return _join_span(title, parts[start], parts[end - 1])


@functools.lru_cache(maxsize=4096)
def normalize_title(text: str | None) -> str:
    """Comparison key: NFKC, casefolded, spaces next to CJK and outer quotes removed.

    Cached: a page compares the same few titles and site names many times.
    """
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text)
    text = " ".join(text.split()).casefold()
    text = _CJK_SPACE_RE.sub("", text)
    return text.strip(_QUOTES + " .。!！?？:：|-–—_")


def _reference_titles(page: PageMeta, site_names: list[str], options: ExtractOptions) -> list[str]:
    """The page's own titles, site names removed, best first: og, twitter, JSON-LD, <title>."""
    raw = [page.first("og:title"), page.first("twitter:title"), _jsonld_headline(page),
           page.first("headline", "title", "dc.title", "sailthru.title"), page.title_tag]
    references = []
    for value in raw:
        if not value:
            continue
        cleaned = strip_site_name(value, site_names, options)
        if cleaned and cleaned not in references:
            references.append(cleaned)
    return references


def _jsonld_headline(page: PageMeta) -> str | None:
    for obj in page.jsonld:
        kind = obj.get("@type")
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(isinstance(k, str) and _ARTICLE_TYPE_RE.search(k) for k in kinds):
            continue
        for key in ("headline", "name", "alternativeHeadline"):
            value = obj.get(key)
            if isinstance(value, str) and value.strip():
                return _clean_text(value)
    return None


def _matches(text: str, key: str, options: ExtractOptions) -> bool:
    """Headline text matches a reference title (start, whole, or displayed truncated)."""
    stem = _ELLIPSIS_RE.sub("", text).rstrip()
    if not stem:
        return False
    if key.startswith(stem):
        return len(stem) >= options.title_min_share * len(key)
    if stem.startswith(key):
        # the headline element also shows the byline ("Headline 发布时间：...")
        return len(stem) <= 2 * len(key) + options.title_max_label_chars
    if key in stem:
        # a label shown before the headline ("原创", "独家")
        return len(stem) <= len(key) + options.title_max_label_chars
    if stem in key:
        return len(stem) >= max(0.8, options.title_min_share) * len(key)
    return False


def _part_is_site(part: str, site_keys: set[str]) -> bool:
    key = normalize_title(part)
    if not key:
        return True
    return any(key == s or (s and (s in key or key in s) and len(key) <= len(s) + 6) for s in site_keys)


def _is_short_part(part: str, longest: int, options: ExtractOptions) -> bool:
    if len(part) == longest:
        return False
    return len(part) <= options.title_suffix_max_share * longest or bool(
        _SITE_WORD_RE.search(part) and len(part) <= 30)


def _join_span(title: str, first: str, last: str) -> str:
    start = title.find(first)
    end = title.rfind(last)
    if start < 0 or end < 0 or end + len(last) <= start:
        return first
    return title[start:end + len(last)].strip()


def _is_site_name(text: str, site_names: list[str]) -> bool:
    key = normalize_title(text)
    return any(key == normalize_title(n) for n in site_names)


def _clean_text(text: str | None) -> str:
    return " ".join((text or "").split())
