"""Decode page bytes like a browser, parse them with lxml, and clean the tree."""
from __future__ import annotations

import codecs
import functools
import re
import weakref
from typing import NamedTuple

import lxml.etree
import lxml.html

from .fastwalk import compiled
from .metadata import tagged_elements
from .names import judge_named_blocks
from .options import ExtractOptions
from .revealed import revealed_article
from .patterns import (
    CHARSET_ALIASES,
    CHARSET_META_RE,
    HIDDEN_CLASS_TOKENS,
    HIDDEN_STYLE_RE,
    NOISE_TAGS,
    UNLIKELY_BLOCK_RE,
    UNLIKELY_BLOCK_ASCII_RE,
    LIKELY_BLOCK_RE,
    LIKELY_BLOCK_ASCII_RE,
    FORM_FIELD_TAGS,
    ARTICLE_MARKER_ITEMPROP,
    ARTICLE_MARKER_TAGS,
    COMMENT_BLOCK_RE,
    COMMENT_BLOCK_TOKEN,
    COMMENT_BLOCK_TOKEN_RE,
    COMMENT_BLOCK_WORDS,
    PAGE_WRAPPER_MAX_LEVELS,
    SECTION_SLUG_MIN_WORDS,
)

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CONTROL_CHARS_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Its ASCII characters as bytes, for bytes.translate.
_CONTROL_BYTES = bytes(range(0x00, 0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20))


def _html_parser(encoding: str | None = None) -> lxml.etree.HTMLParser:
    """lxml.html's parser, with the element classes chosen in C.

    ``lxml.html.document_fromstring``'s own parser asks a Python method for the class
    of every element proxy lxml creates (9% of a profiled run over ../shared/eval);
    this lookup gives every element ``HtmlElement`` without calling Python. Only the
    form-field classes (FormElement, InputElement...) are lost, which nothing here uses.
    No table of the id attributes is built (``collect_ids``): nothing here asks for an
    element by its id, and building it took 3.5% of the parse (1.19 -> 1.15 ms a page of
    ../shared/eval, 2026-11-22).
    """
    parser = lxml.etree.HTMLParser(encoding=encoding, collect_ids=False)
    parser.set_element_class_lookup(lxml.etree.ElementDefaultClassLookup(
        element=lxml.html.HtmlElement, comment=lxml.html.HtmlComment,
        pi=lxml.html.HtmlProcessingInstruction, entity=lxml.html.HtmlEntity))
    return parser


_HTML_PARSER = _html_parser()
# The same parser for a page given as UTF-8 bytes: libxml2 reads them without converting a
# str's UCS-2/UCS-4 buffer first (0.08 ms of 1.1 a page of ../shared/eval, 2026-11-22: 7%),
# and builds the same tree.
_UTF8_PARSER = _html_parser(encoding="utf-8")


def make_element(tag: str) -> lxml.html.HtmlElement:
    """A new element, in a tree of its own made by the extractor's parser (see _html_parser)."""
    return _HTML_PARSER.makeelement(tag)


def normalize_charset(name: str | None) -> str | None:
    """Map a declared charset to the Python codec a browser would use, or None."""
    if not name:
        return None
    name = name.strip().strip("'\"").lower()
    name = CHARSET_ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


CHARSET_HEAD_BYTES = 4096  # the page's first bytes searched for a <meta> charset declaration


def decode_html(data: bytes, declared: str | None = None, head_bytes: int = CHARSET_HEAD_BYTES) -> str:
    """Decode page bytes: BOM, caller's charset, <meta> charset, UTF-8, GB18030.

    The order follows the HTML standard's encoding sniffing, with GB18030 as
    the last resort because it decodes GBK and GB2312 pages (the common
    undeclared legacy encodings of our Chinese sites).
    """
    return _decoded(data, declared, head_bytes)[0]


def decoded_page(data: bytes, declared: str | None = None) -> str:
    """``without_control_chars(decode_html(data, declared))``: the text ``parse_html`` parses. A page
    decoded as UTF-8 is checked for control characters in its own bytes, not encoded again for it."""
    text, utf8 = _decoded(data, declared, CHARSET_HEAD_BYTES)
    return _without_control_chars(text, utf8)[0]


def _decoded(data: bytes, declared: str | None, head_bytes: int) -> tuple[str, bytes | None]:
    """decode_html's text, and ``data`` when that is the text's UTF-8 (decoded as UTF-8 without
    error, which gives back the same bytes encoded), else None."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(encoding, errors="replace"), None
    candidates = [normalize_charset(declared)]
    match = CHARSET_META_RE.search(data[:head_bytes])
    if match:
        candidates.append(normalize_charset((match.group(1) or match.group(2)).decode("ascii", "ignore")))
    for candidate in candidates:
        if candidate:
            try:
                return data.decode(candidate), data if candidate == "utf-8" else None
            except UnicodeDecodeError:
                continue
    for encoding in ("utf-8", "gb18030"):
        try:
            return data.decode(encoding), data if encoding == "utf-8" else None
        except UnicodeDecodeError:
            continue
    best = next((e for e in candidates if e), "utf-8")
    return data.decode(best, errors="replace"), None


# The start of an XML declaration, after whitespace (\s: str.isspace's whitespace, which
# lstrip() strips), and the whole declaration: read without copying the page.
_XML_DECLARATION_START_RE = re.compile(r"\s*<\?xml")
_XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*\?>")


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """Parse a page into an lxml tree; None when there is nothing to parse."""
    html, data = _without_control_chars(html)
    if not html or html.isspace():   # not html.strip(): no copy of the page
        return None
    if _XML_DECLARATION_START_RE.match(html):
        # lxml refuses str input with an encoding declaration
        html = _XML_DECLARATION_RE.sub("", html, count=1)
        data = None
    try:
        if data is None:
            root = lxml.html.document_fromstring(html, parser=_HTML_PARSER)
        else:
            root = lxml.html.document_fromstring(data, parser=_UTF8_PARSER)
    except (lxml.etree.ParserError, ValueError):
        return None
    if next(root.iterchildren("body"), None) is None:   # root.find: ElementPath's Python code
        root = _reparse_body(root, html)
    _PARSED_SOURCES[root] = html
    return root


# Per tree made by parse_html: the text it was parsed from (parsed_source).
_PARSED_SOURCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def parsed_source(root: lxml.html.HtmlElement) -> str | None:
    """The text ``parse_html`` parsed ``root``'s tree from (control characters removed);
    None for a tree made otherwise.

    Every tag and attribute name of the tree is written in it (in any case: libxml2
    lowercases them), so a name absent from it is absent from the tree.
    """
    return _PARSED_SOURCES.get(root)


def without_control_chars(html: str) -> str:
    """The page without the control characters lxml refuses: the text ``parse_html`` parses."""
    return _without_control_chars(html)[0]


def _without_control_chars(html: str, encoded: bytes | None = None) -> tuple[str, bytes | None]:
    """The page without the control characters lxml refuses in a str, and its UTF-8 bytes.

    Most pages hold none, which is checked on the UTF-8 bytes (a UTF-8 byte below 0x20 is
    always that character itself): in one C loop when the compiled walks are built, else with
    bytes.translate, 2.4x faster than the regex.
    The bytes are parsed (``_UTF8_PARSER``); they are None when the page holds lone
    surrogates (libxml2 drops what follows one in a str, not in bytes) or control characters.
    ``encoded``: the page's UTF-8 bytes when the caller has them (not encoded again).
    """
    data = encoded
    if data is None:
        try:
            data = html.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates
            data = None
    checked = data if data is not None else html.encode("utf-8", "surrogatepass")
    if compiled is not None:
        clean = not compiled.holds_control_characters(checked)
    else:
        clean = len(checked.translate(None, _CONTROL_BYTES)) == len(checked) and "\ufffe" not in html \
            and "\uffff" not in html
    if clean:
        return html, data
    return _CONTROL_CHARS_RE.sub("", html), None


_BODY_START_RE = re.compile(r"<body[\s>]", re.I)


def _reparse_body(root: lxml.html.HtmlElement, html: str) -> lxml.html.HtmlElement:
    """libxml2 sometimes loses the whole <body> after a quirky <head>; parse it alone."""
    match = _BODY_START_RE.search(html)
    if not match:
        return root
    try:
        body_root = lxml.html.document_fromstring(html[match.start():], parser=_HTML_PARSER)
    except (lxml.etree.ParserError, ValueError):
        return root
    head = root.find("head")
    if head is not None and body_root.find("head") is None:
        body_root.insert(0, head)
    for name, value in root.attrib.items():
        body_root.set(name, value)
    return body_root


def _names_hiding_class(classes: str) -> bool:
    """Does a class attribute name a CSS class that hides the element?"""
    return not HIDDEN_CLASS_TOKENS.isdisjoint(classes.lower().split())


has_hidden_class = functools.lru_cache(maxsize=4096)(_names_hiding_class)   # pages repeat their classes


def clean_tree(root: lxml.html.HtmlElement, options: ExtractOptions, keep=()) -> list:
    """Remove what never belongs to an article, in place; return the suspects: blocks named like
    boilerplate kept for the prose they hold (names.py), for the density pass to weigh. ``keep``:
    elements kept with their wrappers whatever their names (the JSON-LD body's, declared.py).

    Script/style/iframe/noscript/comments and form fields go with
    ``strip_elements`` (C speed). Then noise forms and hidden elements, and blocks whose class/id
    names boilerplate (share bars, comments, related links, cookie notices...) when their counts
    agree with the name (names.judge_named_blocks).

    The <noscript>, <form> and article-marker elements are those of the per-tree tag walk
    (``metadata.tagged_elements``), not found by walks of their own (each ``root.iter(tag)``
    walks the whole tree): call it on a tree not grown since its first search. An element
    listed there but removed since (by ``strip_elements`` here, or by
    ``remove_noise_blocks``) is only changed or dropped inside its removed subtree, so
    the tree is cleaned the same. ``keep``: elements held like the article markers, with their
    ancestors (the element covering the page's declared body and its paragraphs, declared.py).
    """
    _unwrap_text_noscripts(root, options)
    lxml.etree.strip_elements(root, *NOISE_TAGS, *FORM_FIELD_TAGS, lxml.etree.Comment,
                              lxml.etree.ProcessingInstruction, with_tail=False)
    doomed = [form for form in tagged_elements(root, "form") if _form_is_noise(form, options)]
    hidden, named, reviewed, markers = _classify_named_elements(root, options)
    revealed = revealed_article(root, hidden, options)
    if revealed is not None:   # kept as the article, and its wrappers with it
        hidden = [element for element in hidden if element is not revealed]
        markers = [*markers, revealed]
    if keep:
        markers = [*markers, *keep]
    doomed += hidden
    if not (named or reviewed):
        drop_elements(root, doomed)
        return []
    protected = _article_holders(root, markers)
    candidates = [element for element in named if element not in protected]
    comment_sections: list = []
    for element in reviewed:
        if element not in protected and not _is_heading_section(element):
            candidates.append(element)
            comment_sections.extend(block for block in comment_section_after(element) if block not in protected)
    drop_elements(root, doomed)
    verdicts = judge_named_blocks(root, candidates, options)
    drop_elements(root, verdicts.doomed + comment_sections)
    return [element for element in verdicts.suspects if element.getparent() is not None]


def _classify_named_elements(root: lxml.html.HtmlElement, options: ExtractOptions
                             ) -> tuple[list, list, list, list]:
    """(hidden elements, elements named like boilerplate, those of them to review, elements with the
    marker itemprop), in document order. Reviewed are the named elements that may be a heading
    section or a comments heading (``_may_be_kept_or_widened``), the others need no second look.

    The elements holding one of the judged attributes come with their values from one walk, in C
    when it is built (fastwalk.py): there the distinct values are judged once each (pages repeat
    their classes), then the C side sorts the elements by verdict, making proxies only for the
    kept ones. Twice as fast as the XPath ``//*[@class or @id or ...]``, where libxml2 builds a
    node set per attribute test.
    """
    found = compiled.cleaning_attributes(root) if compiled is not None else None
    values, rows = found if found is not None else _cleaning_attributes_in_python(root)
    # a row is the element's 7 values before check_names (mypy cannot count a tuple's items)
    verdicts = [_cleaning_verdict(*row, options.remove_unlikely) for row in values]  # type: ignore[call-arg]
    return rows.sort(verdicts, _HIDDEN, _NAMED, _REVIEWED, _MARKER)


# What _cleaning_verdict says of an element (bits): named like boilerplate is _NAMED, or
# _REVIEWED when the element may still be kept or take its siblings with it.
_MARKER, _HIDDEN, _NAMED, _REVIEWED = 1, 2, 4, 8


def _cleaning_verdict(tag: str, classes: str | None, ident: str | None, style: str | None, has_hidden: bool,
                      aria_hidden: str | None, itemprop: str | None, check_names: bool) -> int:
    """Does the element carry the article marker, is it hidden, is it named like boilerplate?

    A hidden element is not tested for its name. An id that names boilerplate and no content is
    enough, whatever the class adds: class lists carry styling words that hold a content word
    ("blq-foot-text-dark" holds "text"), an id names the page region (BBC's footer id="blq-foot",
    whose browser notice was chosen as the article of a short video page). Token F1 dragnet
    +0.0006 (7 pages changed: one from 0 to 0.92, six by -0.002 to -0.013, where a site tagline
    came back), readability +0.00005, others unchanged (2026-11-26).
    """
    verdict = _MARKER if itemprop == ARTICLE_MARKER_ITEMPROP else 0
    if has_hidden or aria_hidden == "true" or (style and HIDDEN_STYLE_RE.search(style) is not None):
        return verdict | _HIDDEN
    if ident:
        classes = classes or ""
        if has_hidden_class(classes):
            return verdict | _HIDDEN
        if check_names and tag not in _NEVER_UNLIKELY_TAGS and \
                (is_unlikely_name(ident) or is_unlikely_name(f"{classes} {ident}")):
            return verdict | (_REVIEWED if _may_be_kept_or_widened(tag, classes, ident) else _NAMED)
        return verdict
    class_verdict = _class_verdict(classes or "")
    if class_verdict == _HIDING_CLASS:
        return verdict | _HIDDEN
    if class_verdict == _UNLIKELY_CLASS and check_names and tag not in _NEVER_UNLIKELY_TAGS:
        return verdict | (_REVIEWED if _may_be_kept_or_widened(tag, classes, None) else _NAMED)
    return verdict


def _may_be_kept_or_widened(tag: str, classes: str | None, ident: str | None) -> bool:
    """Could an element named like boilerplate be a heading section (``_is_heading_section``: an id
    of enough words) or a comments heading (``comment_section_after``: h2-h4)? Those two rules
    read the element's children or siblings; for the other named elements (almost all) clean_tree
    skips them."""
    return (ident is not None and ident.count("-") + 1 >= SECTION_SLUG_MIN_WORDS) or tag in _SECTION_HEADING_TAGS


def _cleaning_attributes_in_python(root: lxml.html.HtmlElement) -> tuple[list[tuple], "_RowsInPython"]:
    """``_fastwalk.cleaning_attributes`` walking the proxies (the reference): the distinct
    (tag, class, id, style, has a hidden attribute, aria-hidden, itemprop) of the elements holding
    one of those attributes, in the order first met, and those elements with the index of their row.

    One read of each element's attribute names (``keys()``), then only the values of those with
    a judged attribute (``items()`` would build every value, long links too). An element whose
    only attribute is a class (58% of those over ../shared/eval) needs no other read. Every proxy
    is held until the walk is done, so they are freed deepest first (see DensityTable: proxies
    freed as the walk goes cost O(depth) each, minutes on a 100,000-deep tree).
    """
    values: list[tuple] = []
    elements: list = []
    kinds: list = []
    seen: dict[tuple, int] = {}
    every = list(root.iter(lxml.etree.Element))
    for element in every:
        keys = element.keys()
        if keys == _CLASS_ONLY:
            row = (element.tag, element.get("class"), None, None, False, None, None)
        elif not _CLEANING_ATTRIBUTES.isdisjoint(keys):
            get = element.get
            row = (element.tag, get("class"), get("id"), get("style"), "hidden" in keys,
                   get("aria-hidden"), get("itemprop"))
        else:
            continue
        kind = seen.get(row)
        if kind is None:
            kind = seen[row] = len(values)
            values.append(row)
        elements.append(element)
        kinds.append(kind)
    return values, _RowsInPython(elements, kinds)


class _RowsInPython(NamedTuple):
    """The elements of ``_cleaning_attributes_in_python``'s rows, each with the index of its
    distinct values (the reference for ``_fastwalk._Rows``)."""
    elements: list
    kinds: list[int]

    def sort(self, verdicts: list[int], hidden_bit: int, named_bit: int, reviewed_bit: int,
             marker_bit: int) -> tuple[list, list, list, list]:
        """(hidden, named, reviewed, marked) elements in document order, by the verdict of each
        row's values (bits: hidden wins over named, named over reviewed; marked goes with any)."""
        hidden, named, reviewed, marked = [], [], [], []
        for element, kind in zip(self.elements, self.kinds):
            verdict = verdicts[kind]
            if verdict & marker_bit:
                marked.append(element)
            if verdict & hidden_bit:
                hidden.append(element)
            elif verdict & named_bit:
                named.append(element)
            elif verdict & reviewed_bit:
                reviewed.append(element)
        return hidden, named, reviewed, marked


# What the class of an element without an id says (_class_verdict).
_PLAIN_CLASS, _HIDING_CLASS, _UNLIKELY_CLASS = 0, 1, 2


@functools.lru_cache(maxsize=8192)
def _class_verdict(classes: str) -> int:
    """Does a class attribute (of an element without an id) hide the element, or name
    boilerplate? One cached call for the two tests of clean_tree (cached: pages repeat their classes).
    It calls the tests uncached: their caches would only hold these classes a second time."""
    if _names_hiding_class(classes):
        return _HIDING_CLASS
    return _UNLIKELY_CLASS if _names_boilerplate(f"{classes} ") else _PLAIN_CLASS


# The tag drop_elements gives the elements it removes. No parsed element has it: libxml2's HTML
# parser writes tag names in lowercase.
_DROPPED_TAG = "NEWSCRAWL-DROPPED"


def drop_elements(root: lxml.html.HtmlElement, doomed: list) -> None:
    """``drop_tree`` every element of ``doomed`` that is in ``root``'s tree (root included).

    The elements are renamed and removed by one ``strip_elements`` walk in C, which keeps
    their tails in place as ``drop_tree`` does and never visits an element inside a removed
    one (``drop_tree`` is a Python call each, and a block inside a dropped block was
    dropped again from the removed subtree).
    """
    drop_root = False
    for element in doomed:
        if element is root:
            drop_root = root.getparent() is not None
        elif element.getparent() is not None:
            element.tag = _DROPPED_TAG
    lxml.etree.strip_elements(root, _DROPPED_TAG, with_tail=False)
    if drop_root:
        root.drop_tree()


def collapsed_texts(elements: list) -> list[str]:
    """``collapsed_text`` of each element (in C when the compiled walks are built)."""
    texts = compiled.collapsed_texts(elements) if compiled is not None else None
    if texts is None:
        texts = [collapsed_text(element) for element in elements]
    return texts


def collapsed_text(element: lxml.html.HtmlElement) -> str:
    """The element's text with each run of whitespace made one space, none at the ends."""
    return " ".join(text_of(element).split())


def text_of(element: lxml.html.HtmlElement) -> str:
    """``element.text_content()``, read from ``element.text`` when it has no child: the whole
    text then, without the XPath call (~10x faster; half the short blocks the content rules read)."""
    if len(element):
        return element.text_content()
    return element.text or ""


def _is_heading_section(element: lxml.html.HtmlElement) -> bool:
    """A document section whose id is its heading's text slugified, of SECTION_SLUG_MIN_WORDS words
    or more (docutils and Sphinx: id="sharing-with-a-single-developer" over "Sharing with a single
    developer"): the id says what the section is about, not that it is boilerplate. A
    boilerplate class name still counts."""
    ident = element.get("id")
    if not ident or ident.count("-") + 1 < SECTION_SLUG_MIN_WORDS or is_unlikely_name(element.get("class", "")):
        return False
    for child in element:   # the first child element must be the heading
        if child.tag not in _SLUG_HEADING_TAGS:
            return False
        return _SLUG_SEPARATORS_RE.sub("-", child.text_content().lower()).strip("-") == ident.lower()
    return False


_SLUG_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SLUG_SEPARATORS_RE = re.compile(r"[^0-9a-z]+")


def comment_section_after(element: lxml.html.HtmlElement) -> list:
    """The blocks after a heading named as the comments section (Movable Type's
    ``<h2 id="comments">``, then one block per comment): what follows it in its parent,
    except blocks named like content (a comment count heading above a post's body).

    Token F1 dragnet 0.9200 -> 0.9210, htmltotext 0.9016 -> 0.9045, cleaneval 0.9054 -> 0.9049
    (one page: CleanEval's gold keeps reader comments), others unchanged (``benchmarks/accuracy.py``
    with and without this rule, 7 sets of ../shared/eval, 2026-11-22).
    """
    if element.tag not in _SECTION_HEADING_TAGS or not COMMENT_BLOCK_RE.search(_names(element)):
        return []
    return [block for block in element.itersiblings() if not LIKELY_BLOCK_RE.search(_names(block))]


def _names(element: lxml.html.HtmlElement) -> str:
    return f"{element.get('class', '')} {element.get('id', '')}"


_SECTION_HEADING_TAGS = frozenset({"h2", "h3", "h4"})


def _unwrap_text_noscripts(root: lxml.html.HtmlElement, options: ExtractOptions) -> None:
    """Keep the content of a <noscript> that holds a text, not a notice or a tracking pixel.

    Pages that render their article with a script put the same article in a <noscript>
    for readers without it; that copy is the only one in the HTML.
    """
    for noscript in tagged_elements(root, "noscript"):
        if noscript.getparent() is None:
            continue   # removed from the tree (remove_noise_blocks), or the root: nothing to unwrap into
        chars = 0
        for text in noscript.itertext():
            chars += len(text.strip())
            if chars >= options.noscript_keep_min_chars:
                noscript.drop_tag()
                break


# The attributes read by clean_tree's rules.
_CLEANING_ATTRIBUTES = frozenset({"class", "id", "style", "hidden", "aria-hidden", "itemprop"})
_NEVER_UNLIKELY_TAGS = frozenset({"html", "body", "article", "main"})
_CLASS_ONLY = ["class"]   # the attribute names (keys()) of an element with a class and nothing else


def _names_boilerplate(names: str) -> bool:
    """Does a class/id string name a boilerplate block?

    UNLIKELY_BLOCK_RE is searched with a space in front: its short tokens follow a separator.
    """
    if not names.strip():
        return False
    if names.isascii():
        lowered = names.lower()
        if _names_comment_block(lowered):
            return True
        return bool(UNLIKELY_BLOCK_ASCII_RE.search(f" {lowered}")) and not LIKELY_BLOCK_ASCII_RE.search(lowered)
    if COMMENT_BLOCK_RE.search(names):
        return True
    return bool(UNLIKELY_BLOCK_RE.search(f" {names}")) and not LIKELY_BLOCK_RE.search(names)


is_unlikely_name = functools.lru_cache(maxsize=8192)(_names_boilerplate)   # pages repeat their names


def _names_comment_block(lowered: str) -> bool:
    """``COMMENT_BLOCK_RE.search`` on lowercased ASCII names, its words found with ``in``."""
    for word in COMMENT_BLOCK_WORDS:
        if word in lowered:
            return True
    return COMMENT_BLOCK_TOKEN in lowered and COMMENT_BLOCK_TOKEN_RE.search(lowered) is not None


def _article_holders(root: lxml.html.HtmlElement, marked: list) -> set:
    """The headline, article elements and all their ancestors: blocks named like
    boilerplate that wrap them are layout boxes, not boilerplate.

    ``marked``: the elements with the marker itemprop (found by _classify_named_elements).
    """
    holders: set = set(_page_wrappers(root))
    markers = [element for tag in ARTICLE_MARKER_TAGS for element in tagged_elements(root, tag)]
    for marker in [*markers, *marked]:
        if marker in holders:
            continue
        holders.add(marker)
        for ancestor in marker.iterancestors():
            if ancestor in holders:
                break
            holders.add(ancestor)
    return holders


def _page_wrappers(root: lxml.html.HtmlElement) -> list:
    """<body>'s only child element, that one's only child, and so on: boxes around the whole
    page, whatever their class or id says (a wrapper id="...newsletters..." around a page, as
    CleanEval's <text id="URL"> around each of its pages, held five pages' whole text)."""
    wrappers: list = []
    element = next(root.iterchildren("body"), None)
    while element is not None and len(element) == 1 and len(wrappers) < PAGE_WRAPPER_MAX_LEVELS:
        element = element[0]
        wrappers.append(element)
    return wrappers


def _form_is_noise(form: lxml.html.HtmlElement, options: ExtractOptions) -> bool:
    """A form is noise (search box, comment box, login) unless it wraps prose.

    Whole ASP.NET pages sit inside one <form>; those hold paragraphs. Forum threads
    sit inside a moderation form; their posts hold text but often no <p>.
    """
    paragraphs = 0
    for _ in form.iter("p"):
        paragraphs += 1
        if paragraphs >= options.form_keep_min_paragraphs:
            return False
    # Forum threads sit inside a moderation <form> and write posts without <p>.
    chars = 0
    for text in form.itertext():
        chars += len(text.strip())
        if chars >= options.form_keep_min_chars:
            return False
    return True



# Magic numbers of binary formats often served as text/html by mistake.
_BINARY_MAGIC = (b"%PDF", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b", b"RIFF",
                 b"\x00\x00\x01\x00", b"OggS", b"ID3", b"\x7fELF")


def looks_binary(data: bytes, sample_bytes: int = 1024) -> bool:
    """True for bytes that are not a text page (known magic number, or NULs in the head)."""
    head = data[:sample_bytes]
    if head.startswith(_BINARY_MAGIC):
        return True
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False   # UTF-16 BOM: NULs are expected
    # counted in C by bytes.translate: 2 us of CPU for a page's head, a loop in Python took 16
    controls = len(head) - len(head.translate(None, _NON_TEXT_CONTROL_BYTES))
    return controls * BINARY_CONTROL_BYTE_SHARE_INVERSE > len(head)


# Control bytes that text pages do contain: tab, newline, form feed, carriage return, ESC (ISO-2022).
_TEXT_CONTROL_BYTES = frozenset(b"\t\n\x0c\r\x1b")
_NON_TEXT_CONTROL_BYTES = bytes(byte for byte in range(0x20) if byte not in _TEXT_CONTROL_BYTES)
# More than 1 control byte in 100 marks binary data (random bytes hold ~10 in 100, text pages ~0).
BINARY_CONTROL_BYTE_SHARE_INVERSE = 100
