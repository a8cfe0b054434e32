""""Read also" pointers inside a story: a line that points at another article of the site.

``<p><b>Les også:</b> <a>headline</a></p>``, ``<p><a>READ MORE: headline</a></p>``,
``FUNDA OLUNYE UDABA LAPHA | <a>headline</a>``: a label of READ_ALSO_LABEL_RE (patterns.py)
opening a block whose text after it is mostly a link. Such a block is navigation, whatever its
length (the furniture lines of content.prune_boilerplate_lines stop at 80 chars; a headline
often runs longer).
"""
from __future__ import annotations

from .dom import collapsed_text, text_of
from .options import ExtractOptions
from .patterns import READ_ALSO_LABEL_RE, READ_ALSO_LABELS

# The blocks a pointer sits in (the nearest of them above its link).
_POINTER_BLOCKS = frozenset({"p", "li", "div", "h2", "h3", "h4", "h5", "h6", "blockquote"})


def drop_read_also_pointers(nodes: list, options: ExtractOptions, texts: list | None = None) -> None:
    """Drop the blocks inside ``nodes`` of at most ``read_also_max_chars`` chars that open with a
    read-also label and whose links hold at least ``read_also_link_share`` of the text after it.
    ``texts``: each node's (text, lowercased text) when the caller has them."""
    doomed = {}
    for n, node in enumerate(nodes):
        lowered = texts[n][1] if texts is not None else text_of(node).lower()
        if not any(label in lowered for label in READ_ALSO_LABELS):   # most pages have none
            continue
        for link in node.iter("a"):
            block = link.getparent()
            while block is not None and block is not node and block.tag not in _POINTER_BLOCKS:
                block = block.getparent()
            if block is None or block is node or block in doomed:
                continue
            text = collapsed_text(block)
            if len(text) > options.read_also_max_chars:
                continue
            label = READ_ALSO_LABEL_RE.match(text)
            if label is None:
                continue
            rest = len(text) - label.end()
            linked = sum(len(collapsed_text(a)) for a in block.iter("a"))
            if rest > 0 and linked >= options.read_also_link_share * rest:
                doomed[block] = True
    for block in doomed:
        if block.getparent() is not None:
            block.drop_tree()
