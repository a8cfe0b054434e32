"""Is the extracted content an article? The reason when it is not.

Runs on the final content (after pruning), so a list page whose teasers survive
pruning is still told apart from an article by its links, and a contact or
about page by its lack of prose lines.
"""
from __future__ import annotations

from .confidence import weighted_length
from .dom import text_of
from .fastwalk import compiled
from .options import ExtractOptions
from .patterns import HEADING_TAGS, NON_ARTICLE_SCHEMA_TYPES


def content_link_density(nodes: list) -> float:
    """Share of the content's characters inside <a> elements."""
    total = links = 0
    for node in nodes:
        total += len(text_of(node).strip())
        links += sum(len(text_of(a).strip()) for a in node.iter("a"))
    return links / total if total else 0.0


def count_links(nodes: list) -> int:
    return sum(1 for node in nodes for _ in node.iter("a"))


def prose_length(text: str, options: ExtractOptions) -> int:
    """Weighted characters in lines long enough to be sentences of prose."""
    total = 0
    # No line shorter than this can weigh prose_line_min_chars, whatever its script.
    too_short = options.prose_line_min_chars / max(options.cjk_char_weight, 1)
    for line in text.split("\n"):
        if len(line) < too_short:
            continue
        length = weighted_length(line, options)
        if length >= options.prose_line_min_chars:
            total += length
    return total


def judge_article(text: str, nodes: list, schema_types: tuple[str, ...], options: ExtractOptions
                  ) -> tuple[str | None, float]:
    """(reason or None, link density of the content)."""
    counts = compiled.link_counts(nodes) if compiled is not None else None
    if counts is not None:   # the same figures, counted in C
        chars, link_chars, links = counts
        density = link_chars / chars if chars else 0.0
    else:
        density, links = content_link_density(nodes), None
    if any(kind.lower() in NON_ARTICLE_SCHEMA_TYPES for kind in schema_types):
        return "not_article_type", density
    if prose_length(text, options) < options.min_article_chars:
        return "too_short", density
    if density > options.max_article_link_density:
        return "link_page", density
    if (count_links(nodes) if links is None else links) >= options.list_min_links \
            and density > options.list_link_density:
        return "link_page", density
    return None, density


def is_teaser_index(nodes: list, text: str, options: ExtractOptions) -> bool:
    """A section front page: the content is headlines that link to stories, each over a short
    teaser, and no story of its own (see ``index_min_linked_headings``)."""
    headings = linked = 0
    for node in nodes:
        for heading in node.iter(*HEADING_TAGS):
            headings += 1
            chars = len("".join(heading.itertext()).strip())
            link_chars = sum(len("".join(a.itertext()).strip()) for a in heading.iter("a"))
            if chars and link_chars >= options.index_heading_link_share * chars:
                linked += 1
    if linked < options.index_min_linked_headings or linked < options.index_min_linked_share * headings:
        return False
    return len(text) < options.index_max_chars_per_teaser * linked
