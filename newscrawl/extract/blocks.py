"""Anchor-block rules: is a block link navigation? (DEVELOPERS.md, anchor/form rules)

A block is link navigation when anchor text dominates it: more than
``nav_min_links`` links and a non-anchor/anchor text ratio below
``nav_text_ratio``. It is kept, whatever its links, when it has a run of more
than ``nav_keep_run_chars`` non-anchor characters, more than
``nav_keep_long_chars`` non-anchor characters with fewer than
``nav_keep_max_links`` links, or more than ``nav_keep_dominant_chars``
non-anchor characters exceeding its anchor characters. Thresholds come from the
source paper and live in :class:`~newscrawl.extract.options.ExtractOptions`.
"""
from __future__ import annotations

from .density import NodeStats
from .options import ExtractOptions
from .patterns import HEADING_TAGS, LIST_DATE_RE


def has_prose(stats: NodeStats, options: ExtractOptions) -> bool:
    """The keep-exceptions of the anchor rule: the block carries real text."""
    plain = stats.plain_chars
    if stats.longest_plain_run > options.nav_keep_run_chars:
        return True
    if plain > options.nav_keep_long_chars and stats.link_tags < options.nav_keep_max_links:
        return True
    return plain > options.nav_keep_dominant_chars and plain > stats.link_chars


def is_link_navigation(stats: NodeStats, options: ExtractOptions) -> bool:
    """True when the block is a menu, a link list or a related-links box."""
    if stats.link_tags <= options.nav_min_links or stats.link_chars == 0:
        return False
    if has_prose(stats, options):
        return False
    return stats.plain_chars / stats.link_chars < options.nav_text_ratio


def is_link_teaser(stats: NodeStats, options: ExtractOptions) -> bool:
    """A block that is one link with at most a short label ("Read more: <a>...</a>")."""
    return (stats.link_tags >= 1 and stats.link_chars > stats.plain_chars
            and stats.plain_chars <= options.teaser_max_plain_chars)


def is_dated_link_list(element, options: ExtractOptions) -> bool:
    """A related-stories list: a few story links, a date (LIST_DATE_RE) for each, and at most a
    short label ("More on this story"). The dates may sit inside the links or beside them."""
    links = [_words(a) for a in element.iter("a")]
    headlines = sum(1 for text in links if len(text) >= options.related_min_headline_chars)
    if not options.related_min_links <= headlines <= options.related_max_links:
        return False
    whole = _words(element)
    if len(LIST_DATE_RE.findall(whole)) < headlines:
        return False
    rest = whole
    for text in links:
        rest = rest.replace(text, " ", 1)
    label = LIST_DATE_RE.sub("", rest)
    return len("".join(label.split())) <= options.related_max_label_chars


def _words(element) -> str:
    """The element's text, whitespace-normalised, a space between the texts of its elements."""
    return " ".join(" ".join(element.itertext()).split())


def is_linked_heading(heading, share: float) -> bool:
    """A heading that is a headline link: links hold ``share`` of its text."""
    chars = len("".join(heading.itertext()).strip())
    link_chars = sum(len("".join(a.itertext()).strip()) for a in heading.iter("a"))
    return chars > 0 and link_chars >= share * chars


def teaser_headings(node, options: ExtractOptions) -> dict[int, int]:
    """id() of each element inside ``node`` holding headline links (is_linked_heading) -> how many
    (``node`` itself left out). Empty when ``node`` holds fewer than ``teaser_list_min_units``."""
    linked = [heading for heading in node.iter(*HEADING_TAGS)
              if heading is not node and (is_linked_heading(heading, options.teaser_heading_link_share)
                                          or _unit_link(heading, node, options))]
    if len(linked) < options.teaser_list_min_units:
        return {}
    counts: dict[int, int] = {}
    for heading in linked:
        for element in heading.iterancestors():
            if element is node:
                break
            counts[id(element)] = counts.get(id(element), 0) + 1
    return counts


def _unit_link(heading, node, options: ExtractOptions) -> bool:
    """Is the heading the headline of a teaser unit whose link is a short one standing alone after it
    ("weiterlesen", "Read more"), in an ancestor of the heading up to ``teaser_unit_link_levels``
    above it that holds no other heading and fewer than ``teaser_list_max_unit_chars`` chars?"""
    unit = heading
    for _ in range(options.teaser_unit_link_levels):
        unit = unit.getparent()
        if unit is None or unit is node:
            return False
        if any(other is not heading for other in unit.iter(*HEADING_TAGS)):   # stops at the first
            return False
        if len(_words(unit)) >= options.teaser_list_max_unit_chars:
            return False
        after = False
        for element in unit.iter():
            if element is heading:
                after = True
            elif after and element.tag == "a" and element.get("href") \
                    and not any(a is heading for a in element.iterancestors()):
                words = _words(element)
                parent = element.getparent()
                if 0 < len(words) <= options.teaser_more_link_max_chars and parent is not None \
                        and _words(parent) == words:
                    return True
    return False


def is_teaser_card(element, options: ExtractOptions) -> bool:
    """A card that points to another story (a nested ``<article>``: a kicker and headline over an
    excerpt and a picture): a link without text laid over the whole card, or a heading that is a
    headline link (is_linked_heading)."""
    if any(a.get("href") and not len(a) and not (a.text or "").strip() for a in element.iter("a")):
        return True
    return any(is_linked_heading(heading, options.teaser_heading_link_share)
               for heading in element.iter(*HEADING_TAGS))


def is_teaser_list(text_chars: int, linked_headings: int, options: ExtractOptions) -> bool:
    """A list of teasers (related or latest posts: a headline link, a short excerpt, a date): at
    least ``teaser_list_min_units`` headline links, and fewer than ``teaser_list_max_unit_chars``
    chars of text for each. Navigation, even when the excerpts are prose."""
    return (linked_headings >= options.teaser_list_min_units
            and text_chars < options.teaser_list_max_unit_chars * linked_headings)
