"""Kickers: the short label a page sets over a headline or a box ("Wahlkampf in Thüringen",
"Hitzefolgen", "Ask an Advisor"), named by the page's markup ("article__kicker", "topline",
"c-article-header__overline", "ArticleHeader-eyebrow", "Dachzeile").

The label is no sentence of the story, and the gold of fundus-dev leaves it out. The name alone
is no verdict: a block so named goes only when its text is a label's length (at most
``kicker_max_chars``); a longer one (a lead set under such a name) stays.
"""
from __future__ import annotations

from .dom import collapsed_text
from .named_blocks import NamedBlocks, inside_any
from .options import ExtractOptions
from .patterns import KICKER_NAME_RE


def drop_kickers(named: NamedBlocks, options: ExtractOptions) -> None:
    """Remove the kickers inside the content's nodes (module docstring); their tails stay."""
    doomed: list = []
    for element in named.matching(KICKER_NAME_RE):
        if not inside_any(element, doomed) and \
                0 < len(collapsed_text(element)) <= options.kicker_max_chars:
            doomed.append(element)
    named.remove(doomed)
