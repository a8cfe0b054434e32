"""Fact boxes set in the story: a box the page names as one ("factbox", "info-box", "fakta").

A fact box sums up background beside the story (figures, a timeline, where to find help); the
gold of fundus-dev leaves it out, as a reader of the story skips it. The name alone is no verdict:
the boxes of such names together must hold less than ``fact_box_max_share`` of the content's text
(a job board wraps every one of its offers in an "infobox": there the boxes are the content), and
a table is never one (Wikipedia's "infobox" table is data the older golds keep).
"""
from __future__ import annotations

from .dom import text_of
from .named_blocks import TABLE_TAGS, NamedBlocks, inside_any
from .options import ExtractOptions
from .patterns import FACT_BOX_NAME_RE


def drop_fact_boxes(named: NamedBlocks, nodes: list, options: ExtractOptions) -> None:
    """Remove the fact boxes inside the content's nodes (module docstring)."""
    boxes: list = []
    for element in named.matching(FACT_BOX_NAME_RE, TABLE_TAGS):
        if not inside_any(element, boxes):
            boxes.append(element)
    if not boxes:
        return
    boxed = sum(len(text_of(box)) for box in boxes)
    if boxed < options.fact_box_max_share * sum(len(text_of(node)) for node in nodes):
        named.remove(boxes)
