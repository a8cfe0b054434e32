"""``extract``: the recipe, step by step."""
from __future__ import annotations

from datetime import datetime

from .authors import find_authors
from .bios import drop_author_bio, drop_named_author_box
from .comments import append_comments, find_comment_areas
from .confidence import declares_article, score_article
from .contentblocks import remove_noise_blocks
from .dates import find_published
from .declared import read_declared_body
from .density import DensityTable
from .dom import clean_tree, decode_html, looks_binary, parse_html
from .head import read_head
from .language import guess_language
from .limits import Deadline, elements_within, too_many_attributes
from .metadata import PageMeta, read_page_meta
from .methods import check_algorithm, select_content, serialized_selection
from .options import ExtractOptions, make_options
from .output import render_html, render_text
from .result import ExtractResult
from .title import find_title
from .verdict import is_teaser_index, judge_article


def _no_article(url, reason: str, title=None, published=None, lang=None, page: PageMeta | None = None,
                authors=()) -> ExtractResult:
    return ExtractResult(url=url, title=title, published=published, text="", html="", lang=lang,
                         score=0.0, reason=reason, authors=tuple(authors),
                         canonical_url=page.canonical if page else None,
                         og_type=page.first("og:type") if page else None,
                         schema_types=tuple(page.jsonld_types()) if page else ())


def _unread_page(url, reason: str, fetched_at: datetime | None, opts: ExtractOptions,
                 text_html: str | None = None) -> ExtractResult:
    """No article, for a page whose content is not read (empty, too large, not HTML, no body).

    Its title and publish date still come from its ``<head>`` when the page is HTML (meta tags,
    JSON-LD), and the date from the URL (``/2018/09/02/``) as for any page."""
    head = read_head(text_html, opts.unread_head_max_chars, opts.max_attributes_per_element) \
        if text_html else None
    page = read_page_meta(head) if head is not None else PageMeta()
    title = find_title(head, page, opts) if head is not None else None
    published = find_published(head, page, url, fetched_at, opts)
    return _no_article(url, reason, title=title, published=published, lang=page.lang, page=page)


def _decode(html: str | bytes, encoding: str | None) -> str | None:
    if isinstance(html, (bytes, bytearray, memoryview)):
        data = bytes(html)
        if looks_binary(data):
            return None
        return decode_html(data, encoding)
    return html


def extract(html: str | bytes, url: str | None = None, *, options: ExtractOptions | None = None,
            encoding: str | None = None, fetched_at: datetime | None = None, algorithm: str = "density",
            template=None, **overrides) -> ExtractResult:
    """Extract the article of one page (str, or bytes decoded like a browser does).

    Never raises for a page that is not an article: the result's ``reason`` says why.
    ``options``: an :class:`ExtractOptions` (default: its defaults); keyword ``overrides`` replace
    single options of it (``extract(html, min_article_chars=80)``). An unknown option name, or
    ``options`` that is not an ``ExtractOptions``, raises ``TypeError``; an unknown ``algorithm``
    ``ValueError``. ``algorithm``: "density" (default) or "lineblock"; ``template``: a
    :class:`~newscrawl.extract.template.SiteTemplate` of the page's site.
    """
    check_algorithm(algorithm)
    opts: ExtractOptions = make_options(options, **overrides)
    deadline = Deadline(opts.max_seconds)
    if html is None or len(html) == 0:
        return _unread_page(url, "empty_input", fetched_at, opts)
    if len(html) > opts.max_input_chars:
        return _unread_page(url, "too_large", fetched_at, opts,
                            _decode(html[:opts.unread_head_max_chars], encoding))
    text_html = _decode(html, encoding)
    if text_html is None:
        return _unread_page(url, "not_html", fetched_at, opts)
    if too_many_attributes(text_html, opts.max_attributes_per_element):
        return _unread_page(url, "too_large", fetched_at, opts, text_html)
    root = parse_html(text_html)
    if root is None:
        return _unread_page(url, "no_body", fetched_at, opts, text_html)
    # Held until the page is done: without the compiled walks, one proxy per element (limits.py).
    elements = elements_within(root, opts.max_elements)
    if elements is None or deadline.passed():
        del root, elements
        return _unread_page(url, "too_large", fetched_at, opts, text_html)

    page = read_page_meta(root)
    title = find_title(root, page, opts)
    published = find_published(root, page, url, fetched_at, opts)
    authors = find_authors(root, page, opts)
    declared = read_declared_body(root, page, opts)   # before cleaning: on the page as served
    comment_areas = find_comment_areas(root, opts) if opts.include_comments else []   # the cleaning drops them

    if opts.content_blocks:
        remove_noise_blocks(root, opts)
    if deadline.passed():
        return _no_article(url, "too_large", title, published, page.lang, page, authors)
    suspects = clean_tree(root, opts, keep=declared.held if declared else ())
    table = DensityTable(root)
    if len(table.elements) > opts.max_elements or deadline.passed():
        return _no_article(url, "too_large", title, published, page.lang, page, authors)
    selection = select_content(algorithm, template, text_html, table, opts, suspects, declared)
    selection = serialized_selection(root, selection, opts)
    if not selection.nodes:
        return _no_article(url, "no_body", title, published, page.lang, page, authors)

    text = render_text(selection.nodes)
    if drop_author_bio(selection.nodes, text, authors, opts) or drop_named_author_box(selection.nodes, text, opts):
        text = render_text(selection.nodes)
    if is_teaser_index(selection.nodes, text, opts):
        return _no_article(url, "section_page", title, published, page.lang, page, authors)
    lang = page.lang or guess_language(text)
    schema_types = tuple(page.jsonld_types())
    # A page judged not to be an article keeps what was found (a news brief, a list's
    # teasers): the reason tells the caller, who decides.
    reason, link_density = judge_article(text, selection.nodes, schema_types, opts)
    og_type = page.first("og:type")
    score = 0.0 if reason else score_article(text, link_density, published is not None,
                                             declares_article(og_type, schema_types), opts)
    comment_nodes: list = []
    if comment_areas:
        text, comment_nodes = append_comments(comment_areas, selection.nodes, text, opts)
    html = render_html([*selection.nodes, *comment_nodes], url, keep_nodes=False)   # the last use of the tree
    return ExtractResult(
        url=url, title=title, published=published, text=text,
        html=html,
        lang=lang, score=score, reason=reason, authors=tuple(authors),
        canonical_url=page.canonical, og_type=og_type, schema_types=schema_types,
        link_density=round(link_density, 4), method=selection.method,
    )
