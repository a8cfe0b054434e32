"""A paragraph that is one link, set between paragraphs of the story (the event's page before its
timetable, the cartoon a post is about): part of the text flow, not a link box.

The anchor rules (blocks.py) prune a block that is one link with at most a short label as a
teaser; content._leads_into_prose keeps one followed by a paragraph of prose. This keeps one
that follows a paragraph of prose, when another paragraph comes after it. A list of link
paragraphs right after the story keeps its first line by this; requiring the next paragraph to
hold text of its own too cut that, but also the gains on cx_bbc and readability (their golds keep
such lines: "Why is there tension between China and the Uighurs?"), so the simpler form stays.
"""
from __future__ import annotations

from .density import DensityTable
from .options import ExtractOptions


def is_story_link_paragraph(table: DensityTable, i: int, options: ExtractOptions) -> bool:
    """Element ``i`` is a ``<p>`` holding one link, the block before it (elements without text
    passed over) is a ``<p>`` of prose (more than ``nav_keep_run_chars`` chars outside links, and
    more of them than link chars) and a ``<p>`` follows it (``keep_story_link_paragraphs``)."""
    if not options.keep_story_link_paragraphs or table.tag_names[i] != "p" or table.link_tags[i] != 1:
        return False
    element = table.elements[i]
    following = element.getnext()
    if following is None or following.tag != "p":
        return False
    previous, j = element.getprevious(), None
    while previous is not None:   # an empty paragraph or ad slot between them is passed over
        j = table.find(previous)
        if j is None or table.text[j]:
            break
        previous = previous.getprevious()
    if previous is None or previous.tag != "p" or j is None:
        return False
    stats = table.stats(j)
    return stats.plain_chars > options.nav_keep_run_chars and stats.link_chars < stats.plain_chars
