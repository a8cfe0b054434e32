"""Choose the article's content node by the density score, gather, then prune.

1. score every container with the density formula (density.py) and take the best;
2. gather the best node's siblings that carry article prose (the published
   algorithm alone often returns one block of a longer article);
3. prune, inside what was gathered, link navigation by the anchor rules
   (blocks.py) and link-dense boilerplate blocks.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .blocks import (has_prose, is_dated_link_list, is_link_navigation, is_link_teaser, is_teaser_card, is_teaser_list,
                     teaser_headings)
from .captions import drop_repeated_captions
from .declared import DeclaredBody, coverage, declared_shingles
from .density import DensityTable, guarded_log
from .dom import collapsed_texts, text_of
from .fact_boxes import drop_fact_boxes
from .furniture import FURNITURE_LINE_TAGS, drop_read_more_teasers, is_furniture_line, is_meta_row, is_named_date_line
from .kickers import drop_kickers
from .link_paragraphs import is_story_link_paragraph
from .named_captions import drop_named_captions, drop_picture_box_captions
from .named_blocks import NamedBlocks
from .names import NameStrength, name_key, name_strength
from .notices import drop_notices
from .options import ExtractOptions
from .patterns import (ARTICLE_BODY_CLASS_TOKENS, ARTICLE_MARKER_ITEMPROP, BOILERPLATE_LINE_ANYWHERE_ASCII_RE,
                       BOILERPLATE_LINE_ANYWHERE_RE, BOILERPLATE_LINE_START_ASCII_RE,
                       BOILERPLATE_LINE_START_RE, CONTAINER_TAGS,
                       FURNITURE_LINE_RE, FURNITURE_WHOLE_LINE_RE, TIMESTAMP_LINE_RE, END_SECTION_HEADING_RE, HEADING_TAGS, INLINE_PRUNABLE_TAGS,
                       PRUNABLE_BLOCK_TAGS, SIBLING_CONTENT_TAGS)
from .pointers import drop_read_also_pointers


@dataclass
class ContentChoice:
    nodes: list            # the chosen element and the gathered siblings, in document order
    best: int              # index of the best-scoring element in the table
    best_score: float


def find_best_node(table: DensityTable, options: ExtractOptions, suspects: Sequence = ()) -> tuple[int, float]:
    """Index and score of the container with the highest density score (-1 when none).

    An element inside an <a> of at most ``link_max_chars`` (a teaser's headline <span>) is
    no candidate: all its text is link text. A longer <a> is an unclosed tag the parser
    stretched over the page, not a link. Document order puts an <a> before its descendants,
    which follow it contiguously, so one index tells whether an element is inside one.
    """
    log_sd = guarded_log(table.standard_deviation())
    best, best_score = -1, 0.0
    named, named_score = -1, 0.0   # the best element named like an article body
    spans = _suspect_spans(table, suspects)
    next_span, span_end = 0, -1
    for i, score in zip(*_candidate_scores(table, log_sd, options)):
        while next_span < len(spans) and spans[next_span][0] <= i:
            span_end = max(span_end, spans[next_span][1])
            next_span += 1
        if i <= span_end:   # inside a block named like boilerplate: the name weighs it down
            score *= options.named_suspect_score_factor
        if score > best_score:
            best, best_score = i, score
        if score > named_score and names_article_body(table.elements[i]):
            named, named_score = i, score
    if named >= 0 and _named_body_wins(table, best, named, options):
        return named, named_score
    return best, best_score


def _suspect_spans(table: DensityTable, suspects: Sequence) -> list[tuple[int, int]]:
    """(first, last) table index of each suspect's subtree, in document order."""
    spans = []
    for element in suspects:
        i = table.find(element)
        if i is not None:
            spans.append((i, i + table.tags[i]))
    spans.sort()
    return spans


def drop_named_boxes(table: DensityTable, top: int, nodes: list, suspects: Sequence, options: ExtractOptions) -> list:
    """Drop the suspects (blocks named like boilerplate, kept for their prose) gathered beside the
    content node ``top``, and those inside the chosen nodes unless they, with the other suspects of
    their name there (names.name_key), hold at least ``named_box_min_share`` of the nodes' non-link text:
    a promo box with prose inside or after the story goes, a story's own paragraphs named
    "paywall" stay. Returns the dropped blocks."""
    if not suspects:
        return []
    spans = [(table.find(node), node) for node in nodes]
    spans = [(i, i + table.tags[i]) for i, _ in spans if i is not None]
    total = sum(table.text[i] - table.link_text[i] for i, _ in spans)
    inside: dict = {}
    doomed = []
    for element in suspects:
        i = table.find(element)
        if i is None or element.getparent() is None:
            continue
        if i != top and any(first == i for first, _ in spans):
            doomed.append(element)
        elif any(first < i <= last for first, last in spans):  # type: ignore[operator]  # i is an int (above)
            inside.setdefault(name_key(element), []).append(i)
    for indexes in inside.values():
        kept, end, plain = [], -1, 0
        for i in sorted(indexes):
            if i > end:
                kept.append(i)
                end = i + table.tags[i]
                plain += table.text[i] - table.link_text[i]
        if not _names_text_style(table.elements[kept[0]]) or plain < options.named_box_min_share * total:
            doomed.extend(table.elements[i] for i in kept)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
    return doomed


def _names_text_style(element) -> bool:
    """Does a boilerplate name on a block inside the article style its text rather than mark a
    box? Yes for a name met only inside compounds (a page builder's widget, a BEM modifier, a
    layout), and for a whole name on the text's own paragraphs (<p class="paywall">): a box
    named "promo" or "widget" holding a slideshow inside the story goes."""
    if element.tag == "p":
        return True
    return name_strength(element.get("class") or "", element.get("id") or "") is NameStrength.PART


def _candidate_scores(table: DensityTable, log_sd: float, options: ExtractOptions) -> tuple[list[int], list[float]]:
    """The candidates (``_candidates``) and their scores, times log(T - LT) ** mass_weight
    (when that is not 0). Computed in C when the table was counted there, with the same
    float operations in the same order (the same bits)."""
    if table.compiled_counts is not None:
        return table.compiled_counts.candidate_scores(options.min_candidate_chars, options.link_max_chars,
                                                      log_sd, float(options.mass_weight))
    candidates = _candidates(table, options)
    text, link_text = table.text, table.link_text
    scores = []
    for i in candidates:
        score = table.score(i, log_sd)
        if options.mass_weight:
            score *= math.log(text[i] - link_text[i]) ** options.mass_weight
        scores.append(score)
    return candidates, scores


def _candidates(table: DensityTable, options: ExtractOptions) -> list[int]:
    """Indexes of the containers with at least ``min_candidate_chars`` of non-link text that
    lie inside no short <a>, in document order.

    Two list comprehensions pick the containers and the short links, then the links' spans
    are laid over the containers: one Python step per container and per link, not per element.
    """
    text, link_text, tags, tag_names = table.text, table.link_text, table.tags, table.tag_names
    minimum, link_max = options.min_candidate_chars, options.link_max_chars
    containers = [i for i, tag in enumerate(tag_names)
                  if tag in CONTAINER_TAGS and text[i] - link_text[i] >= minimum]
    links = [i for i, tag in enumerate(tag_names) if tag == "a" and text[i] <= link_max]
    if not links:
        return containers
    kept = []
    link_end = -1   # last index inside a short <a> before the container
    next_link = 0
    for i in containers:
        while next_link < len(links) and links[next_link] <= i:
            end = links[next_link] + tags[links[next_link]]
            if end > link_end:
                link_end = end
            next_link += 1
        if i > link_end:
            kept.append(i)
    return kept


def names_article_body(element) -> bool:
    """Is the element named like the body of a post or story (class or itemprop)?"""
    classes = element.get("class")
    if classes and not ARTICLE_BODY_CLASS_TOKENS.isdisjoint(classes.lower().split()):
        return True
    return element.get("itemprop") == ARTICLE_MARKER_ITEMPROP


def _named_body_wins(table: DensityTable, best: int, named: int, options: ExtractOptions) -> bool:
    """Does the element named like an article body replace the best node?

    When the best node lies elsewhere (neither holds the other), if the named body holds at
    least ``body_name_min_share`` of its non-link chars. When the best node holds the named
    body, only if it is too link-dense to be climbed to (``climb_max_link_density``): a whole
    page column, menus and all. Inside the named body, the density score already chose within
    the article (climbing and gathering take it from there).
    """
    tags = table.tags
    if named <= best <= named + tags[named]:
        return False
    if best <= named <= best + tags[best]:
        return table.link_text[best] > options.climb_max_link_density * table.text[best]
    named_chars = table.text[named] - table.link_text[named]
    best_chars = table.text[best] - table.link_text[best]
    return named_chars >= options.body_name_min_share * best_chars


def _is_article_sibling(table: DensityTable, i: int, best_score: float, log_sd: float,
                        options: ExtractOptions) -> bool:
    if table.tag_names[i] not in SIBLING_CONTENT_TAGS:
        return False
    stats = table.stats(i)
    if stats.plain_chars == 0 or is_link_navigation(stats, options):
        return False
    if stats.link_density > options.sibling_max_link_density:
        return False
    if table.score(i, log_sd) >= options.sibling_min_score_share * best_score:
        return True
    return (stats.plain_chars >= options.sibling_min_chars and stats.punctuation >= 1) or has_prose(stats, options)


def climb_to_article(table: DensityTable, best: int, options: ExtractOptions) -> int:
    """Go up from the best node while the parent adds prose rather than links.

    The density score favours a single text-heavy leaf (its TD is its whole
    text); its ancestors that stay low in link density hold the rest of the
    article. Stops at <body>.
    """
    node = best
    while True:
        parent = table.elements[node].getparent()
        if parent is None or parent.tag in ("body", "html"):
            return node
        p = table.index_of(parent)
        added_text = table.text[p] - table.text[node]
        added_links = table.link_text[p] - table.link_text[node]
        if added_text <= 0:
            node = p
            continue
        if added_links / added_text > options.climb_max_link_density:
            return node
        if table.text[node] >= options.climb_min_share * table.text[p]:
            node = p
            continue
        if table.link_text[p] / table.text[p] > options.climb_max_link_density:
            return node
        node = p


def _kind(element) -> tuple:
    classes = (element.get("class") or "").split()
    return element.tag, classes[0] if classes else ""


def widen_to_repeated_posts(table: DensityTable, top: int, options: ExtractOptions) -> int:
    """The list holding the content node when it is one of several alike posts (a forum
    thread: <li class="message"> after <li class="message">, each with its own prose).

    Looks at the content node and its ancestors up to ``posts_max_levels`` up; alike
    siblings share the tag and the first class name.
    """
    node = table.elements[top]
    for _ in range(options.posts_max_levels + 1):
        parent = node.getparent()
        if parent is None or parent.tag in ("body", "html"):
            return top
        kind = _kind(node)
        posts, prose = 0, 0
        for sibling in parent.iterchildren():
            if sibling is node or _kind(sibling) != kind:
                continue
            position = table.find(sibling)
            if position is not None and has_prose(table.stats(position), options):
                posts += 1
                prose += table.text[position] - table.link_text[position]
        n = table.index_of(node)
        if posts + 1 >= options.posts_min_count and prose >= table.text[n] - table.link_text[n]:
            p = table.index_of(parent)
            if table.link_text[p] <= options.climb_max_link_density * table.text[p]:
                return p
            return top
        node = parent
    return top


def body_parts(table: DensityTable, top: int, options: ExtractOptions) -> list:
    """The parts of an article body split over alike elements named like a body, each in its own
    wrapper (<div class="story-body story-body-1"> and "story-body-2", each with an aside after
    it): with the content node, those of the same tag and first class, named in
    ARTICLE_BODY_CLASS_TOKENS, up to ``body_parts_max_levels`` levels up, outside the content
    node's parent (its siblings are gather_siblings' to judge) and holding at least
    ``body_parts_min_chars`` chars of non-link text. In document order; [] when there are none."""
    element = table.elements[top]
    classes = (element.get("class") or "").split()
    if not classes or classes[0].lower() not in ARTICLE_BODY_CLASS_TOKENS:
        return []
    kind, parent = _kind(element), element.getparent()
    ancestor = parent
    for _ in range(options.body_parts_max_levels - 1):
        ancestor = ancestor.getparent() if ancestor is not None else None
        if ancestor is None or ancestor.tag in ("body", "html"):
            return []
        a = table.index_of(ancestor)
        parts, i = [], a + 1
        while i <= a + table.tags[a]:
            candidate = table.elements[i]
            if i == top:
                parts.append(candidate)
            elif candidate.tag == kind[0] and _kind(candidate) == kind:
                if (candidate.getparent() is not parent
                        and table.text[i] - table.link_text[i] >= options.body_parts_min_chars):
                    parts.append(candidate)
            else:
                i += 1
                continue
            i += table.tags[i] + 1   # parts do not nest: skip its descendants
        if len(parts) > 1:
            return parts
    return []


def gather_siblings(table: DensityTable, best: int, best_score: float,
                    options: ExtractOptions) -> tuple[list, object]:
    """The best node plus its siblings that carry article prose, in order; and the first
    related-stories list after the best node (blocks.is_dated_link_list), gathered too, or None."""
    node = table.elements[best]
    parent = node.getparent()
    if parent is None or parent.tag in ("html",):
        return [node], None
    log_sd = guarded_log(table.standard_deviation())
    chosen = []
    after = False
    related = None
    for sibling in parent.iterchildren():
        if sibling is node:
            chosen.append(sibling)
            after = True
            continue
        position = table.find(sibling)
        if position is not None and _is_article_sibling(table, position, best_score, log_sd, options):
            chosen.append(sibling)
        elif after and related is None and position is not None and table.link_text[position] \
                and is_dated_link_list(sibling, options):
            related = sibling
            chosen.append(sibling)
    return chosen, related


def prune_blocks(table: DensityTable, nodes: list, options: ExtractOptions) -> None:
    """Drop link navigation blocks, link teasers and teaser lists inside the chosen nodes."""
    doomed = []
    tags, link_tags = table.tags, table.link_tags
    for node in nodes:
        start = table.find(node)
        if start is None:
            continue
        teasers = _teaser_lists(table, node, start, options) | _teaser_cards(table, start, options)
        end = start + tags[start]
        i = start + 1
        while i <= end:
            tag = table.tag_names[i]
            if i in teasers:
                doomed.append(table.elements[i])
                i += tags[i] + 1
                continue
            # A block without links can only be a control panel, of panel_min_elements or more:
            # the others are passed without their NodeStats (select 0.538 -> 0.510 ms a page).
            if tag in PRUNABLE_BLOCK_TAGS and (link_tags[i] or tags[i] >= options.panel_min_elements) \
                    and _is_link_block(table.stats(i), tag, options) and not _in_running_text(table.elements[i]) \
                    and not _leads_into_prose(table, i, tag, options) \
                    and not is_story_link_paragraph(table, i, options):
                doomed.append(table.elements[i])
                i += tags[i] + 1   # skip its descendants
                continue
            i += 1
    for element in doomed:
        element.drop_tree()


def _teaser_lists(table: DensityTable, node, start: int, options: ExtractOptions) -> set[int]:
    """Indexes of the outermost teaser lists inside the content node (blocks.is_teaser_list),
    when the node holds more text outside them than in them: a node made mostly of teasers is a
    list page, judged as a whole (verdict.is_teaser_index), not emptied."""
    headlines = teaser_headings(node, options)
    if not headlines:
        return set()
    found, listed = set(), 0
    i, end = start + 1, start + table.tags[start]
    story = _longest_paragraph(table, start, end)
    while i <= end:
        if table.tag_names[i] in PRUNABLE_BLOCK_TAGS and not i < story <= i + table.tags[i] \
                and is_teaser_list(table.text[i], headlines.get(id(table.elements[i]), 0), options):
            found.add(i)
            listed += table.text[i]
            i += table.tags[i] + 1
            continue
        i += 1
    return found if table.text[start] - listed > listed else set()


def _teaser_cards(table: DensityTable, start: int, options: ExtractOptions) -> set[int]:
    """Indexes of the teaser cards inside the content node: an ``<article>`` nested in it of fewer
    than ``teaser_card_max_chars`` chars that is a teaser of another story (blocks.is_teaser_card),
    and does not hold the story's longest paragraph; as for teaser lists, only when the node holds
    more text outside the cards than in them (a front page of cards is judged as a whole)."""
    end = start + table.tags[start]
    cards = [i for i in range(start + 1, end + 1) if table.tag_names[i] == "article"
             and 0 < table.text[i] < options.teaser_card_max_chars and table.link_tags[i]]
    if not cards:
        return set()
    story = _longest_paragraph(table, start, end)
    found = {i for i in cards if not i < story <= i + table.tags[i]
             and is_teaser_card(table.elements[i], options)}
    carded = sum(table.text[i] for i in found)
    return found if table.text[start] - carded > carded else set()


def _longest_paragraph(table: DensityTable, start: int, end: int) -> int:
    """Index of the <p> with the most non-link text from ``start`` to ``end`` (-1 when none): the
    story's own prose, which no teaser list inside the content holds."""
    text, link_text = table.text, table.link_text
    paragraphs = [i for i in range(start, end + 1) if table.tag_names[i] == "p"]
    return max(paragraphs, key=lambda i: text[i] - link_text[i], default=-1)


def _leads_into_prose(table: DensityTable, i: int, tag: str, options: ExtractOptions) -> bool:
    """A paragraph that is one link, followed by a paragraph of prose: a crosshead or a pointer in
    the text flow ("Davos coverage in full", a portal's section head linking to its full story),
    not a link box. The gold texts of ../shared/eval hold 220 of the 258 lines this keeps: token F1
    cx_zh +0.0044, readability +0.0007, dragnet +0.0006, cx_bbc +0.0003, cleanportaleval +0.0001,
    cleaneval +0.0001, htmltotext unchanged (2026-11-26). Prose: more than ``nav_keep_run_chars``
    non-link chars (the anchor rules' run), and more of them than link chars."""
    if tag != "p" or table.link_tags[i] != 1:
        return False
    following = table.elements[i].getnext()
    if following is None or following.tag != "p":
        return False
    j = table.find(following)
    if j is None:
        return False
    stats = table.stats(j)
    return stats.plain_chars > options.nav_keep_run_chars and stats.link_chars < stats.plain_chars


def _in_running_text(element) -> bool:
    """An inline element (INLINE_PRUNABLE_TAGS) followed by text in its line: a word of a sentence
    ("<span><a>Google</a></span> bought DeepMind in 2014"), not a link block."""
    return element.tag in INLINE_PRUNABLE_TAGS and bool((element.tail or "").strip())


def _is_link_block(stats, tag: str, options: ExtractOptions) -> bool:
    return (is_link_navigation(stats, options) or is_link_teaser(stats, options)
            or (tag not in _TABLE_TAGS and _is_control_panel(stats, options)))


_TABLE_TAGS = frozenset({"table", "tbody", "tr", "td"})


def _is_control_panel(stats, options: ExtractOptions) -> bool:
    """A block of many elements with a word or two each and no sentence (a player's
    settings menu: "Aa", "Arial", "75%"...)."""
    return (stats.tags >= options.panel_min_elements
            and stats.text_chars < options.panel_max_chars_per_element * stats.tags
            and stats.longest_plain_run <= options.nav_keep_run_chars)


def prune_boilerplate_lines(table: DensityTable, nodes: list, options: ExtractOptions) -> None:
    """Drop short blocks whose text is page furniture (source credits, 'Advertisement'...)."""
    doomed = []
    limit = options.boilerplate_line_max_chars
    furniture_limit = options.furniture_line_max_chars
    longest = max(limit, furniture_limit)
    text, tag_names = table.text, table.tag_names
    for node in nodes:
        start = table.find(node)
        if start is None:
            continue
        short_blocks = [i for i in range(start + 1, start + 1 + table.tags[start])
                        if 0 < text[i] <= longest and (tag_names[i] in PRUNABLE_BLOCK_TAGS
                                                       or tag_names[i] in FURNITURE_LINE_TAGS)]
        elements = [table.elements[i] for i in short_blocks]
        lines = collapsed_texts(elements)
        stamps = []
        for i, element, line in zip(short_blocks, elements, lines):
            chars = text[i]
            if tag_names[i] in FURNITURE_LINE_TAGS:   # a heading or a <time>: furniture lines only
                if chars <= furniture_limit and is_furniture_line(line):
                    doomed.append(element)
                elif chars <= limit and tag_names[i] == "time" and is_named_date_line(line):
                    stamps.append(element)
            elif (chars <= limit and (is_boilerplate_line(line) or FURNITURE_WHOLE_LINE_RE.match(line))) or \
                    (chars <= furniture_limit and (FURNITURE_LINE_RE.match(line) or is_meta_row(line))):
                doomed.append(element)
            elif chars <= limit and TIMESTAMP_LINE_RE.match(line):
                stamps.append(element)
        if len(stamps) <= options.timestamp_lines_max:
            doomed.extend(stamps)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()


def is_boilerplate_line(line: str) -> bool:
    """Is this short line page furniture? (BOILERPLATE_LINE_START_RE / _ANYWHERE_RE, patterns.py)

    An ASCII line is lowercased and matched by the patterns' twins without re.I: the start
    pattern 1.2 -> 0.9 us a line over the short lines of ../shared/eval, the same matches.
    """
    if line.isascii():
        lowered = line.lower()
        return BOILERPLATE_LINE_START_ASCII_RE.match(lowered) is not None or \
            BOILERPLATE_LINE_ANYWHERE_ASCII_RE.search(lowered) is not None
    return BOILERPLATE_LINE_START_RE.match(line) is not None or BOILERPLATE_LINE_ANYWHERE_RE.search(line) is not None


def cut_end_sections(nodes: list) -> None:
    """Cut a furniture section after the story (author bio, related links) and what follows
    it in its block: it opens with a heading named in END_SECTION_HEADING_RE."""
    doomed = []
    for node in nodes:
        for heading in node.iter(*HEADING_TAGS):
            if heading is not node and _opens_end_section(heading):
                doomed.append(heading)
                doomed.extend(heading.itersiblings())
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()


def _opens_end_section(heading) -> bool:
    return END_SECTION_HEADING_RE.search(" ".join(text_of(heading).split())) is not None


def drop_headline_and_captions(nodes: list, options: ExtractOptions) -> None:
    """The <h1> is the page headline, returned as the title, not as body text;
    <figcaption> describes a picture, not the story (when ``drop_captions``)."""
    tags = ("h1", "figcaption") if options.drop_captions else ("h1",)
    for node in nodes:
        for element in list(node.iter(*tags)):
            if element is not node:
                element.drop_tree()


def declared_top(table: DensityTable, nodes: list, declared: DeclaredBody, options: ExtractOptions) -> int | None:
    """The element covering the page's declared body (declared.py) as the content node, when the
    gathered ``nodes`` hold less than ``declared_min_coverage`` of the body and it holds more (the
    density score chose another block); else None."""
    node = declared.node
    if node is None:
        return None
    position = table.find(node)
    if position is None or node.getparent() is None:
        return None   # removed by cleaning
    ours = coverage(declared, "\n".join(text_of(gathered) for gathered in nodes))
    if ours >= options.declared_min_coverage:
        return None
    return position if coverage(declared, text_of(node)) > ours else None


def cut_after_declared(table: DensityTable, nodes: list, declared: DeclaredBody, options: ExtractOptions) -> list:
    """Drop what follows the element covering the declared body inside the content (reader
    letters, teasers, a bio box after the story): the gathered nodes after the one holding it, and
    the following siblings of it and of its ancestors inside that node, each when less than
    ``declared_min_coverage`` of its word trigrams are in the body. Only when the element holds at
    least ``declared_complete_coverage`` of the body and more chars than all that is dropped (a
    declared body cut short, a lead or the bullet points, leaves the story after it whole).
    The nodes kept, in order."""
    node = declared.node
    if node is None or node.getparent() is None or table.find(node) is None:
        return nodes
    holder = next((n for n in nodes if n is node or any(a is n for a in node.iterancestors())), None)
    if holder is None or coverage(declared, text_of(node)) < options.declared_complete_coverage:
        return nodes
    after = nodes[nodes.index(holder) + 1:]
    element = node
    while element is not holder:
        after.extend(element.itersiblings())
        element = element.getparent()
    doomed = [block for block in after if not _in_declared(block, declared, options)]
    if not doomed or sum(len(text_of(block)) for block in doomed) >= len(text_of(node)):
        return nodes
    for block in doomed:
        if block not in nodes and block.getparent() is not None:
            block.drop_tree()
    return [n for n in nodes if not any(n is block for block in doomed)]


def _in_declared(block, declared: DeclaredBody, options: ExtractOptions) -> bool:
    own = declared_shingles(text_of(block))
    return bool(own) and len(own & declared.shingles) >= options.declared_min_coverage * len(own)


def choose_content(table: DensityTable, options: ExtractOptions, suspects: Sequence = (),
                   declared: DeclaredBody | None = None) -> ContentChoice | None:
    """The article's nodes. ``suspects``: blocks named like boilerplate that clean_tree kept for
    their prose (weighed down as candidates, dropped inside the article unless a large part of it);
    ``declared``: the page's JSON-LD article body, a check on the choice (declared.py)."""
    best, best_score = find_best_node(table, options, suspects)
    if best < 0:
        return None
    top = climb_to_article(table, best, options)
    top = widen_to_repeated_posts(table, top, options)
    nodes, related = gather_siblings(table, top, best_score, options)
    if declared is not None:
        switched = declared_top(table, nodes, declared, options)
        if switched is not None:
            top = switched
            nodes, related = gather_siblings(table, top, best_score, options)
    parts = body_parts(table, top, options)
    if parts:   # the other parts go before and after the content node's place in the nodes
        node = table.elements[top]
        k = next(n for n, part in enumerate(parts) if part is node)
        at = next(n for n, gathered in enumerate(nodes) if gathered is node)
        nodes = nodes[:at] + parts[:k] + nodes[at:at + 1] + parts[k + 1:] + nodes[at + 1:]
    article = [node for node in nodes if node is not related]   # the related list is kept whole
    prune_blocks(table, article, options)
    dropped = set(drop_named_boxes(table, top, article, suspects, options))
    if dropped:
        nodes = [node for node in nodes if node not in dropped]
        article = [node for node in article if node not in dropped]
    prune_boilerplate_lines(table, article, options)
    texts = [(text, text.lower()) for text in map(text_of, article)]   # read once for both
    drop_read_also_pointers(article, options, texts)
    drop_notices(article, options, texts)
    drop_read_more_teasers(article, options)
    drop_repeated_captions(article, options)
    named = NamedBlocks(article)
    drop_named_captions(named, article, options)
    drop_picture_box_captions(article, options)
    drop_fact_boxes(named, article, options)
    drop_kickers(named, options)
    cut_end_sections(article)
    if declared is not None:
        nodes = cut_after_declared(table, nodes, declared, options)
    drop_headline_and_captions(nodes, options)
    return ContentChoice(nodes, best, best_score)
