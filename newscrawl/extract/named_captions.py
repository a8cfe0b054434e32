"""Captions and photo credits that the page names as such, beside their picture.

Besides ``<figcaption>`` (dropped with ``drop_captions``), pages write a picture's caption and its
credit in a ``<span>``, ``<p>`` or ``<div>`` named for it: ``media-caption__description``,
``span.caption``, ``span.credit``, ``image-box__caption``. The name alone is no verdict (a class
holding "caption" on a whole story block exists: dropping every such block cost cleanportaleval
0.014); it counts when the block's place agrees: the block is short, shows no picture itself, and
sits in the unit of one picture, the nearest ancestor within ``caption_unit_max_levels`` that shows
a picture (or is a ``<figure>``) and holds little text beside the block (at most
``named_caption_max_chars``). Such a block is removed; the picture stays. A caption-named ``<p>``
and a caption set in a table or a definition list (the blog engines' older markup) stay: the older
evaluation sets keep those as text (the figures are in options.py).
"""
from __future__ import annotations

from .captions import picture_unit, strip_unit_text
from .dom import collapsed_text, text_of
from .named_blocks import TABLE_TAGS, NamedBlocks, inside_any, names_of
from .options import ExtractOptions
from .patterns import CAPTION_NAME_RE, IMAGE_TAGS, PICTURE_BOX_NAME_RE


def drop_named_captions(named: NamedBlocks, nodes: list, options: ExtractOptions) -> None:
    """Remove the named captions and credits of the content's pictures (module docstring)."""
    limit = options.named_caption_max_chars
    if limit <= 0:
        return
    doomed: list = []
    for element in named.matching(CAPTION_NAME_RE):
        if element.tag == "p" or element.tag in TABLE_TAGS or inside_any(element, doomed):
            continue
        text = collapsed_text(element)
        if not text or len(text) > limit or next(element.iter(*IMAGE_TAGS), None) is not None:
            continue
        if _beside_picture(element, len(text), nodes, options):
            doomed.append(element)
    named.remove(doomed)


def _beside_picture(element, own_chars: int, nodes: list, options: ExtractOptions) -> bool:
    """Is the element in the unit of one picture that holds little text beside it?"""
    unit = element
    for _ in range(options.caption_unit_max_levels):
        unit = unit.getparent()
        if unit is None or unit.tag in TABLE_TAGS or any(unit is node for node in nodes):
            return False
        pictures = sum(1 for _ in unit.iter(*IMAGE_TAGS))
        if pictures or unit.tag == "figure":
            if pictures > 1:
                return False
            rest = len(collapsed_text(unit)) - own_chars
            return rest <= options.named_caption_max_chars
    return False


def drop_picture_box_captions(nodes: list, options: ExtractOptions) -> None:
    """Strip the text of a picture's unit (captions.picture_unit) when the unit is named as the
    box of a picture and holds a short text (at most ``named_caption_max_chars``) that is no
    paragraph: a caption written under another name ("mediaSubtitleText", "lightbox__description")."""
    limit = options.named_caption_max_chars
    if limit <= 0:
        return
    for image in [image for node in nodes for image in node.iter(*IMAGE_TAGS)]:
        unit = picture_unit(image, nodes, options.caption_unit_max_levels)
        if unit is None or unit.tag == "p" or unit.tag in TABLE_TAGS:
            continue
        if PICTURE_BOX_NAME_RE.search(names_of(unit)) is None:
            continue
        if len(collapsed_text(unit)) <= limit and not _holds_paragraph(unit):
            strip_unit_text(unit)


def _holds_paragraph(unit) -> bool:
    return any(text_of(paragraph).strip() for paragraph in unit.iter("p"))
