"""Fact boxes set in the story: a box the page names as one ("factbox", "info-box", "fakta").

A fact box sums up background beside the story (figures, a timeline, where to find help); the
gold of fundus-dev leaves it out, as a reader of the story skips it. The name alone is no verdict:
the boxes of such names together must hold less than ``fact_box_max_share`` of the content's text
(a job board wraps every one of its offers in an "infobox": there the boxes are the content), and
a table is never one (Wikipedia's "infobox" table is data the older golds keep).
"""
from __future__ import annotations

from .dom import text_of
from .options import ExtractOptions
from .patterns import FACT_BOX_NAME_RE

# A table, its parts and a definition list: data, never a fact box (module docstring).
DATA_TAGS = frozenset(("table", "thead", "tbody", "tfoot", "tr", "td", "th", "dl", "dt", "dd"))


def drop_fact_boxes(nodes: list, options: ExtractOptions) -> None:
    """Remove the fact boxes inside the content's nodes (module docstring)."""
    boxes = []
    for node in nodes:
        for element in node.iter():
            if element is node or not isinstance(element.tag, str) or element.tag in DATA_TAGS:
                continue
            names = f"{element.get('class') or ''} {element.get('id') or ''}"
            if len(names) < 6 or FACT_BOX_NAME_RE.search(names.lower()) is None:
                continue
            if not any(any(ancestor is box for box in boxes) for ancestor in element.iterancestors()):
                boxes.append(element)
    if not boxes:
        return
    boxed = sum(len(text_of(box)) for box in boxes)
    if boxed >= options.fact_box_max_share * sum(len(text_of(node)) for node in nodes):
        return
    for box in boxes:
        if box.getparent() is not None:
            box.drop_tree()
