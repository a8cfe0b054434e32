"""Which method finds the content: density (default), line blocks, or a site template.

The result's ``method`` names what produced the text:

- ``density``: the text + symbol density core (content.py);
- ``lineblock``: line-block distribution, asked for with ``algorithm="lineblock"``;
- ``lineblock-fallback``: line blocks because the density result was too thin
  (``lineblock_fallback``) and theirs was longer;
- ``template-cut``: the density output cut to the site template's region;
- ``template``: the density core run inside the template region only, because
  the density output lay mostly outside it (they disagreed badly);
- ``template-miss``: a template was given but its markers are not on the page;
  the density output is used;
- ``serialized``: the page's markup gave no content, and a string of its scripts held
  the article's markup (serialized.py), read by the density core.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .confidence import weighted_length
from .content import choose_content
from .declared import DeclaredBody
from .density import DensityTable
from .dom import clean_tree, parse_html, text_of
from .lineblock import lineblock_nodes
from .options import ExtractOptions
from .output import render_text
from .patterns import BLOCK_LEVEL_TAGS, SENTENCE_END_RE
from .serialized import serialized_article
from .template import SiteTemplate, template_region
from .verdict import prose_length

ALGORITHMS = ("density", "lineblock")


def check_algorithm(algorithm: str) -> None:
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown extraction algorithm {algorithm!r}: expected one of {', '.join(ALGORITHMS)}")


@dataclass
class Selection:
    nodes: list     # content elements to render, in order (empty: nothing found)
    method: str     # see the module docstring


def select_content(algorithm: str, template: SiteTemplate | None, source: str, table: DensityTable,
                   options: ExtractOptions, suspects: Sequence = (),
                   declared: DeclaredBody | None = None) -> Selection:
    """``suspects``: the named blocks clean_tree kept for their prose (content.choose_content);
    ``declared``: the page's JSON-LD article body, a check on the density choice (declared.py)."""
    if algorithm == "lineblock":
        return Selection(lineblock_nodes(source, options), "lineblock")
    choice = choose_content(table, options, suspects, declared)
    selection = Selection(choice.nodes if choice else [], "density")
    if options.lineblock_fallback and _too_thin(selection.nodes, options):
        fallback = lineblock_nodes(source, options)
        if fallback and _prose(fallback, options) > _prose(selection.nodes, options):
            selection = Selection(fallback, "lineblock-fallback")
    if template is not None:
        return apply_template(template, source, selection.nodes, options)
    return selection


def serialized_selection(root, selection: Selection, options: ExtractOptions) -> Selection:
    """``selection``, or the article the page's scripts hold as markup when ``selection`` is
    too thin and that article holds more prose (serialized.py). A selection of at least
    ``revealed_min_chars`` chars is kept without measuring its prose (the common case)."""
    if selection.nodes and sum(len(text_of(node)) for node in selection.nodes) >= options.revealed_min_chars:
        return selection
    if not _too_thin(selection.nodes, options):
        return selection
    region = serialized_article(root, options)
    if region is None:
        return selection
    suspects = clean_tree(region, options)
    choice = choose_content(DensityTable(region), options, suspects)
    if choice is None or _prose(choice.nodes, options) <= _prose(selection.nodes, options):
        return selection
    return Selection(choice.nodes, "serialized")


def _prose(nodes: list, options: ExtractOptions) -> int:
    return prose_length(render_text(nodes), options) if nodes else 0


def _too_thin(nodes: list, options: ExtractOptions) -> bool:
    return _prose(nodes, options) < options.min_article_chars


# --- site templates -----------------------------------------------------------

def _compact(text: str) -> str:
    return "".join(text.split())


def _leaf_blocks(nodes: list) -> list:
    """Block-level elements of the content with no block-level descendant (its paragraphs)."""
    blocks, holders = [], set()
    for node in nodes:
        for element in node.iter():
            if isinstance(element.tag, str) and element.tag in BLOCK_LEVEL_TAGS:
                blocks.append(element)
                if element is not node:
                    for ancestor in element.iterancestors():
                        if ancestor in holders:
                            break
                        holders.add(ancestor)
                        if ancestor is node:
                            break
    return [element for element in blocks if element not in holders]


def _outside(leaves: list, region_text: str, options: ExtractOptions) -> list:
    """Leaves to cut: text outside the template region, except paragraphs of the story before it."""
    outside, inside_seen = [], False
    for leaf in leaves:
        text = leaf.text_content()
        compact = _compact(text)
        if not compact:
            continue
        if compact in region_text:
            inside_seen = True
        elif inside_seen or not _story_paragraph(text, options):
            outside.append(leaf)
    return outside


def _story_paragraph(text: str, options: ExtractOptions) -> bool:
    text = text.strip()
    return (weighted_length(text, options) >= options.template_keep_paragraph_chars
            and SENTENCE_END_RE.search(text) is not None)


def apply_template(template: SiteTemplate, source: str, nodes: list, options: ExtractOptions) -> Selection:
    """Cut the density output to the template region, or replace it when they disagree badly."""
    fragment = template_region(source, template, options)
    if fragment is None:
        return Selection(nodes, "template-miss")
    region = parse_html(f"<html><body>{fragment}</body></html>")
    if region is None:
        return Selection(nodes, "template-miss")
    suspects = clean_tree(region, options)
    region_text = _compact(region.text_content())
    leaves = _leaf_blocks(nodes)
    outside = _outside(leaves, region_text, options)
    total = sum(weighted_length(_compact(leaf.text_content()), options) for leaf in leaves)
    dropped = sum(weighted_length(_compact(leaf.text_content()), options) for leaf in outside)
    if total and total - dropped >= options.template_agree_share * total:
        for leaf in outside:
            if leaf.getparent() is not None:
                leaf.drop_tree()
        return Selection([node for node in nodes if node not in outside], "template-cut")
    choice = choose_content(DensityTable(region), options, suspects)
    if choice is None or _too_thin(choice.nodes, options):
        return Selection(nodes, "template-miss")   # markers found, but no article between them
    return Selection(choice.nodes, "template")
