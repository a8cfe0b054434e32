"""Kickers: the short label a page sets over a headline or a box ("Wahlkampf in Thüringen",
"Hitzefolgen", "Ask an Advisor"), named by the page's markup ("article__kicker", "topline",
"c-article-header__overline", "ArticleHeader-eyebrow", "Dachzeile").

The label is no sentence of the story, and the gold of fundus-dev leaves it out. The name alone
is no verdict: a block so named goes only when its text is a label's length (at most
``kicker_max_chars``); a longer one (a lead set under such a name) stays.
"""
from __future__ import annotations

from .dom import text_of
from .options import ExtractOptions
from .patterns import KICKER_NAME_RE


def drop_kickers(nodes: list, options: ExtractOptions) -> None:
    """Remove the kickers inside the content's nodes (module docstring); their tails stay."""
    limit = options.kicker_max_chars
    doomed = []
    for node in nodes:
        for element in node.iter():
            if element is node or not isinstance(element.tag, str):
                continue
            names = f"{element.get('class') or ''} {element.get('id') or ''}"
            if len(names) < 6 or KICKER_NAME_RE.search(names.lower()) is None:
                continue
            if any(any(ancestor is kicker for kicker in doomed) for ancestor in element.iterancestors()):
                continue
            if 0 < len(" ".join(text_of(element).split())) <= limit:
                doomed.append(element)
    for element in doomed:
        if element.getparent() is not None:
            element.drop_tree()
